#include "solver/krylov.hpp"

#include <chrono>
#include <cmath>

#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
void check_system(const CsrMatrix& A, const Vector& b, const Vector& x) {
  SAGA_REQUIRE(A.rows() == A.cols(), "solve: matrix is {}x{}, not square", A.rows(), A.cols());
  SAGA_REQUIRE(b.size() == static_cast<std::size_t>(A.rows()), "solve: b has {} entries, A has {} rows", b.size(),
               A.rows());
  SAGA_REQUIRE(x.size() == static_cast<std::size_t>(A.rows()), "solve: x has {} entries, A has {} rows", x.size(),
               A.rows());
  SAGA_REQUIRE(all_finite(b), "solve: the right-hand side has NaN or Inf entries");
  SAGA_REQUIRE(all_finite(x), "solve: the initial guess has NaN or Inf entries");
}

struct Clock {
  bool device;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  double seconds() const {
    if (device) device::synchronize();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

void finish(SolveResult& r, const SolverParams& p, const Clock& c) {
  r.seconds = c.seconds();
  r.relative_residual = r.residual_history.back();
  if (r.iterations > 0 && r.residual_history.front() > 0)
    r.convergence_factor = std::pow(r.relative_residual / r.residual_history.front(), 1.0 / r.iterations);
  if (r.converged)
    r.message = fmt::format("converged in {} iterations to relative residual {:.3e}", r.iterations,
                            r.relative_residual);
  else if (r.message.empty())
    r.message = fmt::format("did NOT converge: {} iterations reached, relative residual {:.3e} > tolerance {:.1e}",
                            r.iterations, r.relative_residual, p.tolerance);
}

// b = 0: the solution is x = 0, reached at iteration 0.
bool zero_rhs(double bnorm, Vector& x, SolveResult& r, const SolverParams& p, const Clock& c) {
  if (bnorm != 0.0) return false;
  fill(x, 0.0);
  r.residual_history.push_back(0.0);
  r.converged = true;
  finish(r, p, c);
  return true;
}

bool record(SolveResult& r, const SolverParams& p, double rel) {
  r.residual_history.push_back(rel);
  if (p.progress) p.progress(r.iterations, rel, p.progress_data);
  if (!std::isfinite(rel)) {
    r.message = fmt::format("diverged: residual became {} at iteration {}", rel, r.iterations);
    return true;
  }
  if (rel <= p.tolerance) {
    r.converged = true;
    return true;
  }
  return false;
}
}  // namespace

SolveResult pcg(const CsrMatrix& A, const Vector& b, Vector& x, const MultigridCycle* M, const SolverParams& p) {
  check_system(A, b, x);
  const Space s = A.space();
  Clock clock{s == Space::device};
  SolveResult res;
  const std::size_t n = A.rows();
  Vector r(n, s, "PCG residual"), z(n, s, "PCG preconditioned residual"), q(n, s, "PCG direction"),
      Aq(n, s, "PCG A*direction");
  const double bnorm = norm2(b);
  if (zero_rhs(bnorm, x, res, p, clock)) return res;
  copy(b, r);
  spmv(-1.0, A, x, 1.0, r);
  if (record(res, p, norm2(r) / bnorm)) {
    finish(res, p, clock);
    return res;
  }
  if (M)
    M->apply(r, z);
  else
    copy(r, z);
  copy(z, q);
  double rz = dot(r, z);
  while (res.iterations < p.max_iterations) {
    spmv(A, q, Aq);
    const double qAq = dot(q, Aq);
    if (!(qAq > 0.0)) {
      res.message = fmt::format(
          "breakdown at iteration {}: q^T A q = {:.3e} <= 0 (the matrix or the preconditioner is not SPD)",
          res.iterations, qAq);
      res.residual_history.push_back(norm2(r) / bnorm);
      break;
    }
    const double alpha = rz / qAq;
    axpby(alpha, q, 1.0, x);
    axpby(-alpha, Aq, 1.0, r);
    ++res.iterations;
    if (record(res, p, norm2(r) / bnorm)) break;
    if (M)
      M->apply(r, z);
    else
      copy(r, z);
    const double rz_new = dot(r, z);
    axpby(1.0, z, rz_new / rz, q);
    rz = rz_new;
  }
  finish(res, p, clock);
  return res;
}

SolveResult multigrid_iteration(const CsrMatrix& A, const Vector& b, Vector& x, const MultigridCycle& M,
                                const SolverParams& p) {
  check_system(A, b, x);
  const Space s = A.space();
  Clock clock{s == Space::device};
  SolveResult res;
  const std::size_t n = A.rows();
  Vector r(n, s, "residual"), e(n, s, "correction");
  const double bnorm = norm2(b);
  if (zero_rhs(bnorm, x, res, p, clock)) return res;
  for (;;) {
    copy(b, r);
    spmv(-1.0, A, x, 1.0, r);
    if (record(res, p, norm2(r) / bnorm) || res.iterations >= p.max_iterations) break;
    M.apply(r, e);
    axpby(1.0, e, 1.0, x);
    ++res.iterations;
  }
  finish(res, p, clock);
  return res;
}

}  // namespace saga
