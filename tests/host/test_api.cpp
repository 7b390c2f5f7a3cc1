// The public API used the way an embedding code would: its own matrix, a
// preconditioner from saga, its own CG loop.
#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/coo.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;

TEST_CASE("embedding: user matrix in, preconditioner out, user's own CG") {
  // A 1D Laplacian assembled by the "user" from triplets.
  const index_t n = 2000;
  std::vector<index_t> r, c;
  std::vector<double> v;
  for (index_t i = 0; i < n; ++i) {
    r.push_back(i), c.push_back(i), v.push_back(2.0);
    if (i > 0) r.push_back(i), c.push_back(i - 1), v.push_back(-1.0);
    if (i + 1 < n) r.push_back(i), c.push_back(i + 1), v.push_back(-1.0);
  }
  CooMatrix coo{n, n, Array<index_t>::from_vector(r, Space::host), Array<index_t>::from_vector(c, Space::host),
                Array<double>::from_vector(v, Space::host)};
  const CsrMatrix A = coo_to_csr(coo);
  AmgParams p;
  p.coarse_size = 50;
  const AmgPreconditioner M(A, p);
  CHECK(M.stats().levels.size() >= 2);
  CHECK(M.stats().operator_complexity > 1.0);

  Vector b = Vector::from_vector(std::vector<double>(n, 1.0), Space::host);
  Vector x = Vector::zeros(n, Space::host), res = b.clone(), z(n, Space::host), q(n, Space::host), Aq(n, Space::host);
  M.apply(res, z);
  copy(z, q);
  double rz = dot(res, z);
  int it = 0;
  const double bn = norm2(b);
  while (norm2(res) / bn > 1e-10 && it < 100) {
    spmv(A, q, Aq);
    const double alpha = rz / dot(q, Aq);
    axpby(alpha, q, 1.0, x);
    axpby(-alpha, Aq, 1.0, res);
    M.apply(res, z);
    const double rz2 = dot(res, z);
    axpby(1.0, z, rz2 / rz, q);
    rz = rz2;
    ++it;
  }
  CHECK(norm2(res) / bn <= 1e-10);
  CHECK(it < 40);
  // Exact solution of the 1D problem with b = 1: x_i = (i+1)(n-i)/2.
  const std::vector<double> xs = x.to_vector();
  CHECK(xs[0] == doctest::Approx(0.5 * n).epsilon(1e-6));
  CHECK(xs[n / 2] == doctest::Approx(0.5 * (n / 2 + 1) * (n - n / 2)).epsilon(1e-6));

  // The Solver facade gives the same answer.
  Solver s(A, p);
  Vector x2 = Vector::zeros(n, Space::host);
  const SolveResult sr = s.solve(b, x2);
  CHECK(sr.converged);
  CHECK(sr.iterations < 40);
}

TEST_CASE("backend resolution") {
  CHECK(Executor::from_name("host") == Executor::host());
  CHECK(Executor::from_name("host")->space() == Space::host);
  CHECK_THROWS_WITH_AS(Executor::from_name("tpu"), doctest::Contains("expected auto, host or cuda"), InputError);
  if (!device::compiled() || device::count() == 0) {
    CHECK(Executor::from_name("auto") == Executor::host());
    CHECK_THROWS_WITH_AS(Executor::from_name("cuda"), doctest::Contains("cuda"), UnavailableError);
  }
}

TEST_CASE("CSR views: the caller's arrays used in place (32-bit), narrowed indices (64-bit), bad views refused") {
  const HostCsr h = to_host_csr(poisson(Stencil::fd2d_5pt, 20, Space::host));
  const index_t n = h.rows;
  const offset_t nnz = static_cast<offset_t>(h.col.size());
  {
    CsrMatrix V = CsrMatrix::view(n, n, nnz, h.row_ptr.data(), h.col.data(), h.val.data(), Space::host);
    CHECK(V.val().data() == h.val.data());  // no copy
    CHECK_FALSE(V.val().owns());
    Solver s(std::move(V), AmgParams{}, SolverParams{});
    CHECK(s.preconditioner().matrix().col().data() == h.col.data());
    const Vector b = Vector::from_vector(std::vector<double>(n, 1.0), Space::host);
    Vector x = Vector::zeros(n, Space::host);
    CHECK(s.solve(b, x).converged);
  }  // the solver's end frees nothing of the caller's
  CHECK(h.val[0] == 4.0);
  std::vector<std::int64_t> rp(h.row_ptr.begin(), h.row_ptr.end()), col(h.col.begin(), h.col.end());
  const CsrMatrix W = CsrMatrix::view(std::int64_t{n}, std::int64_t{n}, std::int64_t{nnz}, rp.data(), col.data(),
                                      h.val.data(), Space::host);
  test::check_equal(to_host_csr(W), h, 0.0);
  CHECK(W.val().data() == h.val.data());
  CHECK(W.col().owns());  // the narrowed copy
  CHECK(W.row_ptr().owns() == (sizeof(offset_t) == 4));  // narrowed, or in place where offsets are 64-bit
#if SAGA_WIDE_OFFSETS
  {  // 32-bit row offsets in a 64-bit-offset build: widened into a copy, the rest in place
    std::vector<std::int32_t> rp32(h.row_ptr.begin(), h.row_ptr.end());
    const CsrMatrix X = CsrMatrix::view(n, n, static_cast<std::int32_t>(nnz), rp32.data(), h.col.data(), h.val.data(),
                                        Space::host);
    test::check_equal(to_host_csr(X), h, 0.0);
    CHECK(X.row_ptr().owns());
    CHECK(X.col().data() == h.col.data());
    rp32[n] = static_cast<std::int32_t>(nnz) + 1;
    CHECK_THROWS_WITH_AS(CsrMatrix::view(n, n, static_cast<std::int32_t>(nnz), rp32.data(), h.col.data(),
                                         h.val.data(), Space::host),
                         doctest::Contains("row_ptr"), InputError);
  }
#endif
  col[11] = -2;
  CHECK_THROWS_WITH_AS(CsrMatrix::view(std::int64_t{n}, std::int64_t{n}, std::int64_t{nnz}, rp.data(), col.data(),
                                       h.val.data(), Space::host),
                       doctest::Contains("col[11]"), InputError);
  CHECK_THROWS_AS(CsrMatrix::view(std::int64_t{n}, std::int64_t{n}, std::int64_t{3000000000LL}, rp.data(), col.data(),
                                  h.val.data(), Space::host),
                  InputError);
  CHECK_THROWS_WITH_AS(CsrMatrix::view(n, n, nnz - 1, h.row_ptr.data(), h.col.data(), h.val.data(), Space::host),
                       doctest::Contains("row_ptr"), InputError);
}
