// The diagonal copy's rules and layout (sparse/spmv_diagonals.hpp): which
// matrices take it, and that the product over it (the host model of
// diagonal_rows_kernel) equals the thread bin's sum of each row in CSR order,
// bit for bit, on the seed stencils with random values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "problems/structured.hpp"
#include "sparse/csr.hpp"
#include "sparse/spmv_diagonals.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using saga::test::fresh_seed;

namespace {

// The copy of a host CSR matrix on the offsets of the probe row, or empty
// where some row does not fit (spmv_diagonal_row, as the device kernels).
// The rows-per-SM bound is left out (sms = 1): these matrices are small.
template <class Value>
std::vector<Value> diagonal_copy(const HostCsr& A, const std::vector<Value>& val, std::vector<index_t>& offset) {
  offset_t longest = 0;
  for (index_t r = 0; r < A.rows; ++r) longest = std::max(longest, A.row_ptr[r + 1] - A.row_ptr[r]);
  offset = spmv_diagonals_of(A.rows, static_cast<std::int64_t>(A.col.size()), A.row_ptr.data(), A.col.data(), longest, 1);
  if (offset.empty()) return {};
  const int D = static_cast<int>(offset.size());
  std::vector<Value> diag(static_cast<std::size_t>(A.rows) * D);
  for (index_t r = 0; r < A.rows; ++r)
    if (!spmv_diagonal_row<Value>(r, A.row_ptr.data(), A.col.data(), val.data(), offset.data(), D, diag.data() + r,
                                  A.rows))
      return {};
  return diag;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class Value>
void check_products_equal(const HostCsr& A, const std::vector<Value>& val, std::mt19937_64& rng) {
  std::vector<index_t> offset;
  const std::vector<Value> diag = diagonal_copy(A, val, offset);
  REQUIRE(!diag.empty());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(A.cols);
  for (double& e : x) e = u(rng);
  const auto xf = [&](std::int64_t c) { return x[static_cast<std::size_t>(c)]; };
  std::int64_t pads = 0;
  for (const Value v : diag) pads += v != v;
  CHECK(static_cast<std::int64_t>(diag.size()) - pads == static_cast<std::int64_t>(A.col.size()));  // every entry once
  for (index_t r = 0; r < A.rows; ++r) {
    double ref = 0.0;  // the thread bin's sum: the row's entries in CSR order
    for (offset_t k = A.row_ptr[r]; k < A.row_ptr[r + 1]; ++k) ref += val[k] * x[A.col[k]];
    const double s = spmv_diagonal_row_sum(r, A.rows, diag.data(), offset.data(), static_cast<int>(offset.size()), xf);
    if (!same_bits(s, ref)) {
      CAPTURE(r);
      CHECK(s == ref);
      return;
    }
  }
}

}  // namespace

TEST_CASE("SpMV diagonal copy: which matrices fit (rows, diagonals, fill, probe row)") {
  constexpr int sms = 132;
  constexpr std::int64_t n = std::int64_t{32} * SpmvDiagonals::min_warps_per_sm * sms;  // 84480
  CHECK(spmv_diagonals_fit(n, 7 * n - 100, 7, sms));
  CHECK_FALSE(spmv_diagonals_fit(n - 1, 7 * (n - 1), 7, sms));  // too few rows for the SMs
  CHECK(spmv_diagonals_fit(n - 1, 7 * (n - 1), 7, 16));         // enough for fewer SMs
  CHECK_FALSE(spmv_diagonals_fit(n, 33 * n, 33, sms));          // more diagonals than a copy holds
  CHECK(spmv_diagonals_fit(n, 32 * n, 32, sms));
  CHECK_FALSE(spmv_diagonals_fit(n, 5 * n, 7, sms));  // fill 5/7 < 0.85: the copy would be mostly pads
  CHECK(spmv_diagonals_fit(n, static_cast<std::int64_t>(0.86 * 7 * n), 7, sms));
  CHECK_FALSE(spmv_diagonals_fit(79507, 2048383, 27, sms));  // level 1 of 3D 27-pt N=128: too few rows
  // The probe: the first row of the longest length from the window's start.
  const std::vector<offset_t> ptr{0, 4, 9, 13, 18};
  CHECK(spmv_diagonals_probe(ptr.data(), 4, 5) == 1);
  CHECK(spmv_diagonals_probe(ptr.data(), 1, 5) == -1);
  CHECK(spmv_diagonals_probe(ptr.data(), 4, 6) == -1);
  CHECK(spmv_diagonals_bytes(1000, 7, 4) == 28000);
  // The seed stencils at small N fit, pads included (boundary rows).
  for (const char* name : {"2d5", "2d9", "3d7", "3d27"}) {
    const Stencil s = parse_stencil(name);
    const index_t N = std::string(name).rfind("2d", 0) == 0 ? 300 : 45;
    const std::int64_t rows = poisson_rows(s, N), nnz = poisson_nnz(s, N);
    const int D = name == std::string("2d5") ? 5 : name == std::string("2d9") ? 9 : name == std::string("3d7") ? 7 : 27;
    const std::string stencil = name;
    CAPTURE(stencil);
    CHECK(spmv_diagonals_fit(rows, nnz, D, 132));
  }
}

TEST_CASE("SpMV diagonal copy: the product equals the thread bin's bit for bit (seed stencils, random values)") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (const char* name : {"2d5", "2d9", "3d7", "3d27"}) {
    const std::string stencil = name;
    CAPTURE(stencil);
    const Stencil s = parse_stencil(name);
    const index_t N = std::string(name).rfind("2d", 0) == 0 ? 37 : 15;  // 3D N = 15: 27-pt fill (43/45)^3 > 0.85
    const HostCsr A = to_host_csr(poisson(s, N, Space::host));
    std::vector<double> vd(A.col.size());
    std::vector<float> vf(A.col.size());
    for (std::size_t k = 0; k < vd.size(); ++k) {
      vd[k] = u(rng);
      vf[k] = static_cast<float>(u(rng));
    }
    check_products_equal(A, vd, rng);
    check_products_equal(A, vf, rng);
    check_products_equal(A, A.val, rng);  // the stencil's own values
  }
}

TEST_CASE("SpMV diagonal copy: rows that do not fit are refused (off the diagonals, unsorted, a NaN)") {
  const HostCsr base = to_host_csr(poisson(Stencil::fd2d_5pt, 30, Space::host));
  std::vector<index_t> offset;
  REQUIRE(!diagonal_copy(base, base.val, offset).empty());
  CHECK(offset == std::vector<index_t>{-30, -1, 0, 1, 30});  // from row 451 (row 450 lies on the face x = 0)
  {  // an entry off the diagonals: row 0's column 1 moved to 2 (still ascending); the pattern alone says so too
    HostCsr A = base;
    A.col[A.row_ptr[0] + 1] = 2;
    const std::vector<index_t> five{-30, -1, 0, 1, 30};
    CHECK(diagonal_copy(A, A.val, offset).empty());
    CHECK(offset.empty());
    CHECK_FALSE(spmv_diagonal_row<double>(0, A.row_ptr.data(), A.col.data(), nullptr, five.data(), 5, nullptr, 0));
    CHECK(spmv_diagonal_row<double>(1, A.row_ptr.data(), A.col.data(), nullptr, five.data(), 5, nullptr, 0));
  }
  {  // columns out of order in row 210 (the offsets are still read from row 451)
    HostCsr A = base;
    std::swap(A.col[A.row_ptr[210]], A.col[A.row_ptr[210] + 1]);
    CHECK(diagonal_copy(A, A.val, offset).empty());
  }
  {  // the rows-per-SM bound: 400 rows are too few for one SM's 20 warps
    const HostCsr small = to_host_csr(poisson(Stencil::fd2d_5pt, 20, Space::host));
    CHECK(spmv_diagonals_of(small.rows, static_cast<std::int64_t>(small.col.size()), small.row_ptr.data(),
                            small.col.data(), 5, 1)
              .empty());
  }
  {  // a NaN value would read as a pad
    HostCsr A = base;
    std::vector<double> v = A.val;
    v[v.size() / 3] = std::nan("");
    CHECK(diagonal_copy(A, v, offset).empty());
  }
  {  // a row holding a repeated column cannot sit on distinct diagonals
    HostCsr A = base;
    A.col[A.row_ptr[100] + 1] = A.col[A.row_ptr[100]];
    CHECK(diagonal_copy(A, A.val, offset).empty());
  }
}
