#pragma once
// Smoothers (relaxation) of the multigrid cycle, behind the smoother registry
// (amg.smoother). Each smoother is a component in solver/smoothers/ that owns
// its parameters and is built per level from the level's matrix, its inverse
// diagonal and the rho(D^-1 A) estimate of the setup. A new smoother: its file,
// its test, its docs entry and one line in SAGA_SMOOTHER_COMPONENTS
// (solver/smoother.cpp).
#include <memory>

#include "core/registry.hpp"
#include "solver/linear_operator.hpp"

namespace saga {

// What a smoother is built from on one level. A and dinv must outlive the
// smoother (they are the level's, or a SmootherOperator's own).
struct SmootherLevel {
  const CsrMatrix& A;
  const Vector& dinv;  // 1 / diag(A)
  double rho = 0;      // rho(D^-1 A) estimate; 0 = unknown (the smoother estimates it if it needs it)
};

class Smoother {
 public:
  virtual ~Smoother() = default;
  // `sweeps` smoothing steps on A x = b, updating x in place; with zero_guess
  // x's contents are ignored and taken as 0 (saves a product).
  virtual void smooth(const Vector& b, Vector& x, int sweeps, bool zero_guess) const = 0;
  // The same from the guess x_in, written to x_out (another vector; x_in may be
  // overwritten): lets a relaxation write its first sweep straight into x_out
  // instead of sweeping into scratch and copying back. Default: copy, smooth.
  // With `dot`, also (*dot)[slot] = b . x_out (fused into the last sweep where
  // the smoother can).
  virtual void smooth_from(const Vector& b, Vector& x_in, Vector& x_out, int sweeps, Scalars* dot = nullptr,
                           int slot = 0) const;
  // True when smooth_from saves a pass over smooth (the cycle then writes the
  // prolongated guess elsewhere and lets the smoother write x).
  virtual bool sweeps_out_of_place() const { return false; }
  // One sweep from x = 0 into x and the residual r = b - A x of its result,
  // fused where the smoother can (a cycle's pre-sweep and the residual it
  // restricts: one pass over A instead of a vector pass and a product).
  // Returns false, having done nothing, where it cannot.
  virtual bool sweep_from_zero_with_residual(const Vector& b, Vector& x, Vector& r) const {
    (void)b, (void)x, (void)r;
    return false;
  }
};

using SmootherRegistry = Registry<Smoother, const SmootherLevel&>;
const SmootherRegistry& smoothers();

// rho(D^-1 A) of a level: the setup's estimate, or a fresh one when unknown.
double level_rho(const SmootherLevel& L);

// One smoother sweep from zero as an operator (a smoother as a preconditioner).
class SmootherOperator final : public LinearOperator {
 public:
  // Builds smoother `c` for A (its own inverse diagonal and rho estimate).
  SmootherOperator(const CsrMatrix& A, const Component& c, int sweeps = 1);
  index_t rows() const override { return A_.rows(); }
  Space space() const override { return A_.space(); }
  void apply(const Vector& x, Vector& y) const override { smoother_->smooth(x, y, sweeps_, true); }
  bool graph_safe() const override { return true; }

 private:
  const CsrMatrix& A_;
  Vector dinv_;
  std::unique_ptr<Smoother> smoother_;
  int sweeps_;
};

}  // namespace saga
