// P1 finite elements: element matrices, generated meshes, assembly invariants,
// the O(h^2) discretisation error, and AMG-PCG on the assembled systems.
#include <Eigen/SparseCholesky>
#include <cmath>

#include "amg/hierarchy.hpp"
#include "api/saga.hpp"
#include "problems/fe_assembly.hpp"
#include "problems/mesh_generate.hpp"
#include "problems/p1_element.hpp"
#include "problems/structured.hpp"
#include "sparse/transpose.hpp"
#include "tests/fe_helpers.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
const double kIdentity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

void check_symmetric_positive_definite(const CsrMatrix& A) {
  const HostCsr h = to_host_csr(A), t = to_host_csr(transpose(A));
  REQUIRE(h.col == t.col);
  for (std::size_t k = 0; k < h.val.size(); ++k) CHECK(h.val[k] == doctest::Approx(t.val[k]).epsilon(1e-12));
  Eigen::SparseMatrix<double> e = to_eigen(A);
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(e);
  CHECK(llt.info() == Eigen::Success);
}

std::vector<double> solve(const CsrMatrix& A, const std::vector<double>& b, int* iterations = nullptr,
                          double tolerance = 1e-12) {
  SolverParams sp;
  sp.tolerance = tolerance;
  Solver solver(A.clone(), AmgParams{}, sp);
  Vector x = Vector::zeros(A.rows(), Space::host);
  const SolveResult r = solver.solve(Vector::from_vector(b, Space::host), x);
  REQUIRE(r.converged);
  if (iterations) *iterations = r.iterations;
  return x.to_vector();
}
}  // namespace

TEST_CASE("P1 element matrices on reference elements") {
  double S[16];
  const double tri[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {}};
  CHECK(p1_stiffness(2, tri, kIdentity, 1.0, S) == doctest::Approx(0.5));
  const double want2[9] = {1, -0.5, -0.5, -0.5, 0.5, 0, -0.5, 0, 0.5};
  for (int k = 0; k < 9; ++k) CHECK(S[k] == doctest::Approx(want2[k]));
  const double tet[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  CHECK(p1_stiffness(3, tet, kIdentity, 2.0, S) == doctest::Approx(1.0 / 6));
  const double want3[16] = {3, -1, -1, -1, -1, 1, 0, 0, -1, 0, 1, 0, -1, 0, 0, 1};
  for (int k = 0; k < 16; ++k) CHECK(S[k] == doctest::Approx(2.0 * want3[k] / 6));
  // Anisotropic tensor diag(eps, 1) on the reference triangle.
  const double K[9] = {0.01, 0, 0, 0, 1, 0, 0, 0, 1};
  p1_stiffness(2, tri, K, 1.0, S);
  CHECK(S[0] == doctest::Approx(0.505));
  CHECK(S[1] == doctest::Approx(-0.005));
  CHECK(S[2] == doctest::Approx(-0.5));

  // Random elements: symmetric, zero row sums, positive semi-definite,
  // unchanged by translation and by reordering the vertices.
  std::mt19937_64 rng(fresh_seed());
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < 50; ++trial) {
    const int dim = 2 + trial % 2, n = dim + 1;
    double p[4][3] = {}, q[4][3] = {};
    for (int a = 0; a < n; ++a)
      for (int r = 0; r < dim; ++r) p[a][r] = U(rng);
    for (int a = 0; a < n; ++a)
      for (int r = 0; r < dim; ++r) q[(a + 1) % n][r] = p[a][r] + 3.0;
    double Sp[16], Sq[16];
    const double mu = p1_stiffness(dim, p, kIdentity, 1.0, Sp);
    if (mu < 1e-3) continue;
    p1_stiffness(dim, q, kIdentity, 1.0, Sq);
    for (int a = 0; a < n; ++a) {
      double sum = 0;
      for (int b = 0; b < n; ++b) {
        sum += Sp[a * n + b];
        CHECK(Sp[a * n + b] == doctest::Approx(Sp[b * n + a]));
        CHECK(Sp[a * n + b] == doctest::Approx(Sq[((a + 1) % n) * n + (b + 1) % n]).epsilon(1e-9));
      }
      CHECK(std::abs(sum) < 1e-9 * Sp[a * n + a]);
      CHECK(Sp[a * n + a] > 0);
    }
  }
}

TEST_CASE("unperturbed triangle mesh gives the 5-point stencil") {
  const index_t n = 6;
  Mesh m = unit_simplex_mesh(2, n, 0.0, 0);
  const FeSystem s = assemble_p1(m, {}, Space::host);
  const HostCsr a = to_host_csr(s.A), p = to_host_csr(poisson(Stencil::fd2d_5pt, n - 1, Space::host));
  // Same values where the stencil has entries; the diagonal edges of the
  // triangles are explicit zeros (P1 pattern: unknowns + 2 x interior edges).
  CHECK(s.A.nnz() == s.A.rows() + 2 * interior_edges(m));
  const EigenCsr ea = to_eigen(a), ep = to_eigen(p);
  CHECK((EigenCsr(ea - ep)).norm() < 1e-12);
}

TEST_CASE("assembled P1 matrices: nnz from the edges, symmetric positive definite, zero interior row sums") {
  const std::uint64_t seed = fresh_seed();
  for (int dim : {2, 3}) {
    CAPTURE(dim);
    Mesh m = unit_simplex_mesh(dim, dim == 2 ? 17 : 6, dim == 2 ? 0.24 : 0.15, seed);
    validate_mesh(m);
    for (index_t c = 0; c < m.cell_count(); ++c) CHECK(cell_measure(m, c) > 0);
    const FeSystem s = assemble_p1(m, {}, Space::host);
    s.A.validate();
    CHECK(s.A.rows() == (dim == 2 ? 16 * 16 : 5 * 5 * 5));
    CHECK(s.A.nnz() == s.A.rows() + 2 * interior_edges(m));
    check_symmetric_positive_definite(s.A);
    // Rows whose vertex has no Dirichlet neighbour sum to zero (constants are
    // in the kernel of the Neumann operator).
    const HostCsr h = to_host_csr(s.A);
    std::vector<char> near_boundary(m.vertices(), 0);
    for (index_t c = 0; c < m.cell_count(); ++c) {
      bool touches = false;
      for (int a = 0; a <= dim; ++a) touches = touches || m.dirichlet[m.cells[c * (dim + 1) + a]];
      if (touches)
        for (int a = 0; a <= dim; ++a) near_boundary[m.cells[c * (dim + 1) + a]] = 1;
    }
    int checked = 0;
    for (index_t i = 0; i < h.rows; ++i) {
      if (near_boundary[s.vertex_of_dof[i]]) continue;
      double sum = 0, diag = 0;
      for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) {
        sum += h.val[k];
        if (h.col[k] == i) diag = h.val[k];
      }
      CHECK(std::abs(sum) < 1e-12 * diag);
      ++checked;
    }
    CHECK(checked > 0);
  }
  // Coefficients and anisotropy keep it SPD.
  Mesh m = unit_simplex_mesh(2, 12, 0.2, seed);
  FeCoefficients k;
  k.anisotropy = {1e-3, 30};
  k.field.kind = CoefficientField::Kind::random;
  k.field.contrast = 1e5;
  k.field.blocks = 3;
  check_symmetric_positive_definite(assemble_p1(m, k, Space::host).A);
}

TEST_CASE("mesh errors: folded cells, no Dirichlet vertex, bad perturbation") {
  CHECK_THROWS_AS(unit_simplex_mesh(2, 4, 0.6, 0), InputError);
  CHECK_THROWS_AS(unit_simplex_mesh(4, 4, 0.1, 0), InputError);
  Mesh m = unit_simplex_mesh(2, 4, 0.1, 0);
  m.dirichlet.assign(m.vertices(), 0);
  CHECK_THROWS_WITH_AS(assemble_p1(m, {}, Space::host), doctest::Contains("no Dirichlet vertex"), InputError);
  m.dirichlet.assign(m.vertices(), 1);
  CHECK_THROWS_WITH_AS(assemble_p1(m, {}, Space::host), doctest::Contains("no unknowns"), InputError);
  mark_boundary_dirichlet(m);
  CHECK(std::count(m.dirichlet.begin(), m.dirichlet.end(), 1) == 16);
  // A degenerate (flat) cell.
  Mesh flat = m;
  flat.coords[2 * flat.cells[1]] = flat.coords[2 * flat.cells[0]];
  flat.coords[2 * flat.cells[1] + 1] = flat.coords[2 * flat.cells[0] + 1];
  CHECK_THROWS_WITH_AS(validate_mesh(flat), doctest::Contains("degenerate"), InputError);
}

TEST_CASE("manufactured solution: the L2 error falls as O(h^2)") {
  // -lap u = f on the unit square/cube, u = prod sin(pi x_k), zero on the boundary.
  for (int dim : {2, 3}) {
    CAPTURE(dim);
    const double pi = 3.14159265358979323846;
    auto u = [dim, pi](const double* x) {
      double v = 1;
      for (int k = 0; k < dim; ++k) v *= std::sin(pi * x[k]);
      return v;
    };
    auto f = [&](const double* x) { return dim * pi * pi * u(x); };
    std::vector<double> errors;
    const std::vector<index_t> sizes = dim == 2 ? std::vector<index_t>{8, 16, 32, 64} : std::vector<index_t>{6, 12, 24};
    for (index_t n : sizes) {
      Mesh m = unit_simplex_mesh(dim, n, 0.2, 7);
      const FeSystem s = assemble_p1(m, {}, Space::host);
      const std::vector<double> uh = solve(s.A, p1_load_vector(m, s, f));
      errors.push_back(p1_l2_error(m, s, uh, u));
    }
    for (std::size_t k = 1; k < errors.size(); ++k) {
      const double rate = std::log2(errors[k - 1] / errors[k]);
      MESSAGE("dim " << dim << " n " << sizes[k] << ": L2 error " << errors[k] << ", rate " << rate);
      CHECK(rate > 1.8);
      CHECK(rate < 2.3);
    }
  }
}

TEST_CASE("AMG-PCG on P1 problems: iterations stay bounded under refinement") {
  for (int dim : {2, 3}) {
    std::vector<int> its;
    for (index_t n : dim == 2 ? std::vector<index_t>{32, 64, 128} : std::vector<index_t>{12, 24, 32}) {
      Mesh m = unit_simplex_mesh(dim, n, 0.2, 1);
      const FeSystem s = assemble_p1(m, {}, Space::host);
      int it = 0;
      solve(s.A, std::vector<double>(s.A.rows(), 1.0), &it, 1e-8);
      MESSAGE("dim " << dim << " n " << n << ": " << it << " PCG iterations to 1e-8");
      its.push_back(it);
    }
    // Column-C-like MIS-2 aggregation: mild growth, as on the structured grids.
    CHECK(its.back() <= its.front() + 15);
    CHECK(its.back() < 40);
  }
}

TEST_CASE("P1 assembly in chunks of rows: the whole assembly's matrix, bit for bit") {
  const std::uint64_t seed = fresh_seed();
  FeCoefficients k = random_fe_coefficients(seed, 1e3, 3);
  for (int dim : {2, 3}) {
    CAPTURE(dim);
    const Mesh m = unit_simplex_mesh(dim, dim == 2 ? 70 : 13, 0.2, seed);
    const HostCsr whole = to_host_csr(assemble_p1(m, k, Space::host).A);
    // About the whole assembly's triplets (nonzeros times the cells sharing an
    // edge) over 3 and over 37, and one row a chunk.
    const std::int64_t triplets = static_cast<std::int64_t>(whole.val.size()) * (dim == 2 ? 2 : 5);
    for (std::int64_t chunk : {triplets / 3, triplets / 37, std::int64_t(1)}) {
      CAPTURE(chunk);
      const HostCsr c = to_host_csr(assemble_p1(m, k, Space::host, chunk).A);
      CHECK(c.rows == whole.rows);
      CHECK(c.row_ptr == whole.row_ptr);
      CHECK(c.col == whole.col);
      CHECK(c.val == whole.val);  // every row holds its triplets in cell order, as the whole assembly does
    }
  }
}
