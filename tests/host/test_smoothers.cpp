// Smoothers against closed forms computed with Eigen: one damped-Jacobi and
// L1-Jacobi sweep is x + omega W (b - A x); a Chebyshev sweep's error
// propagator is the scaled Chebyshev polynomial of D^-1 A. And every smoother
// gives a symmetric V-cycle (safe inside PCG).
#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"
#include "tests/smoother_oracles.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("one damped-Jacobi sweep equals x + omega D^-1 (b - A x)") {
  check_one_diagonal_sweep("jacobi", 0.6, 1.5,
                           [](const Eigen::MatrixXd& M) -> Eigen::VectorXd { return M.diagonal().cwiseInverse(); });
  const RandomSpdLevel L(40);
  const index_t n = L.n();
  const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
  // Jacobi's default weight is 4 / (3 rho).
  const auto j = smoothers().create("jacobi", Space::host, SmootherLevel{L.A, L.dinv, 1.6});
  const Eigen::MatrixXd& M = L.M;
  Vector z(n, Space::host);
  j->smooth(from(b), z, 1, true);
  CHECK((vec(z) - (4.0 / (3.0 * 1.6)) * M.diagonal().cwiseInverse().cwiseProduct(b)).norm() <= 1e-13 * b.norm());
}

TEST_CASE("a sweep from zero with its residual: x = omega W b, r = b - A x, for the diagonal relaxations") {
  RandomSpdLevel L(50);
  const index_t n = L.n();
  const CsrMatrix& A = L.A;
  const Eigen::MatrixXd& M = L.M;
  const Vector& dinv = L.dinv;
  const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
  for (const char* name : {"jacobi", "l1_jacobi"}) {
    CAPTURE(name);
    const auto sm = smoothers().create(Component(name, Options().set("omega", "0.7")), Space::host,
                                       SmootherLevel{A, dinv, 1.6});
    Vector x(n, Space::host), r(n, Space::host), x1(n, Space::host);
    REQUIRE(sm->sweep_from_zero_with_residual(from(b), x, r));
    sm->smooth(from(b), x1, 1, true);  // the unfused sweep: the same x
    CHECK(x.to_vector() == x1.to_vector());
    CHECK((vec(r) - (b - M * vec(x))).norm() <= 1e-13 * b.norm());
  }
  // The primitive against its definition, W and omega given.
  Vector w = random_vector(n, L.rng(), Space::host), x(n, Space::host), r(n, Space::host);
  spmv_relax_from_zero(A, from(b), w, 0.45, x, r);
  const Eigen::VectorXd xe = 0.45 * vec(w).cwiseProduct(b);
  CHECK((vec(x) - xe).norm() <= 1e-15 * xe.norm());
  CHECK((vec(r) - (b - M * xe)).norm() <= 1e-13 * b.norm());
  CHECK_THROWS_AS(spmv_relax_from_zero(A, from(b), w, 0.45, x, x), InputError);  // x and r the same vector
  // A smoother that cannot fuse it says so and leaves x and r alone.
  const auto cheb = smoothers().create("chebyshev", Space::host, SmootherLevel{A, dinv, 1.6});
  CHECK_FALSE(cheb->sweep_from_zero_with_residual(from(b), x, r));
}

TEST_CASE("every smoother and cycle gives a convergent preconditioner, symmetric for V and W") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = from_host_csr(random_spd(3000, rng), Space::host);
  for (const std::string& sm : smoothers().names())
    for (const std::string cy : {"V", "W", "F"}) {
      CAPTURE(sm);
      CAPTURE(cy);
      AmgParams p;
      p.coarse_size = 40;
      p.smoother = sm;
      p.cycle = cy;
      const AmgPreconditioner M(A, p);
      REQUIRE(M.stats().levels.size() >= 3);
      CHECK(M.cycle().smoother_name(0) == sm);
      const Vector x = random_vector(A.rows(), rng(), Space::host), y = random_vector(A.rows(), rng(), Space::host);
      Vector Mx(A.rows(), Space::host), My(A.rows(), Space::host);
      M.apply(x, Mx);
      M.apply(y, My);
      // (M x, y) = (x, M y): V and W are symmetric (the same smoother before and
      // after); the F-cycle (F then V on the coarser level) is not, so it runs
      // under the flexible method.
      if (cy != "F") CHECK(dot(Mx, y) == doctest::Approx(dot(x, My)).epsilon(1e-10));
      CHECK(dot(Mx, x) > 0);
      SolverParams sp;
      sp.type = cy == "F" ? "fcg" : "pcg";
      Solver s(A, p, sp);
      Vector b = random_vector(A.rows(), rng(), Space::host), u = Vector::zeros(A.rows(), Space::host);
      const SolveResult r = s.solve(b, u);
      CHECK(r.converged);
      CHECK(r.iterations <= 25);
      MESSAGE(sm << " " << cy << "-cycle: " << r.iterations << " PCG iterations");
    }
}

TEST_CASE("W and F cycles need fewer iterations than V; per-level smoothers and sweeps apply") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 128, Space::host);
  const Vector b = random_vector(A.rows(), rng(), Space::host);
  auto iterations = [&](const AmgParams& p) {
    Solver s(A, p, [] {
      SolverParams sp;
      sp.type = "amg";
      sp.max_iterations = 300;
      return sp;
    }());
    Vector x = Vector::zeros(A.rows(), Space::host);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    return r.iterations;
  };
  AmgParams p;
  p.coarse_size = 30;
  const int v = iterations(p);
  p.cycle = "W";
  const int w = iterations(p);
  p.cycle = "F";
  const int f = iterations(p);
  MESSAGE("stand-alone AMG iterations V " << v << ", W " << w << ", F " << f);
  CHECK(w < v);
  CHECK(f < v);
  // Per level: Chebyshev on level 0 only, two post-sweeps on level 1.
  p.cycle = "V";
  p.levels = {Options().set("smoother", "jacobi").set("pre_sweeps", 2), Options().set("post_sweeps", 2)};
  p.smoother = Component("jacobi", Options().set("omega", 0.5));
  const AmgPreconditioner M(A, p);
  CHECK(M.cycle().smoother_name(0) == "jacobi");
  CHECK(M.cycle().smoother_name(1) == "jacobi");
  CHECK_THROWS_WITH_AS(AmgPreconditioner(A, [] {
                         AmgParams q;
                         q.levels = {Options().set("smoother", "sor")};
                         return q;
                       }()),
                       doctest::Contains("unknown smoother 'sor' (choices: jacobi"), InputError);
}

TEST_CASE("fused vector passes: scaled_difference and step_update") {
  std::mt19937_64 rng(fresh_seed());
  const std::size_t n = 1000;
  const Vector w = random_vector(n, rng(), Space::host), b = random_vector(n, rng(), Space::host),
               y = random_vector(n, rng(), Space::host), r0 = random_vector(n, rng(), Space::host);
  Vector r(n, Space::host);
  scaled_difference(w, b, y, r);
  for (std::size_t i = 0; i < n; i += 97) CHECK(r[i] == w[i] * (b[i] - y[i]));
  Vector d = random_vector(n, rng(), Space::host), x = random_vector(n, rng(), Space::host);
  const Vector d0 = d.clone(), x0 = x.clone();
  step_update(0.5, r0, -2.0, d, 3.0, x);
  for (std::size_t i = 0; i < n; i += 97) {
    CHECK(d[i] == 0.5 * r0[i] - 2.0 * d0[i]);
    CHECK(x[i] == 3.0 * x0[i] + d[i]);
  }
  // b = 0 and c = 0 ignore the old contents (even NaN).
  fill(d, std::nan(""));
  fill(x, std::nan(""));
  step_update(2.0, r0, 0.0, d, 0.0, x);
  CHECK(all_finite(d));
  CHECK(x[5] == 2.0 * r0[5]);
}

TEST_CASE("per-level smoother options: another smoother with its own options, or the same one re-tuned") {
  const std::vector<Options> levels = {Options().set("smoother.name", "chebyshev").set("smoother.degree", 3),
                                       Options().set("smoother.omega", 0.5).set("pre_sweeps", 2)};
  CycleParams p;
  p.smoother = Component("jacobi", Options().set("omega", 0.7));
  const CycleParams l0 = p.at_level(levels, 0), l1 = p.at_level(levels, 1), l2 = p.at_level(levels, 2);
  CHECK(l0.smoother.name == "chebyshev");
  CHECK(l0.smoother.options.find("degree")->text == "3");
  CHECK(l0.smoother.options.find("omega") == nullptr);  // jacobi's weight does not carry over
  CHECK(l1.smoother.name == "jacobi");
  CHECK(l1.smoother.options.find("omega")->text == "0.5");
  CHECK(l1.pre_sweeps == 2);
  CHECK(l2.smoother.options.find("omega")->text == "0.7");
  // Built into a cycle; bad level options are errors naming the level.
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 64, Space::host);
  AmgParams amg;
  amg.coarse_size = 50;
  amg.levels = levels;
  const AmgPreconditioner M(A, amg);
  CHECK(M.cycle().smoother_name(0) == "chebyshev");
  CHECK(M.cycle().smoother_name(1) == "jacobi");
  amg.levels = {Options().set("smoother.degre", 3)};
  CHECK_THROWS_WITH_AS(AmgPreconditioner(A, amg), doctest::Contains("amg.smoother.degre: unknown key"), InputError);
}
