#pragma once
// saga's public C++ API: an AMG preconditioner or a complete solver from a CSR
// matrix and parameters. Everything lives in the matrix's memory space: give a
// host CsrMatrix to run on the CPU, a device one (CsrMatrix::to(Space::device))
// to run on the GPU.
//
//   saga::CsrMatrix A = ...;                       // host or device
//   saga::AmgPreconditioner M(A, saga::AmgParams{});   // setup
//   M.apply(r, z);                                  // z = M^-1 r (one V-cycle)
//   saga::Solver s(A, amg_params, solver_params);
//   saga::SolveResult res = s.solve(b, x);          // AMG-PCG
//   s.stats().levels[0].rows, s.stats().operator_complexity, ...
#include <memory>
#include <string>

#include "amg/hierarchy.hpp"
#include "solver/krylov.hpp"

namespace saga {

// "auto" = cuda when this build has it and a GPU is present, else host.
Backend resolve_backend(const std::string& name);

class AmgPreconditioner {
 public:
  // Builds the hierarchy from a copy of A (A itself is not kept).
  AmgPreconditioner(const CsrMatrix& A, const AmgParams& params = {});
  // Builds it from A, taking ownership (no copy).
  AmgPreconditioner(CsrMatrix&& A, const AmgParams& params = {});
  // With a near-nullspace B (n x k, row-major) instead of the constant vector.
  AmgPreconditioner(const CsrMatrix& A, const AmgParams& params, const Vector& B, int k);

  // z = M^-1 r: one multigrid cycle from a zero initial guess.
  void apply(const Vector& r, Vector& z) const { cycle_->apply(r, z); }
  const HierarchyStats& stats() const { return hierarchy_->stats(); }
  const Hierarchy& hierarchy() const { return *hierarchy_; }
  const MultigridCycle& cycle() const { return *cycle_; }
  // The finest-level matrix (owned by the hierarchy).
  const CsrMatrix& matrix() const { return hierarchy_->levels().front().A; }

 private:
  std::unique_ptr<Hierarchy> hierarchy_;
  std::unique_ptr<MultigridCycle> cycle_;
};

class Solver {
 public:
  Solver(const CsrMatrix& A, const AmgParams& amg = {}, const SolverParams& solver = {});
  Solver(CsrMatrix&& A, const AmgParams& amg = {}, const SolverParams& solver = {});
  // Solves A x = b; x holds the initial guess. Never throws for
  // non-convergence: check SolveResult::converged.
  SolveResult solve(const Vector& b, Vector& x) const;
  const HierarchyStats& stats() const { return precond_.stats(); }
  const AmgPreconditioner& preconditioner() const { return precond_; }
  SolverParams& params() { return params_; }

 private:
  AmgPreconditioner precond_;
  SolverParams params_;
};

}  // namespace saga
