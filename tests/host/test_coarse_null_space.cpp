// The pseudo-inverse of a semi-definite coarsest matrix by a Cholesky inverse
// shifted along the null space that the near-nullspace spans
// (amg/coarse_null_space.hpp), against the eigen-decomposition's pseudo-inverse
// (the independent oracle), and pure Neumann / floating problems end to end.
#include <Eigen/Dense>
#include <random>

#include "amg/coarse_null_space.hpp"
#include "amg/coarse_solver.hpp"
#include "amg/nullspace.hpp"
#include "api/saga.hpp"
#include "app/run.hpp"
#include "problems/elasticity.hpp"
#include "problems/mesh_generate.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/floating_body.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
Eigen::MatrixXd dense_of(const CsrMatrix& A) {
  const HostCsr h = to_host_csr(A);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(h.rows, h.cols);
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) M(i, h.col[k]) = h.val[k];
  return M;
}

// A Neumann Poisson matrix with a random coefficient field (seeded).
CsrMatrix neumann(Stencil s, index_t N, std::uint64_t seed) {
  CoefficientField kappa;
  kappa.kind = CoefficientField::Kind::random;
  kappa.contrast = 100;
  kappa.blocks = 3;
  kappa.seed = seed;
  return poisson(make_stencil_spec(s, {}, kappa, /*neumann=*/true), N, Space::host);
}

// X is A's pseudo-inverse: A X A = A, X A X = X, X symmetric, X kills the null space Z.
void check_pseudo_inverse(const Eigen::MatrixXd& A, const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z) {
  const double a = A.cwiseAbs().maxCoeff(), x = X.cwiseAbs().maxCoeff();
  CHECK((A * X * A - A).cwiseAbs().maxCoeff() <= 1e-9 * a);
  CHECK((X * A * X - X).cwiseAbs().maxCoeff() <= 1e-9 * x);
  CHECK((X - X.transpose()).cwiseAbs().maxCoeff() <= 1e-10 * x);
  CHECK((X * Z).cwiseAbs().maxCoeff() <= 1e-9 * x);
}
}  // namespace

TEST_CASE("null_space_in: the constants of a Neumann matrix, none of an SPD one, dependent columns dropped") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  const CsrMatrix A = neumann(Stencil::fd2d_5pt, 12, seed);
  const HostCsr h = to_host_csr(A);
  const index_t n = A.rows();
  const std::vector<double> one(n, 1.0);
  const amg::CoarseNullSpace ns = amg::null_space_in(h, one, 1);
  REQUIRE(ns.columns() == 1);
  const Eigen::VectorXd expect = Eigen::VectorXd::Ones(n) / std::sqrt(static_cast<double>(n));
  CHECK(std::abs(std::abs(ns.Z.col(0).dot(expect)) - 1.0) < 1e-12);
  double trace = 0;
  for (index_t i = 0; i < n; ++i) trace += dense_of(A)(i, i);
  CHECK(ns.alpha == doctest::Approx(trace / n).epsilon(1e-14));

  // Two columns, the constants and a random vector (not null): one null direction.
  std::vector<double> two(static_cast<std::size_t>(n) * 2);
  for (index_t i = 0; i < n; ++i) two[2 * i] = 1.0, two[2 * i + 1] = U(rng);
  const amg::CoarseNullSpace ns2 = amg::null_space_in(h, two, 2);
  REQUIRE(ns2.columns() == 1);
  CHECK(std::abs(std::abs(ns2.Z.col(0).dot(expect)) - 1.0) < 1e-10);
  // The constants twice (a dependent column): one direction, not two.
  std::vector<double> twice(static_cast<std::size_t>(n) * 2);
  for (index_t i = 0; i < n; ++i) twice[2 * i] = 1.0, twice[2 * i + 1] = 2.0;
  CHECK(amg::null_space_in(h, twice, 2).columns() == 1);
  // The Dirichlet matrix has none.
  CHECK(amg::null_space_in(to_host_csr(poisson(Stencil::fd2d_5pt, 12, Space::host)), one, 1).columns() == 0);
  // A random near-nullspace is not null either.
  std::vector<double> random(n);
  for (double& v : random) v = U(rng);
  CHECK(amg::null_space_in(h, random, 1).columns() == 0);
}

TEST_CASE("dense_cholesky: the shifted Cholesky pseudo-inverse equals the eigen-decomposition's") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const CsrMatrix A = neumann(s, stencil_dim(s) == 2 ? 17 : 7, seed);
    const Vector one = ones(A.rows(), Space::host);
    const amg::CoarseSolver shifted = amg::factorise_coarse(A, "dense_cholesky", &one, 1);
    const amg::CoarseSolver eigen = amg::factorise_coarse(A);  // no near-nullspace: the eigen-decomposition
    CHECK(shifted.pseudo_inverse);
    CHECK(shifted.null_space_columns == 1);
    CHECK(eigen.pseudo_inverse);
    CHECK(eigen.null_space_columns == 0);
    const Eigen::MatrixXd X = dense_of(shifted.inverse), E = dense_of(eigen.inverse);
    CHECK((X - E).cwiseAbs().maxCoeff() <= 1e-9 * E.cwiseAbs().maxCoeff());
    check_pseudo_inverse(dense_of(A), X, Eigen::VectorXd::Ones(A.rows()));
    // The option off: the eigen-decomposition again.
    const amg::CoarseSolver off =
        amg::factorise_coarse(A, Component("dense_cholesky", Options().set("shift_null_space", false)), &one, 1);
    CHECK(off.pseudo_inverse);
    CHECK(off.null_space_columns == 0);
  }
  // An SPD matrix with a near-nullspace: the plain inverse, no pseudo-inverse.
  const CsrMatrix D = poisson(Stencil::fd2d_5pt, 15, Space::host);
  const Vector one = ones(D.rows(), Space::host);
  const amg::CoarseSolver spd = amg::factorise_coarse(D, "dense_cholesky", &one, 1);
  CHECK_FALSE(spd.pseudo_inverse);
  CHECK((dense_of(D) * dense_of(spd.inverse) - Eigen::MatrixXd::Identity(D.rows(), D.rows())).cwiseAbs().maxCoeff() <
        1e-10);
}

TEST_CASE("dense_cholesky: a null space larger than the near-nullspace falls back to the eigen-decomposition") {
  // Two disconnected Neumann grids: the constants on each are null, B = 1
  // spans one of the two directions, so the shifted matrix is still singular.
  const CsrMatrix G = neumann(Stencil::fd2d_5pt, 8, fresh_seed());
  const HostCsr g = to_host_csr(G);
  HostCsr two{2 * g.rows, 2 * g.rows, {0}, {}, {}};
  for (int copy = 0; copy < 2; ++copy)
    for (index_t i = 0; i < g.rows; ++i) {
      for (offset_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k)
        two.col.push_back(g.col[k] + copy * g.rows), two.val.push_back(g.val[k]);
      two.row_ptr.push_back(static_cast<offset_t>(two.col.size()));
    }
  const CsrMatrix A = from_host_csr(two, Space::host);
  const Vector one = ones(A.rows(), Space::host);
  const amg::CoarseSolver cs = amg::factorise_coarse(A, "dense_cholesky", &one, 1);
  CHECK(cs.pseudo_inverse);
  CHECK(cs.null_space_columns == 0);
  Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(A.rows(), 2);
  Z.block(0, 0, g.rows, 1).setOnes();
  Z.block(g.rows, 1, g.rows, 1).setOnes();
  check_pseudo_inverse(dense_of(A), dense_of(cs.inverse), Z);
}

TEST_CASE("dense_cholesky: a floating elastic body's six rigid motions are shifted out") {
  const std::uint64_t seed = fresh_seed();
  const ElasticSystem free = floating_box(4, 2, 2.0, seed);
  const NearNullspace rb = rigid_body_modes(free.coordinates, 3, Space::host);
  const amg::CoarseSolver shifted = amg::factorise_coarse(free.A, "dense_cholesky", &rb.B, rb.columns);
  const amg::CoarseSolver eigen = amg::factorise_coarse(free.A);
  CHECK(shifted.pseudo_inverse);
  CHECK(shifted.null_space_columns == 6);
  const Eigen::MatrixXd X = dense_of(shifted.inverse), E = dense_of(eigen.inverse);
  CHECK((X - E).cwiseAbs().maxCoeff() <= 1e-8 * E.cwiseAbs().maxCoeff());
  const std::vector<double> B = rb.B.to_vector();
  Eigen::MatrixXd Z(free.A.rows(), 6);
  for (index_t i = 0; i < free.A.rows(); ++i)
    for (int c = 0; c < 6; ++c) Z(i, c) = B[static_cast<std::size_t>(i) * 6 + c];
  check_pseudo_inverse(dense_of(free.A), X, Z);
}

TEST_CASE("a pure Neumann Poisson problem: the setup shifts the coarsest null space, PCG converges as with eigen") {
  for (const char* stencil : {"2d5", "3d7"}) {
    const std::string stencil_label = stencil;
    CAPTURE(stencil_label);
    RunConfig c;
    c.problem.type = Component(
        "poisson", Options().set("stencil", stencil).set("N", std::string(stencil) == "2d5" ? 96 : 24).set(
                       "boundary", "neumann"));
    const RunResult shifted = run_solve(c, Executor::host());
    CHECK(shifted.solve.converged);
    CHECK(shifted.solve.relative_residual <= 1e-8);
    CHECK(shifted.hierarchy.coarse_pseudo_inverse);
    CHECK(shifted.hierarchy.coarse_null_space_columns == 1);
    REQUIRE(shifted.error.has_value());
    CHECK(*shifted.error < 1e-6);  // x* up to a constant
    c.amg.coarse_solver = Component("dense_cholesky", Options().set("shift_null_space", false));
    const RunResult eigen = run_solve(c, Executor::host());
    CHECK(eigen.hierarchy.coarse_pseudo_inverse);
    CHECK(eigen.hierarchy.coarse_null_space_columns == 0);
    CHECK(eigen.solve.iterations == shifted.solve.iterations);
    MESSAGE(stencil_label << ": " << shifted.solve.iterations << " iterations, coarse factorisation "
                    << shifted.hierarchy.phase_seconds.at("coarse_factorisation") << " s shifted, "
                    << eigen.hierarchy.phase_seconds.at("coarse_factorisation") << " s eigen");
  }
}

TEST_CASE("poisson boundary: neumann rows sum to zero; bad combinations are clear errors") {
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    const CsrMatrix A = poisson(make_stencil_spec(s, {}, {}, true), 5, Space::host);
    const CsrMatrix D = poisson(s, 5, Space::host);
    CHECK(A.nnz() == D.nnz());
    const HostCsr h = to_host_csr(A);
    for (index_t i = 0; i < h.rows; ++i) {
      double sum = 0;
      for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) sum += h.val[k];
      CHECK(sum == 0.0);
    }
  }
  // 2D 5-pt N = 3 by hand: the corner has two neighbours, the centre four.
  const HostCsr h = to_host_csr(poisson(make_stencil_spec(Stencil::fd2d_5pt, {}, {}, true), 3, Space::host));
  CHECK(h.val[h.row_ptr[0]] == 2.0);
  CHECK(h.val[h.row_ptr[4] + 2] == 4.0);
  CHECK(h.val[h.row_ptr[1] + 1] == 3.0);
  CHECK_THROWS_WITH_AS(make_stencil_spec(Stencil::fe2d_9pt, {0.1, 30.0}, {}, true),
                       doctest::Contains("Neumann boundary needs non-positive"), InputError);
  RunConfig c;
  c.problem.type = Component("poisson", Options().set("stencil", "2d5").set("N", 16).set("boundary", "neumann"));
  c.problem.rhs = "ones";
  CHECK_THROWS_WITH_AS(run_solve(c, Executor::host()), doctest::Contains("no solution"), InputError);
  c.problem.type = Component("poisson", Options().set("stencil", "2d5").set("N", 1).set("boundary", "neumann"));
  CHECK_THROWS_WITH_AS(run_solve(c, Executor::host()), doctest::Contains("N >= 2"), InputError);
}

TEST_CASE("a floating elastic body end to end: the coarsest null space is the six rigid motions, PCG converges") {
  const std::uint64_t seed = fresh_seed();
  const ElasticSystem free = floating_box(12, 3, 4.0, seed);
  AmgParams amg;
  amg.coarse_size = 100;
  SolverParams sp;
  sp.max_iterations = 200;
  // b = A x*: in A's range (orthogonal to the rigid motions).
  const Vector xs = random_vector(static_cast<std::size_t>(free.A.rows()), seed, Space::host);
  Vector b(xs.size(), Space::host);
  spmv(free.A, xs, b);
  int iterations[2] = {0, 0};
  for (bool shift : {true, false}) {
    CAPTURE(shift);
    AmgParams p = amg;
    p.coarse_solver = Component("dense_cholesky", Options().set("shift_null_space", shift));
    Solver s(free.A.clone(), p, sp, rigid_body_modes(free.coordinates, 3, Space::host));
    CHECK(s.stats().levels.size() >= 2);
    CHECK(s.stats().coarse_pseudo_inverse);
    CHECK(s.stats().coarse_null_space_columns == (shift ? 6 : 0));
    Vector x = Vector::zeros(xs.size(), Space::host);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    iterations[shift ? 0 : 1] = r.iterations;
  }
  CHECK(std::abs(iterations[0] - iterations[1]) <= 1);
  MESSAGE("floating bar " << free.A.rows() << " unknowns: " << iterations[0] << " iterations (shifted), "
                          << iterations[1] << " (eigen)");
}

TEST_CASE("a Neumann problem's resetup with new values keeps the shifted pseudo-inverse and converges") {
  const std::uint64_t seed = fresh_seed();
  CoefficientField kappa;
  kappa.kind = CoefficientField::Kind::random;
  kappa.contrast = 10;
  kappa.blocks = 4;
  kappa.seed = seed;
  const CsrMatrix A = poisson(make_stencil_spec(Stencil::fd2d_5pt, {}, {}, true), 80, Space::host);
  const CsrMatrix A2 = poisson(make_stencil_spec(Stencil::fd2d_5pt, {}, kappa, true), 80, Space::host);
  REQUIRE(A2.nnz() == A.nnz());
  Solver s(A);
  CHECK(s.stats().coarse_null_space_columns == 1);
  for (bool refresh : {false, true}) {
    CAPTURE(refresh);
    ResetupOptions o;
    o.refresh_prolongator = refresh;
    s.resetup(A2, o);
    CHECK(s.stats().coarse_pseudo_inverse);
    CHECK(s.stats().coarse_null_space_columns == 1);
    CHECK(s.preconditioner().hierarchy().coarse().reused_null_space);  // the last setup's directions, still null
    const Vector xs = random_vector(static_cast<std::size_t>(A2.rows()), seed, Space::host);
    Vector b(xs.size(), Space::host), x = Vector::zeros(xs.size(), Space::host);
    spmv(A2, xs, b);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    CHECK(r.relative_residual <= 1e-8);
  }
}

TEST_CASE("dense_cholesky after a factorisation with null directions: reused where still null, else the full path") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A1 = neumann(Stencil::fd2d_5pt, 17, seed), A2 = neumann(Stencil::fd2d_5pt, 17, seed + 1);
  const Vector one = ones(A1.rows(), Space::host);
  const amg::CoarseSolver f1 = amg::factorise_coarse(A1, "dense_cholesky", &one, 1);
  REQUIRE(f1.null_space_columns == 1);
  CHECK_FALSE(f1.reused_null_space);
  CHECK(f1.null_space.size() == static_cast<std::size_t>(A1.rows()));
  // New values, the constants still null: one shifted inverse, the pseudo-inverse.
  const amg::CoarseSolver f2 = amg::factorise_coarse(A2, "dense_cholesky", &one, 1, &f1);
  CHECK(f2.reused_null_space);
  CHECK(f2.pseudo_inverse);
  CHECK(f2.null_space_columns == 1);
  const Eigen::MatrixXd X = dense_of(f2.inverse), E = dense_of(amg::factorise_coarse(A2).inverse);
  CHECK((X - E).cwiseAbs().maxCoeff() <= 1e-9 * E.cwiseAbs().maxCoeff());
  check_pseudo_inverse(dense_of(A2), X, Eigen::VectorXd::Ones(A2.rows()));
  // Values that make the matrix nonsingular (Dirichlet): the constants are not
  // null any more, so the plain inverse.
  const CsrMatrix D = poisson(Stencil::fd2d_5pt, 17, Space::host);
  const amg::CoarseSolver f3 = amg::factorise_coarse(D, "dense_cholesky", &one, 1, &f1);
  CHECK_FALSE(f3.reused_null_space);
  CHECK_FALSE(f3.pseudo_inverse);
  CHECK((dense_of(D) * dense_of(f3.inverse) - Eigen::MatrixXd::Identity(D.rows(), D.rows())).cwiseAbs().maxCoeff() <
        1e-10);
}
