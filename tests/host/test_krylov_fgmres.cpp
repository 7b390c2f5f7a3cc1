// FGMRES: with a fixed preconditioner it is GMRES (same residuals); with a
// preconditioner that changes every iteration (an inner Krylov solve to a loose
// tolerance) it still converges, and its reported residual is the true one.
#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("FGMRES with a fixed preconditioner has GMRES's residuals") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 64, Space::host);
  const Vector b = random_vector(A.rows(), rng(), Space::host);
  AmgParams amg;
  amg.coarse_size = 50;
  const AmgPreconditioner M(A, amg);
  const MatrixOperator op(A);
  SolverParams sp;
  sp.tolerance = 1e-10;
  sp.type = Component("gmres", Options().set("restart", 8));
  Vector xg = Vector::zeros(A.rows(), Space::host), xf = Vector::zeros(A.rows(), Space::host);
  const SolveResult g = krylov_solve(op, &M, b, xg, sp);
  sp.type = Component("fgmres", Options().set("restart", 8));
  const SolveResult f = krylov_solve(op, &M, b, xf, sp);
  REQUIRE(g.converged);
  REQUIRE(f.converged);
  CHECK(f.iterations == g.iterations);
  for (std::size_t k = 0; k < g.residual_history.size(); ++k)
    CHECK(f.residual_history[k] == doctest::Approx(g.residual_history[k]).epsilon(1e-6));
  CHECK(max_rel_diff(xf.to_vector(), xg.to_vector()) < 1e-8);
}

TEST_CASE("FGMRES converges with a preconditioner that changes every iteration") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, 24, Space::host);
  const Vector b = random_vector(A.rows(), rng(), Space::host);
  const AmgPreconditioner M(A, AmgParams{});
  const MatrixOperator op(A);
  SolverParams inner;
  inner.type = "pcg";
  inner.tolerance = 0.3;  // stops at a data-dependent iteration: a nonlinear M
  inner.max_iterations = 4;
  const KrylovOperator varying(op, &M, inner);
  SolverParams sp;
  sp.type = "fgmres";
  sp.tolerance = 1e-9;
  Vector x = Vector::zeros(A.rows(), Space::host);
  const SolveResult r = krylov_solve(op, &varying, b, x, sp);
  CHECK(r.converged);
  CHECK(r.iterations <= 20);
  Vector res = b.clone();
  spmv(-1.0, A, x, 1.0, res);
  CHECK(norm2(res) / norm2(b) <= 1e-9 * 1.01);
  CHECK(r.relative_residual == doctest::Approx(norm2(res) / norm2(b)).epsilon(1e-6));
}
