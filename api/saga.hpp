#pragma once
// saga's public C++ API: an AMG preconditioner or a complete solver from a CSR
// matrix and parameters. Everything runs on an executor (core/executor.hpp):
// give a host CsrMatrix to run on the CPU, a device one
// (CsrMatrix::to(Space::device)) to run on the GPU — on the default executor
// of its space, or on one you pass (its own CUDA stream).
//
//   auto gpu = saga::Executor::cuda();                 // a GPU with its own stream
//   saga::AmgParams amg;                               // setup + cycle parameters
//   amg.smoother = {"jacobi", saga::Options().set("omega", 0.6)};  // any smoother, its options
//   saga::AmgPreconditioner M(A, amg, gpu);            // setup
//   M.apply(r, z);                                     // z = M^-1 r (one cycle)
//   saga::SolverParams sp;  sp.type = "gmres";         // any Krylov method
//   saga::Solver s(A, amg, sp, gpu);
//   saga::SolveResult res = s.solve(b, x);
//   saga::krylov_solve(op, &M, b, x, sp);              // your own operator, saga's methods
#include <memory>
#include <optional>
#include <string>

#include "amg/hierarchy.hpp"
#include "core/executor.hpp"
#include "solver/cycle_params.hpp"
#include "solver/krylov.hpp"
#include "solver/multigrid_cycle.hpp"
#include "solver/smoother.hpp"

namespace saga {

class AmgPreconditioner final : public LinearOperator {
 public:
  // Builds the hierarchy from a copy of A (A itself is not kept). exec:
  // default = the active executor of A's space.
  AmgPreconditioner(const CsrMatrix& A, const AmgParams& params = {},
                    std::shared_ptr<const Executor> exec = nullptr);
  // Builds it from A, taking ownership (no copy).
  AmgPreconditioner(CsrMatrix&& A, const AmgParams& params = {}, std::shared_ptr<const Executor> exec = nullptr);
  // Without ns, the near-nullspace is params.nullspace (default the constant
  // vector; rigid_body then needs its coordinates file). With ns — e.g.
  // saga::rigid_body_modes(xyz, 3, space) for elasticity, or your own B and
  // block size — that one (amg/nullspace.hpp).
  AmgPreconditioner(const CsrMatrix& A, const AmgParams& params, NearNullspace ns,
                    std::shared_ptr<const Executor> exec = nullptr);
  AmgPreconditioner(CsrMatrix&& A, const AmgParams& params, NearNullspace ns,
                    std::shared_ptr<const Executor> exec = nullptr);

  // z = M^-1 r: one multigrid cycle from a zero initial guess.
  void apply(const Vector& r, Vector& z) const override { cycle_->apply(r, z); }
  void apply_dot(const Vector& r, Vector& z, Scalars& s, int slot) const override { cycle_->apply_dot(r, z, s, slot); }
  index_t rows() const override { return cycle_->rows(); }
  Space space() const override { return cycle_->space(); }
  bool graph_safe() const override { return cycle_->graph_safe(); }
  const HierarchyStats& stats() const { return hierarchy_->stats(); }
  const Hierarchy& hierarchy() const { return *hierarchy_; }
  const MultigridCycle& cycle() const { return *cycle_; }
  const std::shared_ptr<const Executor>& executor() const { return hierarchy_->executor(); }
  // The finest-level matrix (owned by the hierarchy). Its values are stored in
  // float where every one is exactly a float (amg.exact_single: lossless);
  // val() then throws: widen a clone (store_values_double) to read them.
  const CsrMatrix& matrix() const { return hierarchy_->levels().front().A; }

  // New values, same pattern (time steps, Newton steps): the hierarchy's
  // values recomputed on the kept aggregates, then the cycle's smoothers and
  // coarse solve rebuilt (Hierarchy::resetup). A copy of A, or A moved in.
  ResetupStats resetup(const CsrMatrix& A, const ResetupOptions& options = {});
  ResetupStats resetup(CsrMatrix&& A, const ResetupOptions& options = {});

 private:
  friend class Solver;
  // The Solver's: its solves hold krylov_vectors fine-level vectors (its
  // Krylov method's, krylov_workspace_vectors, and x), and the cycle's SpMV
  // copies may use the rest of the room under the setup's peak
  // (MultigridCycle).
  AmgPreconditioner(CsrMatrix&& A, const AmgParams& params, std::optional<NearNullspace> ns,
                    std::shared_ptr<const Executor> exec, int krylov_vectors);
  // The setup: ns, or params.nullspace when there is none.
  void build(CsrMatrix&& A, const AmgParams& params, std::optional<NearNullspace> ns,
             std::shared_ptr<const Executor> exec);
  std::unique_ptr<Hierarchy> hierarchy_;
  std::unique_ptr<MultigridCycle> cycle_;
  AmgParams params_;
  int krylov_vectors_ = MultigridCycle::kKrylovVectorsReserved;
};

class Solver {
 public:
  // All parameters are checked (names, options, backend support) before any
  // setup work. The AMG hierarchy is set up only where the solve applies the
  // multigrid cycle (applies_amg_cycle, solver/krylov.hpp: solver.preconditioner
  // amg, or a nested Krylov method preconditioned by it); with none, a smoother,
  // or a method that uses no preconditioner (cg) the Solver holds the matrix
  // alone, and ns is not used.
  Solver(const CsrMatrix& A, const AmgParams& amg = {}, const SolverParams& solver = {},
         std::shared_ptr<const Executor> exec = nullptr);
  Solver(CsrMatrix&& A, const AmgParams& amg = {}, const SolverParams& solver = {},
         std::shared_ptr<const Executor> exec = nullptr);
  // With a near-nullspace of your own (see AmgPreconditioner).
  Solver(CsrMatrix&& A, const AmgParams& amg, const SolverParams& solver, NearNullspace ns,
         std::shared_ptr<const Executor> exec = nullptr);
  // Solves A x = b; x holds the initial guess. Never throws for
  // non-convergence: check SolveResult::converged. The CG family keeps its
  // vectors and, on the GPU, the CUDA graph of its iteration for the next solve:
  // a later solve into the same x array replays that graph from its first
  // iteration (SolveResult::launch_note says so). One solve at a time per
  // Solver (the cycle's vectors are shared too).
  SolveResult solve(const Vector& b, Vector& x) const;
  // Frees what solve() keeps for the next one (the CG vectors and scalars, 24 B
  // per unknown, 32 with fcg, and the graph); the next solve makes them again.
  void release_workspace() { kept_.reset(); }
  // Whether an AMG hierarchy was set up (see the constructors).
  bool has_amg() const { return precond_ != nullptr; }
  // The hierarchy's statistics; without one, empty (no levels, no setup time).
  const HierarchyStats& stats() const;
  // The AMG preconditioner; an InputError naming the options without one.
  const AmgPreconditioner& preconditioner() const;
  // The system's matrix: the hierarchy's finest level (see
  // AmgPreconditioner::matrix), or the matrix held without a hierarchy.
  const CsrMatrix& matrix() const { return precond_ ? precond_->matrix() : *matrix_; }
  const SolverParams& params() const { return params_; }
  const std::shared_ptr<const Executor>& executor() const { return exec_; }

  // New values, same pattern: see AmgPreconditioner::resetup (without a
  // hierarchy: the matrix checked and swapped, nothing else to recompute).
  ResetupStats resetup(const CsrMatrix& A, const ResetupOptions& options = {});
  ResetupStats resetup(CsrMatrix&& A, const ResetupOptions& options = {});

 private:
  // The setup: the hierarchy where the solve applies the cycle, else the
  // matrix checked and held.
  void set_up(CsrMatrix&& A, const AmgParams& amg, std::optional<NearNullspace> ns,
              std::shared_ptr<const Executor> exec);
  void build_preconditioner();
  SolverParams params_;
  std::shared_ptr<const Executor> exec_;
  std::unique_ptr<AmgPreconditioner> precond_;  // null where the solve applies no cycle
  std::optional<CsrMatrix> matrix_;             // the matrix, where there is no hierarchy to hold it
  std::unique_ptr<MatrixOperator> op_;
  std::unique_ptr<LinearOperator> outer_M_;  // smoother or nested Krylov preconditioner (else the cycle or none)
  // What the Krylov method kept from the last solve (KrylovState); dropped by a
  // resetup, whose new arrays its graph does not know.
  mutable std::unique_ptr<KrylovState> kept_;
};

}  // namespace saga
