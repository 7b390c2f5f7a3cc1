#pragma once
// The multigrid cycle over a Hierarchy: pre/post smoothing with the smoother
// component of each level, restriction by R, coarse correction by P, the coarse
// solver on the coarsest level, in the shape of the cycle component (V, W, F).
// An implicit P (amg.implicit_prolongator) is one fused pass over the level's A.
// As an operator it maps r to z = M^-1 r from a zero initial guess. Work
// vectors and smoothers are built once per level.
#include <functional>
#include <memory>
#include <vector>

#include "amg/hierarchy.hpp"
#include "solver/cycle.hpp"
#include "solver/cycle_params.hpp"
#include "solver/krylov.hpp"
#include "solver/linear_operator.hpp"
#include "solver/smoother.hpp"

namespace saga {

class MultigridCycle final : public LinearOperator {
 public:
  // Fine-level vectors a Krylov method allocates beside the cycle, left free
  // when the cycle's SpMV copies are sized against the process's peak memory:
  // krylov_vectors where the caller knows its method (Solver: its method's
  // krylov_workspace_vectors and x; PCG 4), else this (a caller's own method).
  static constexpr int kKrylovVectorsReserved = KrylovMethod::kDefaultWorkspaceVectors;
  // The hierarchy must outlive the cycle. Runs on the hierarchy's executor.
  MultigridCycle(const Hierarchy& h, const CycleParams& params, int krylov_vectors = kKrylovVectorsReserved);
  // z = cycle(r) with zero initial guess.
  void apply(const Vector& r, Vector& z) const override;
  // ... and s[slot] = r . z, fused into the last post-smoothing sweep of the
  // finest level where the smoother can (CG's r^T z for free).
  void apply_dot(const Vector& r, Vector& z, Scalars& s, int slot) const override;
  index_t rows() const override { return h_->levels().front().A.rows(); }
  Space space() const override { return h_->space(); }
  // Smoothers, transfers and the coarse solve only queue kernels.
  bool graph_safe() const override { return true; }
  const Hierarchy& hierarchy() const { return *h_; }
  const CycleParams& params() const { return params_; }
  // The smoother component that runs on level l (the coarsest has none).
  const std::string& smoother_name(std::size_t l) const { return smoother_names_.at(l); }
  // The SpMV copies its operators hold now (made within the room above; the
  // binned SpMV's diagonal, sliced and sorted copies): bytes, and how many operators.
  struct SpmvCopies {
    std::size_t bytes = 0;
    int operators = 0;
  };
  SpmvCopies spmv_copies() const;

 private:
  // Every operator the cycle applies, in cycle order (level 0's A, R, P, down
  // the levels, then the coarse solver's inverse): the order the copies take the room.
  void for_each_operator(const std::function<void(const CsrMatrix&)>& fn) const;
  // With `dot` (finest level only), (*dot)[slot] = b . x at the end; *dot is
  // set to nullptr when the last sweep formed it.
  void cycle(const CycleShape& shape, std::size_t level, const Vector& b, Vector& x, bool zero_guess,
             Scalars** dot = nullptr, int slot = 0) const;
  // out = x + P e (out may be x); an implicit P as (I - ωD⁻¹A) T e.
  static void prolong(const Level& L, const Vector& e, const Vector& x, Vector& out);
  const Hierarchy* h_;
  CycleParams params_;
  std::unique_ptr<CycleShape> shape_;
  std::vector<std::unique_ptr<Smoother>> smoothers_;
  std::vector<std::string> smoother_names_;
  std::vector<int> pre_, post_;
  mutable std::vector<Vector> r_, bc_, xc_;
};

}  // namespace saga
