#pragma once
// Iterative solvers: preconditioned CG (the preconditioner a multigrid cycle,
// or none) and the stand-alone multigrid iteration x <- x + M^-1 (b - A x).
// x holds the initial guess on entry and the solution on return.
#include "solver/multigrid_cycle.hpp"
#include "solver/solve_result.hpp"

namespace saga {

SolveResult pcg(const CsrMatrix& A, const Vector& b, Vector& x, const MultigridCycle* M, const SolverParams& p);
SolveResult multigrid_iteration(const CsrMatrix& A, const Vector& b, Vector& x, const MultigridCycle& M,
                                const SolverParams& p);

}  // namespace saga
