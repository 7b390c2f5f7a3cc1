// Structured generators: closed-form nnz, values, symmetry, right-hand sides.
#include <Eigen/SparseCholesky>

#include "problems/rhs.hpp"
#include "problems/rmat.hpp"
#include "sparse/spgemm.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv.hpp"
#include "sparse/transpose.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("every generator matches the closed-form nnz, is symmetric with the right values") {
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    for (index_t N : {1, 2, 3, 5, 8, 13}) {
      CAPTURE(stencil_name(s));
      CAPTURE(N);
      const CsrMatrix A = poisson(s, N, Space::host);
      A.validate();
      CHECK(A.rows() == poisson_rows(s, N));
      CHECK(A.nnz() == poisson_nnz(s, N));
      const HostCsr h = to_host_csr(A);
      const HostCsr t = to_host_csr(transpose(A));
      CHECK(h.row_ptr == t.row_ptr);
      CHECK(h.col == t.col);
      CHECK(h.val == t.val);
      // Diagonal = centre, off-diagonals -1, row sums >= 0 with equality at
      // interior rows (the stencil is a Laplacian).
      const double centre = s == Stencil::fd2d_5pt ? 4 : s == Stencil::fe2d_9pt ? 8 : s == Stencil::fd3d_7pt ? 6 : 26;
      int interior_rows = 0;
      for (index_t i = 0; i < h.rows; ++i) {
        double sum = 0;
        for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) {
          sum += h.val[k];
          CHECK(h.val[k] == (h.col[k] == i ? centre : -1.0));
        }
        CHECK(sum >= 0.0);
        if (sum == 0.0) ++interior_rows;
      }
      const std::int64_t inner = N > 2 ? (stencil_dim(s) == 2 ? (N - 2) * (N - 2) : (N - 2) * (N - 2) * (N - 2)) : 0;
      CHECK(interior_rows == inner);
    }
  }
}

TEST_CASE("2D 5-point N=3 by hand") {
  const HostCsr h = to_host_csr(poisson(Stencil::fd2d_5pt, 3, Space::host));
  CHECK(h.row_ptr == std::vector<offset_t>{0, 3, 7, 10, 14, 19, 23, 26, 30, 33});
  // Centre row 4: neighbours 1, 3, 5, 7.
  CHECK(std::vector<index_t>(h.col.begin() + 14, h.col.begin() + 19) == std::vector<index_t>{1, 3, 4, 5, 7});
}

TEST_CASE("stencil names parse, unknown names are errors") {
  CHECK(parse_stencil("3d27") == Stencil::fe3d_27pt);
  CHECK(parse_stencil("poisson2d_5pt") == Stencil::fd2d_5pt);
  CHECK_THROWS_WITH_AS(parse_stencil("4d"), doctest::Contains("unknown stencil '4d'"), InputError);
  CHECK_THROWS_AS(poisson(Stencil::fd2d_5pt, 0, Space::host), InputError);
}

TEST_CASE("right-hand sides") {
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, 6, Space::host);
  const ManufacturedSystem s = rhs_from_random_solution(A, 42);
  const ManufacturedSystem s2 = rhs_from_random_solution(A, 42);
  CHECK(s.x_star.to_vector() == s2.x_star.to_vector());
  for (double v : s.x_star.to_vector()) CHECK((v >= 0.0 && v < 1.0));
  Vector r(A.rows(), Space::host);
  spmv(A, s.x_star, r);
  CHECK(r.to_vector() == s.b.to_vector());
  CHECK(random_vector(10, 1, Space::host).to_vector() != random_vector(10, 2, Space::host).to_vector());
  CHECK(norm2(ones(16, Space::host)) == doctest::Approx(4.0));
}

TEST_CASE("SpGEMM of Poisson matrices equals Eigen") {
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe3d_27pt}) {
    const CsrMatrix A = poisson(s, 7, Space::host);
    const EigenCsr e = to_eigen(A);
    check_equal(to_host_csr(spgemm(A, A)), from_eigen(EigenCsr(e * e)), 1e-14);
  }
}

namespace {
// Symmetric with equal values both ways, and positive definite (Eigen's
// sparse Cholesky succeeds).
void check_spd(const CsrMatrix& A) {
  const HostCsr h = to_host_csr(A), t = to_host_csr(transpose(A));
  CHECK(h.row_ptr == t.row_ptr);
  CHECK(h.col == t.col);
  for (std::size_t k = 0; k < h.val.size(); ++k) CHECK(h.val[k] == doctest::Approx(t.val[k]).epsilon(1e-13));
  Eigen::SparseMatrix<double> e = to_eigen(A);
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(e);
  CHECK(llt.info() == Eigen::Success);
}
double entry(const HostCsr& h, index_t i, index_t j) {
  for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k)
    if (h.col[k] == j) return h.val[k];
  return NAN;
}
}  // namespace

TEST_CASE("anisotropic stencils: values, pattern, symmetry, definiteness") {
  const index_t N = 9;
  // Unrotated 5-point: -eps u_xx - u_yy.
  {
    const HostCsr h = to_host_csr(poisson(make_stencil_spec(Stencil::fd2d_5pt, {1e-3, 0}), N, Space::host));
    const index_t c = 4 * N + 4;
    CHECK(entry(h, c, c) == doctest::Approx(2e-3 + 2));
    CHECK(entry(h, c, c + 1) == doctest::Approx(-1e-3));
    CHECK(entry(h, c, c + N) == doctest::Approx(-1.0));
    CHECK(h.col.size() == static_cast<std::size_t>(poisson_nnz(Stencil::fd2d_5pt, N)));
  }
  // Rotated: 9 points, mixed-derivative corners of opposite signs, zero interior row sums.
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt}) {
    CAPTURE(stencil_name(s));
    const StencilSpec spec = make_stencil_spec(s, {0.01, 30});
    const index_t n = stencil_dim(s) == 2 ? N : 5;
    const CsrMatrix A = poisson(spec, n, Space::host);
    CHECK(A.nnz() == poisson_nnz(spec, n));
    if (s != Stencil::fd3d_7pt) CHECK(A.nnz() == (3 * n - 2) * (3 * n - 2));
    check_spd(A);
    const HostCsr h = to_host_csr(A);
    const index_t c = stencil_dim(s) == 2 ? 4 * n + 4 : (2 * n + 2) * n + 2;
    double sum = 0;
    for (offset_t k = h.row_ptr[c]; k < h.row_ptr[c + 1]; ++k) sum += h.val[k];
    CHECK(std::abs(sum) < 1e-12);
    CHECK(entry(h, c, c + n + 1) * entry(h, c, c + n - 1) < 0);  // (1,1) and (-1,1) corners
  }
  // Rotating by 90 degrees swaps the roles of x and y.
  const StencilSpec a = make_stencil_spec(Stencil::fe2d_9pt, {0.1, 0}), b = make_stencil_spec(Stencil::fe2d_9pt, {0.1, 90});
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      CHECK(a.weight[stencil_offset_index(dx, dy, 0)] == doctest::Approx(b.weight[stencil_offset_index(dy, dx, 0)]));
  // Isotropic spec = the plain generator, exactly.
  check_equal(to_host_csr(poisson(make_stencil_spec(Stencil::fe2d_9pt, {1, 45}), 7, Space::host)),
              to_host_csr(poisson(Stencil::fe2d_9pt, 7, Space::host)), 0.0);
}

TEST_CASE("jumping coefficients: harmonic means, M-matrix, definiteness") {
  CoefficientField k;
  k.kind = CoefficientField::Kind::checkerboard;
  k.contrast = 1e4;
  k.blocks = 2;
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const index_t N = stencil_dim(s) == 2 ? 12 : 6;
    const StencilSpec spec = make_stencil_spec(s, {}, k);
    const CsrMatrix A = poisson(spec, N, Space::host);
    CHECK(A.nnz() == poisson_nnz(s, N));
    check_spd(A);
    const HostCsr h = to_host_csr(A);
    for (index_t i = 0; i < h.rows; ++i) {
      double sum = 0;
      for (offset_t q = h.row_ptr[i]; q < h.row_ptr[i + 1]; ++q) {
        sum += h.val[q];
        if (h.col[q] != i) CHECK(h.val[q] < 0);
      }
      CHECK(sum >= -1e-9 * entry(h, i, i));
    }
    // Node 0 is in block (0,..) (kappa 1), its x-neighbour too: weight -1.
    CHECK(entry(h, 0, 1) == doctest::Approx(-1.0));
  }
  // An edge across the block interface gets the harmonic mean 2 c / (1 + c).
  const index_t N = 12;
  const HostCsr h = to_host_csr(poisson(make_stencil_spec(Stencil::fd2d_5pt, {}, k), N, Space::host));
  const index_t left = 5, right = 6;  // x = 6/13 and 7/13: blocks 0 and 1 of [0,1]
  CHECK(entry(h, left, right) == doctest::Approx(-2e4 / (1 + 1e4)));
  CHECK(entry(h, right, right + 1) == doctest::Approx(-1e4));
  // Random fields: seeded, log-uniform in [1, contrast].
  CoefficientField r;
  r.kind = CoefficientField::Kind::random;
  r.contrast = 1e6;
  r.blocks = 8;
  r.seed = 3;
  double lo = 1e300, hi = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const double v = r.at((i + 0.5) / 8, (j + 0.5) / 8, 0);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  CHECK(lo >= 1.0);
  CHECK(hi <= 1e6);
  CHECK(hi / lo > 1e3);
  check_spd(poisson(make_stencil_spec(Stencil::fe3d_27pt, {}, r), 6, Space::host));
}

TEST_CASE("variant combinations that would not be SPD are errors") {
  CHECK_THROWS_WITH_AS(make_stencil_spec(Stencil::fe3d_27pt, {0.1, 0}), doctest::Contains("27-point"), InputError);
  CoefficientField k;
  k.kind = CoefficientField::Kind::checkerboard;
  k.contrast = 100;
  CHECK_THROWS_WITH_AS(make_stencil_spec(Stencil::fd2d_5pt, {0.1, 30}, k), doctest::Contains("type: fe"), InputError);
  CHECK_THROWS_AS(make_stencil_spec(Stencil::fd2d_5pt, {-1, 0}), InputError);
  CHECK_NOTHROW(make_stencil_spec(Stencil::fd2d_5pt, {0.1, 0}, k));
}

TEST_CASE("R-MAT: power-law rows, deterministic; its Laplacian is symmetric with positive diagonal dominance") {
  RmatParams p;
  p.scale = 12;
  p.edges = 8;
  p.seed = 42;
  const HostCsr g = to_host_csr(rmat_matrix(p, Space::host));
  CHECK(g.rows == 4096);
  CHECK(g.col.size() <= std::size_t(8 * 4096));
  CHECK(g.col.size() > std::size_t(4 * 4096));  // duplicates merge, but most edges are distinct
  offset_t longest = 0;
  for (index_t i = 0; i < g.rows; ++i) longest = std::max(longest, g.row_ptr[i + 1] - g.row_ptr[i]);
  CHECK(longest > 20 * 8);  // hub rows far longer than the mean
  const HostCsr g2 = to_host_csr(rmat_matrix(p, Space::host));
  CHECK(g2.col == g.col);
  CHECK(g2.val == g.val);
  const CsrMatrix L = rmat_laplacian(p, 0.25, Space::host);
  L.validate("R-MAT Laplacian");
  const EigenCsr Le = to_eigen(L);
  CHECK((Le - EigenCsr(Le.transpose())).norm() == 0.0);
  const HostCsr h = to_host_csr(L);
  for (index_t i = 0; i < h.rows; ++i) {  // row sums are the shift: degree on the diagonal, -1 per edge
    double sum = 0;
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) sum += h.val[k];
    CHECK(sum == doctest::Approx(0.25));
  }
  CHECK_THROWS_WITH_AS(rmat_laplacian(p, 0.0, Space::host), doctest::Contains("shift 0 must be positive"), InputError);
  p.a = 0.9;
  CHECK_THROWS_WITH_AS(rmat_matrix(p, Space::host), doctest::Contains("a + b + c < 1"), InputError);
}
