#pragma once
// The conjugate-gradient recurrence shared by cg, pcg and fcg. With a fixed SPD
// preconditioner beta = (r_k, z_k) / (r_{k-1}, z_{k-1}) (Hestenes-Stiefel /
// Fletcher-Reeves form); `flexible` uses the Polak-Ribiere form
// beta = (z_k, r_k - r_{k-1}) / (z_{k-1}, r_{k-1}) = -alpha (z_k, A p) / (z_{k-1}, r_{k-1})
// (Notay 2000, FCG(1)), which stays a good method when M changes between
// iterations. A breakdown (p^T A p <= 0: A or M not SPD) is reported.
#include "solver/krylov.hpp"

namespace saga::krylov {

SolveResult conjugate_gradient(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                               const SolverParams& p, bool flexible);

}  // namespace saga::krylov
