// Linear elasticity and user near-nullspaces: the element and assembled
// matrices (rigid motions in the kernel), rigid-body modes, the node matrix of
// blocks, dependent near-nullspace columns dropped from T, and the iteration
// counts that rigid-body modes buy on a clamped bar.
#include <Eigen/SparseCholesky>
#include <cmath>
#include <random>

#include "amg/blocks.hpp"
#include "amg/hierarchy.hpp"
#include "amg/nullspace.hpp"
#include "amg/tentative.hpp"
#include "api/saga.hpp"
#include "problems/elasticity.hpp"
#include "problems/mesh_generate.hpp"
#include "problems/p1_element.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"
#include "sparse/transpose.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
Mesh box(int dim, index_t nx, index_t ny, double perturbation, std::uint64_t seed) {
  const index_t cells[3] = {nx, ny, ny};
  const double size[3] = {static_cast<double>(nx) / ny, 1.0, 1.0};
  return simplex_box_mesh(dim, cells, size, perturbation, seed);
}
void clamp_x0(Mesh& m) {
  for (index_t v = 0; v < m.vertices(); ++v) m.dirichlet[v] = m.coords[static_cast<std::size_t>(v) * m.dim] == 0.0;
}
double inf_norm(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}
}  // namespace

TEST_CASE("P1 elasticity element: symmetric, rigid motions in its kernel, positive on strains") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int dim : {2, 3}) {
    for (int trial = 0; trial < 20; ++trial) {
      double p[4][3] = {};
      for (int a = 0; a <= dim; ++a)
        for (int r = 0; r < dim; ++r) p[a][r] = (a == r + 1 ? 1.0 : 0.0) + 0.2 * U(rng);
      double S[144];
      const double lambda = 0.5 + U(rng) * 0.4, mu = 1.0 + U(rng) * 0.5;
      const double measure = p1_elasticity_stiffness(dim, p, lambda, mu, S);
      REQUIRE(measure > 0);
      const int m = (dim + 1) * dim;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) CHECK(S[i * m + j] == S[j * m + i]);
      // Rigid motions: translations and rotations of the vertices.
      std::vector<double> xyz;
      for (int a = 0; a <= dim; ++a)
        for (int r = 0; r < dim; ++r) xyz.push_back(p[a][r]);
      const NearNullspace rb = rigid_body_modes(xyz, dim, Space::host);
      const std::vector<double> B = rb.B.to_vector();
      for (int c = 0; c < rb.columns; ++c)
        for (int i = 0; i < m; ++i) {
          double s = 0;
          for (int j = 0; j < m; ++j) s += S[i * m + j] * B[j * rb.columns + c];
          CHECK(std::abs(s) < 1e-12 * (lambda + mu) * 10);
        }
      // A uniform stretch along x has energy (lambda + 2 mu) |T| (eps_xx = 1).
      std::vector<double> u(m, 0.0);
      for (int a = 0; a <= dim; ++a) u[a * dim] = p[a][0];
      double energy = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) energy += u[i] * S[i * m + j] * u[j];
      CHECK(energy == doctest::Approx((lambda + 2 * mu) * measure).epsilon(1e-10));
    }
  }
}

TEST_CASE("Assembled elasticity: floating body has the rigid-body modes as kernel; clamped bar is SPD") {
  const std::uint64_t seed = fresh_seed();
  for (int dim : {2, 3}) {
    CAPTURE(dim);
    Mesh m = box(dim, 6, 3, 0.2, seed);
    m.dirichlet.assign(m.vertices(), 0);
    const ElasticityMaterial mat{2.0, 0.3};
    const ElasticSystem free = assemble_elasticity(m, mat, Space::host, /*allow_floating=*/true);
    REQUIRE(free.A.rows() == m.vertices() * dim);
    const NearNullspace rb = rigid_body_modes(free.coordinates, dim, Space::host);
    CHECK(rb.columns == (dim == 2 ? 3 : 6));
    CHECK(rb.block_size == dim);
    const std::vector<double> B = rb.B.to_vector();
    const double scale = inf_norm(to_host_csr(free.A).val);
    for (int c = 0; c < rb.columns; ++c) {
      std::vector<double> b(free.A.rows());
      for (index_t i = 0; i < free.A.rows(); ++i) b[i] = B[static_cast<std::size_t>(i) * rb.columns + c];
      Vector y(free.A.rows(), Space::host);
      spmv(free.A, Vector::from_vector(b, Space::host), y);
      CHECK(inf_norm(y.to_vector()) < 1e-12 * scale * inf_norm(b) * 50);
    }
    // Without allow_floating the singular matrix is refused.
    CHECK_THROWS_WITH_AS(assemble_elasticity(m, mat, Space::host), doctest::Contains("no clamped vertex"), InputError);
    clamp_x0(m);
    const ElasticSystem clamped = assemble_elasticity(m, mat, Space::host);
    const HostCsr h = to_host_csr(clamped.A), t = to_host_csr(transpose(clamped.A));
    REQUIRE(h.col == t.col);
    CHECK(h.val == t.val);  // bitwise: S is symmetric and duplicates are summed in one order
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(Eigen::SparseMatrix<double>(to_eigen(clamped.A)));
    CHECK(llt.info() == Eigen::Success);
  }
  const Mesh m = box(3, 4, 2, 0.0, 1);
  CHECK_THROWS_WITH_AS(assemble_elasticity(m, {1.0, 0.5}, Space::host), doctest::Contains("poisson_ratio"), InputError);
  CHECK_THROWS_WITH_AS(assemble_elasticity(m, {-1.0, 0.3}, Space::host), doctest::Contains("young"), InputError);
}

TEST_CASE("Node matrix of 2x2 blocks: Frobenius norms, by hand") {
  // A (4x4), blocks {0,1} and {2,3}:
  //  [ 4 -1 | 2  0 ]
  //  [-1  4 | 0 -2 ]
  //  [ 2  0 | 3  1 ]
  //  [ 0 -2 | 1  3 ]
  HostCsr h;
  h.rows = h.cols = 4;
  h.row_ptr = {0, 3, 6, 9, 12};
  h.col = {0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3};
  h.val = {4, -1, 2, -1, 4, -2, 2, 3, 1, -2, 1, 3};
  const CsrMatrix A = from_host_csr(h, Space::host);
  const auto product = spgemm_registry().create(Component(""), Space::host);
  const Array<index_t> node = amg::interleaved_nodes(4, 2, Space::host);
  CHECK(node.to_vector() == std::vector<index_t>{0, 0, 1, 1});
  const HostCsr c = to_host_csr(amg::node_matrix(A, node, 2, *product));
  REQUIRE(c.rows == 2);
  REQUIRE(c.row_ptr == std::vector<offset_t>{0, 2, 4});
  REQUIRE(c.col == std::vector<index_t>{0, 1, 0, 1});
  CHECK(c.val[0] == doctest::Approx(std::sqrt(16.0 + 1 + 1 + 16)));
  CHECK(c.val[1] == doctest::Approx(std::sqrt(4.0 + 4)));
  CHECK(c.val[2] == doctest::Approx(std::sqrt(4.0 + 4)));
  CHECK(c.val[3] == doctest::Approx(std::sqrt(9.0 + 1 + 1 + 9)));
  CHECK_THROWS_AS(amg::interleaved_nodes(5, 2, Space::host), InputError);

  // Node aggregates become the aggregates of their unknowns.
  amg::Aggregates nodes;
  nodes.of_node = Array<index_t>::from_vector({0, -1}, Space::host);
  nodes.count = 1;
  nodes.unaggregated = 1;
  const amg::Aggregates u = amg::unknowns_aggregates(nodes, node);
  CHECK(u.of_node.to_vector() == std::vector<index_t>{0, 0, -1, -1});
  CHECK(u.count == 1);
}

TEST_CASE("Tentative prolongator drops near-nullspace columns an aggregate cannot span") {
  // Two 3D nodes on the x axis in one aggregate, a third node alone: the
  // rotation about x moves neither of the first two, so that aggregate spans 5
  // of the 6 rigid-body modes; a single node spans 3 (translations).
  const std::vector<double> xyz = {0, 0, 0, 1, 0, 0, 5, 1, 2};
  const NearNullspace rb = rigid_body_modes(xyz, 3, Space::host);
  amg::Aggregates ag;
  ag.of_node = Array<index_t>::from_vector({0, 0, 0, 0, 0, 0, 1, 1, 1}, Space::host);
  ag.count = 2;
  const amg::Tentative t = amg::tentative_prolongator(ag, rb.B, 6);
  CHECK(t.dropped == 1 + 3);
  REQUIRE(t.T.cols() == 5 + 3);
  CHECK(t.coarse_node.to_vector() == std::vector<index_t>{0, 0, 0, 0, 0, 1, 1, 1});
  // Orthonormal columns, and T Bc = B.
  const Eigen::MatrixXd T = Eigen::MatrixXd(to_eigen(t.T));
  const Eigen::MatrixXd TtT = T.transpose() * T;
  CHECK((TtT - Eigen::MatrixXd::Identity(8, 8)).cwiseAbs().maxCoeff() < 1e-12);
  const std::vector<double> bc = t.Bc.to_vector(), b = rb.B.to_vector();
  REQUIRE(bc.size() == 8u * 6);
  for (int i = 0; i < 9; ++i)
    for (int c = 0; c < 6; ++c) {
      double s = 0;
      for (int j = 0; j < 8; ++j) s += T(i, j) * bc[j * 6 + c];
      CHECK(s == doctest::Approx(b[i * 6 + c]).epsilon(1e-12).scale(1));
    }
  // Every row of T has a value (no unknown lost), every column has one too.
  for (int j = 0; j < 8; ++j) CHECK(T.col(j).norm() == doctest::Approx(1.0));
}

TEST_CASE("Rigid-body modes cut the PCG iterations on a clamped 3D bar (about 600 unknowns) and a 2D plate") {
  const std::uint64_t seed = fresh_seed();
  struct Case {
    int dim;
    index_t nx, ny;
    double ratio;  // iterations with the constant vector / with rigid-body modes, at least
  };
  for (const Case c : {Case{3, 12, 3, 3.0}, Case{2, 48, 12, 3.0}}) {
    CAPTURE(c.dim);
    Mesh m = box(c.dim, c.nx, c.ny, 0.1, seed);
    clamp_x0(m);
    const ElasticSystem s = assemble_elasticity(m, {1.0, 0.3}, Space::host);
    MESSAGE("elasticity dim " << c.dim << ": " << s.A.rows() << " unknowns");
    SolverParams sp;
    sp.tolerance = 1e-8;
    sp.max_iterations = 500;
    AmgParams amg;
    amg.coarse_size = 40;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> U(-1, 1);
    std::vector<double> bv(s.A.rows());
    for (double& x : bv) x = U(rng);
    const Vector b = Vector::from_vector(bv, Space::host);
    auto iterations = [&](std::optional<NearNullspace> ns) {
      Solver solver = ns ? Solver(s.A.clone(), amg, sp, std::move(*ns)) : Solver(s.A.clone(), amg, sp);
      Vector x = Vector::zeros(s.A.rows(), Space::host);
      const SolveResult r = solver.solve(b, x);
      REQUIRE(r.converged);
      // The solution solves the system.
      Vector ax(s.A.rows(), Space::host);
      spmv(s.A, x, ax);
      double e = 0, nb = 0;
      const auto axv = ax.to_vector();
      for (index_t i = 0; i < s.A.rows(); ++i) {
        e += (axv[i] - bv[i]) * (axv[i] - bv[i]);
        nb += bv[i] * bv[i];
      }
      CHECK(std::sqrt(e / nb) < 1e-7);
      MESSAGE("levels " << solver.stats().levels.size() << ", operator complexity "
                        << solver.stats().operator_complexity << ", iterations " << r.iterations);
      return r.iterations;
    };
    const int constant = iterations(std::nullopt);
    const int rigid = iterations(rigid_body_modes(s.coordinates, c.dim, Space::host));
    MESSAGE("PCG iterations: constant " << constant << ", rigid-body modes " << rigid);
    CHECK(constant >= c.ratio * rigid);
  }
}

TEST_CASE("User near-nullspace: checked against the matrix") {
  const NearNullspace ok = user_nullspace({1, 0, 0, 1, 1, 0, 0, 1}, 4, 2, 2, Space::host, "B.mtx");
  CHECK_NOTHROW(check_nullspace(ok, 4));
  CHECK_THROWS_WITH_AS(check_nullspace(ok, 6), doctest::Contains("has 8 values: the matrix has 6 rows"), InputError);
  const NearNullspace odd = user_nullspace({1, 1, 1}, 3, 1, 2, Space::host, "B.mtx");
  CHECK_THROWS_WITH_AS(check_nullspace(odd, 3), doctest::Contains("not whole nodes of 2"), InputError);
  CHECK_THROWS_WITH_AS(user_nullspace({1, 0, 1, 0}, 2, 2, 1, Space::host, "B.mtx"),
                       doctest::Contains("B.mtx: near-nullspace column 2 is zero everywhere"), InputError);
  CHECK_THROWS_WITH_AS(user_nullspace({1, NAN}, 2, 1, 1, Space::host, "B.mtx"),
                       doctest::Contains("entry (2, 1) is nan"), InputError);
  CHECK_THROWS_WITH_AS(rigid_body_modes({0, 0, 1}, 2, Space::host), doctest::Contains("not whole nodes"), InputError);
}

TEST_CASE("Elasticity assembly in chunks of rows: the whole assembly's matrix, bit for bit") {
  const std::uint64_t seed = fresh_seed();
  for (int dim : {2, 3}) {
    CAPTURE(dim);
    Mesh m = box(dim, 7, 4, 0.2, seed);
    clamp_x0(m);
    const ElasticityMaterial mat{2.0, 0.3};
    const HostCsr whole = to_host_csr(assemble_elasticity(m, mat, Space::host).A);
    for (std::int64_t chunk : {static_cast<std::int64_t>(whole.val.size()) / 2, std::int64_t(500), std::int64_t(1)}) {
      CAPTURE(chunk);
      const HostCsr c = to_host_csr(assemble_elasticity(m, mat, Space::host, false, chunk).A);
      CHECK(c.row_ptr == whole.row_ptr);
      CHECK(c.col == whole.col);
      CHECK(c.val == whole.val);  // a row's dim components may fall in two chunks: each gets all its triplets
    }
  }
}
