#include "solver/krylov/conjugate_gradient.hpp"

#include "solver/krylov/common.hpp"
#include "sparse/vector_ops.hpp"

namespace saga::krylov {

SolveResult conjugate_gradient(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                               const SolverParams& p, bool flexible) {
  Run run(A, M, b, x, p);
  if (run.done()) return run.finish();
  const Space s = A.space();
  const std::size_t n = A.rows();
  Vector r(n, s, "CG residual"), z(n, s, "CG preconditioned residual"), q(n, s, "CG direction"),
      Aq(n, s, "CG A*direction");
  if (run.start(b, x, r, Aq)) return run.finish();
  precondition(M, r, z);
  copy(z, q);
  double rz = dot(r, z);
  SolveResult& res = run.result;
  while (res.iterations < p.max_iterations) {
    A.apply(q, Aq);
    const double qAq = dot(q, Aq);
    if (!(qAq > 0.0)) {
      run.stop(fmt::format("breakdown at iteration {}: q^T A q = {:.3e} <= 0 (the matrix or the preconditioner is "
                           "not SPD)",
                           res.iterations, qAq),
               norm2(r));
      break;
    }
    const double alpha = rz / qAq;
    axpby(alpha, q, 1.0, x);
    axpby(-alpha, Aq, 1.0, r);
    ++res.iterations;
    if (run.record(norm2(r))) break;
    precondition(M, r, z);
    const double rz_new = dot(r, z);
    const double beta = flexible ? -alpha * dot(z, Aq) / rz : rz_new / rz;
    axpby(1.0, z, beta, q);
    rz = rz_new;
  }
  return run.finish();
}

}  // namespace saga::krylov
