// Structured generators: closed-form nnz, values, symmetry, right-hand sides.
#include "problems/rhs.hpp"
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
      const double centre = stencil_centre(s);
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
