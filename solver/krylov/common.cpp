#include "solver/krylov/common.hpp"

#include <cmath>

#include "core/device.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga::krylov {

void check_system(const LinearOperator& A, const LinearOperator* M, const Vector& b, const Vector& x) {
  SAGA_REQUIRE(A.rows() == A.cols(), "solve: operator is {}x{}, not square", A.rows(), A.cols());
  SAGA_REQUIRE(b.size() == static_cast<std::size_t>(A.rows()), "solve: b has {} entries, A has {} rows", b.size(),
               A.rows());
  SAGA_REQUIRE(x.size() == static_cast<std::size_t>(A.rows()), "solve: x has {} entries, A has {} rows", x.size(),
               A.rows());
  SAGA_REQUIRE(b.space() == A.space() && x.space() == A.space(), "solve: A, b and x must live in the same space");
  if (M)
    SAGA_REQUIRE(M->rows() == A.rows() && M->space() == A.space(),
                 "solve: the preconditioner is {}x{} on the {}, the system {}x{} on the {}", M->rows(), M->cols(),
                 to_string(M->space()), A.rows(), A.cols(), to_string(A.space()));
  SAGA_REQUIRE(all_finite(b), "solve: the right-hand side has NaN or Inf entries");
  SAGA_REQUIRE(all_finite(x), "solve: the initial guess has NaN or Inf entries");
}

double Clock::seconds() const {
  if (device) device::synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

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

void precondition(const LinearOperator* M, const Vector& r, Vector& z) {
  if (M)
    M->apply(r, z);
  else
    copy(r, z);
}

void residual(const LinearOperator& A, const Vector& b, const Vector& x, Vector& r, Vector& w) {
  if (const auto* m = dynamic_cast<const MatrixOperator*>(&A)) {  // one fused SpMV
    copy(b, r);
    spmv(-1.0, m->matrix(), x, 1.0, r);
    return;
  }
  A.apply(x, w);
  copy(b, r);
  axpby(-1.0, w, 1.0, r);
}

}  // namespace saga::krylov
