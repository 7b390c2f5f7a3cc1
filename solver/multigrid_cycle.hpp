#pragma once
// The multigrid cycle over a Hierarchy: damped-Jacobi pre/post smoothing,
// restriction by R, coarse correction by P, dense direct solve on the coarsest
// level. V- or W-cycle. As a preconditioner it maps r to z = M^-1 r from a zero
// initial guess. Work vectors are allocated once per level.
#include <vector>

#include "amg/hierarchy.hpp"

namespace saga {

class MultigridCycle {
 public:
  explicit MultigridCycle(const Hierarchy& h);
  // z = cycle(r) with zero initial guess.
  void apply(const Vector& r, Vector& z) const;
  const Hierarchy& hierarchy() const { return *h_; }

 private:
  void cycle(std::size_t level, const Vector& b, Vector& x, bool zero_guess) const;
  void smooth(std::size_t level, const Vector& b, Vector& x, int sweeps, bool zero_guess) const;
  const Hierarchy* h_;
  std::vector<double> omega_;
  mutable std::vector<Vector> r_, bc_, xc_;
};

}  // namespace saga
