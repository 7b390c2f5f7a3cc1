#pragma once
// Krylov methods over linear operators, behind the Krylov registry
// (solver.type). Each method is a component in solver/krylov/ and solves
// A x = b preconditioned by M (an operator: the AMG cycle, a smoother, another
// Krylov solve, a user's function), x holding the initial guess on entry. The
// methods, their parameters and when to use which: docs/components.md and
// `saga info --components`. A new method: its file (with its
// workspace_vectors), its test, its docs entry, one line in
// SAGA_KRYLOV_COMPONENTS (solver/krylov.cpp).
#include <memory>
#include <optional>

#include "core/registry.hpp"
#include "solver/linear_operator.hpp"
#include "solver/solve_result.hpp"

namespace saga {

// What a method keeps from one solve to the next of the same system (a
// Solver holds one): the CG family keeps its vectors, its scalars and the CUDA
// graph of its iteration, so that a later solve replays that graph from its
// first iteration instead of capturing it again. A method checks that what it
// kept was made for the same operators, x and limits before it uses it, and
// makes it again where not. The graph holds the operators' device pointers:
// drop the state (reset()) whenever an operator's arrays are made again (a
// resetup of the preconditioner or of the matrix).
class KrylovState {
 public:
  virtual ~KrylovState() = default;
};

class KrylovMethod {
 public:
  virtual ~KrylovMethod() = default;
  // M may be nullptr (no preconditioner). Never throws for non-convergence.
  virtual SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                            const SolverParams& p) const = 0;
  // The same solve, keeping what it can reuse in *state for the next solve of
  // this system (see KrylovState). Methods that keep nothing solve as above.
  virtual SolveResult solve_keeping(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                                    const SolverParams& p, std::unique_ptr<KrylovState>& state) const {
    (void)state;
    return solve(A, M, b, x, p);
  }
  // False for methods that ignore M (cg).
  virtual bool uses_preconditioner() const { return true; }
  // True for methods that need a symmetric positive definite A (the CG family).
  virtual bool needs_spd() const { return false; }
  // True for methods that stay correct when M changes between iterations.
  virtual bool flexible() const { return false; }
  // Vectors of the system's size one solve allocates besides b and x (a
  // nested preconditioner's not counted): what the multigrid cycle leaves free
  // of its SpMV copies under the process's peak memory (MultigridCycle).
  // Methods that do not say are taken to need kDefaultWorkspaceVectors.
  static constexpr int kDefaultWorkspaceVectors = 8;
  virtual int workspace_vectors() const { return kDefaultWorkspaceVectors; }
};

using KrylovRegistry = Registry<KrylovMethod>;
const KrylovRegistry& krylov_methods();

// Solves with p.type (validated first).
SolveResult krylov_solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                         const SolverParams& p);
// ... keeping what the method can reuse in *state for the next solve of the
// same system (Solver does this; see KrylovState for when to drop it).
SolveResult krylov_solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                         const SolverParams& p, std::unique_ptr<KrylovState>& state);

// A Krylov solve as an operator: y = (approximately) A^-1 x, from a zero guess,
// with the method, tolerance and iteration limit of `p` — to precondition an
// outer (flexible) method. A and M must outlive it.
class KrylovOperator final : public LinearOperator {
 public:
  KrylovOperator(const LinearOperator& A, const LinearOperator* M, SolverParams p);
  index_t rows() const override { return A_.rows(); }
  Space space() const override { return A_.space(); }
  void apply(const Vector& x, Vector& y) const override;

 private:
  const LinearOperator& A_;
  const LinearOperator* M_;
  SolverParams p_;
  std::unique_ptr<KrylovMethod> method_;
};

// The parameters of a nested Krylov preconditioner (solver.preconditioner
// naming a Krylov method): its options' tolerance (default 0.1) and
// max_iterations (default 5), the rest are the method's own; preconditioned
// by the multigrid cycle.
SolverParams nested_solver_params(const Component& preconditioner);
bool is_nested_krylov(const Component& preconditioner);
// A smoother as the preconditioner (solver.preconditioner naming a smoother):
// its options besides "sweeps" (default 1) are the smoother's. Returns the
// sweeps and, in *smoother, the smoother's own node; validates both.
int smoother_preconditioner_sweeps(const Component& preconditioner, Component* smoother = nullptr);
// Whether a solve with p applies the multigrid cycle, so that an AMG hierarchy
// must be set up for it: p.type uses a preconditioner (not cg) and
// p.preconditioner is amg, or a nested Krylov method that uses one (it is
// preconditioned by the cycle). Not for none nor a smoother. p validated first.
bool applies_amg_cycle(const SolverParams& p, Space space);

// The workspace vectors of a solve with p on `space`: its method's, and a
// nested Krylov preconditioner's (both are held at once). p validated.
int krylov_workspace_vectors(const SolverParams& p, Space space);

// Validates p (method name and options, tolerance, limits, and the
// preconditioner's name) for a solve on `space` when given.
void validate(const SolverParams& p, std::optional<Space> space = std::nullopt);

}  // namespace saga
