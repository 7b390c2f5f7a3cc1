// BiCGStab: solves nonsymmetric systems without a preconditioner, stops at the
// half step when s is small, and reports a breakdown (skew-symmetric A makes
// (r0, A p) vanish at once) instead of a wrong answer.
#include "api/saga.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/attainable_accuracy.hpp"
#include "tests/convection_diffusion.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// BiCGStab without a preconditioner on convection-diffusion N = 40, Pe 0.8,
// from b = random_vector(seed): the reported residual must be b - A x's.
SolveResult solve_convection_diffusion(std::uint64_t seed, double& true_residual) {
  const CsrMatrix A = convection_diffusion(40, 0.8);
  const Vector b = random_vector(A.rows(), seed, Space::host);
  const MatrixOperator op(A);
  SolverParams sp;
  sp.type = "bicgstab";
  sp.tolerance = 1e-10;
  sp.max_iterations = 1000;
  Vector x = Vector::zeros(A.rows(), Space::host);
  const SolveResult r = krylov_solve(op, nullptr, b, x, sp);
  true_residual = true_relative_residual(A, b, x);
  return r;
}
}  // namespace

TEST_CASE("BiCGStab without a preconditioner solves convection-diffusion; the residual is the true one") {
  std::mt19937_64 rng(fresh_seed());
  double true_residual = 0;
  const SolveResult r = solve_convection_diffusion(rng(), true_residual);
  CHECK(r.converged);
  // The same b - A x up to the order of its sums (||A|| ||x|| / ||b|| is ~10).
  CHECK(true_residual <= 1e-10 * (1 + 1e-4));
  CHECK(std::abs(true_residual - r.relative_residual) <= 1e-4 * r.relative_residual);
  CHECK(r.residual_history.size() == static_cast<std::size_t>(r.iterations + 1));
  MESSAGE(r.message);
}

TEST_CASE("BiCGStab whose recurrence drifts from the true residual restarts from it (seed of a CI failure)") {
  // From this right-hand side the recurrence's residual reaches 1e-10 while
  // b - A x is 1.29e-10: CI once saw that claimed as converged.
  std::mt19937_64 rng(442415296885994349ULL);
  double true_residual = 0;
  const SolveResult r = solve_convection_diffusion(rng(), true_residual);
  CHECK(r.converged);
  CHECK(r.message.find("1 restart from the true residual") != std::string::npos);
  CHECK(true_residual <= 1e-10 * (1 + 1e-4));
  CHECK(std::abs(true_residual - r.relative_residual) <= 1e-4 * r.relative_residual);
  CHECK(r.residual_history.size() == static_cast<std::size_t>(r.iterations + 1));
  // The recurrence's 1e-10 was replaced by the true residual in the history:
  // only the last entry meets the tolerance.
  for (std::size_t k = 0; k + 1 < r.residual_history.size(); ++k) CHECK(r.residual_history[k] > 1e-10);
  MESSAGE(r.message);
}

TEST_CASE("BiCGStab reports the breakdown of a skew-symmetric system; GMRES solves it in 2 steps") {
  // Blocks [[0, 1], [-1, 0]]: r^T A r = 0 for every r, and A^2 = -I.
  const index_t n = 20;
  HostCsr h{n, n, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) {
    h.col.push_back(i % 2 == 0 ? i + 1 : i - 1);
    h.val.push_back(i % 2 == 0 ? 1.0 : -1.0);
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  const CsrMatrix A = from_host_csr(h, Space::host);
  const MatrixOperator op(A);
  std::mt19937_64 rng(fresh_seed());
  const Vector b = random_vector(n, rng(), Space::host);
  SolverParams sp;
  sp.type = "bicgstab";
  Vector x = Vector::zeros(n, Space::host);
  const SolveResult r = krylov_solve(op, nullptr, b, x, sp);
  CHECK_FALSE(r.converged);
  CHECK(r.message.find("breakdown at iteration 0") != std::string::npos);
  sp.type = "gmres";
  Vector y = Vector::zeros(n, Space::host);
  const SolveResult g = krylov_solve(op, nullptr, b, y, sp);
  CHECK(g.converged);
  CHECK(g.iterations == 2);
}

// Asked for less than double precision attains, BiCGStab's restarts from
// b - A x stop gaining: it says so after a few (Run::restart_gains) instead of
// restarting until max_iterations (286 restarts at 1e-16 before).
TEST_CASE("BiCGStab below double precision's attainable accuracy: stagnation reported after a few restarts") {
  std::mt19937_64 rng(fresh_seed());
  const AttainableSystem sys = attainable_system(sized(32, 16), rng());
  for (const double tol : {1e-16, 1e-17}) {
    CAPTURE(tol);
    const SolveResult r = solve_checked_near_attainable(sys, "bicgstab", tol, Space::host, 2000);
    MESSAGE(r.iterations << " iterations");
    if (!r.converged) CHECK(r.iterations < 500);  // stopped by the restarts' rule, not by max_iterations
  }
}
