// The CUDA sparse layer against the host one on the same random inputs:
// structure exactly, values to 1e-12 relative.
#include <cstring>
#include <set>

#include "core/executor.hpp"
#include "problems/rhs.hpp"
#include "problems/structured.hpp"
#include "sparse/coo.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/scan.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"
#include "sparse/transpose.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
std::vector<HostCsr> random_pairs(std::mt19937_64& rng, int t) {
  RandomSpec sa, sb;
  sa.rows = 40 + 31 * t;
  sa.cols = sb.rows = 35 + 13 * t;
  sb.cols = 50 + 5 * t;
  sa.density = 0.07;
  sb.density = 0.1;
  return {random_csr(sa, rng), random_csr(sb, rng)};
}
}  // namespace

TEST_CASE("GPU structured generators equal the host ones") {
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt})
    for (index_t N : {1, 4, 17}) {
      const CsrMatrix d = poisson(s, N, Space::device);
      CHECK(d.space() == Space::device);
      check_equal(to_host_csr(d), to_host_csr(poisson(s, N, Space::host)), 0.0);
    }
}

TEST_CASE("GPU scan of int32 counts into 64-bit offsets equals host past 2^31") {
  std::mt19937_64 rng(fresh_seed());
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5000}, std::size_t{3000000}}) {
    CAPTURE(n);
    std::vector<std::int32_t> counts(n);
    for (auto& c : counts) c = static_cast<std::int32_t>(rng() % (n > 1000000 ? 4096u : (1u << 30)));
    const Array<std::int32_t> h = Array<std::int32_t>::from_vector(counts, Space::host);
    Array<std::int64_t> want(n + 1, Space::host), got(n + 1, Space::device);
    exclusive_scan_total(h, want);
    exclusive_scan_total(h.to(Space::device), got);
    CHECK(got.to_vector() == want.to_vector());
    if (n == 5000) CHECK(want.get(n) > (std::int64_t{1} << 31));  // the 32-bit range is passed
  }
}

TEST_CASE("GPU COO to CSR equals host (duplicates, unsorted, empty rows)") {
  std::mt19937_64 rng(fresh_seed());
  std::uniform_int_distribution<index_t> R(0, 99), C(0, 70);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<index_t> r(5000), c(5000);
  std::vector<double> v(5000);
  for (std::size_t k = 0; k < r.size(); ++k) {
    r[k] = R(rng) / 2 * 2;  // odd rows stay empty
    c[k] = C(rng);
    v[k] = U(rng);
  }
  CooMatrix h{100, 71, Array<index_t>::from_vector(r, Space::host), Array<index_t>::from_vector(c, Space::host),
              Array<double>::from_vector(v, Space::host)};
  CooMatrix d{100, 71, h.row.to(Space::device), h.col.to(Space::device), h.val.to(Space::device)};
  check_equal(to_host_csr(coo_to_csr(d)), to_host_csr(coo_to_csr(h)), 1e-12);
  d.row = Array<index_t>::from_vector({0, 100}, Space::device);
  d.col = Array<index_t>::from_vector({0, 0}, Space::device);
  d.val = Array<double>::from_vector({1, 1}, Space::device);
  CHECK_THROWS_WITH_AS(coo_to_csr(d), doctest::Contains("COO entry 1 = (100, 0)"), InputError);
  const CsrMatrix A = coo_to_csr(h);
  check_equal(to_host_csr(coo_to_csr(csr_to_coo(A.to(Space::device)))), to_host_csr(A), 0.0);
}

TEST_CASE("GPU transpose equals host") {
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 4; ++t) {
    const HostCsr h = random_pairs(rng, t)[0];
    check_equal(to_host_csr(transpose(from_host_csr(h, Space::device))),
                to_host_csr(transpose(from_host_csr(h, Space::host))), 0.0);
  }
  const CsrMatrix P = poisson(Stencil::fe3d_27pt, 9, Space::host);
  check_equal(to_host_csr(transpose(P.to(Space::device))), to_host_csr(transpose(P)), 0.0);
}

TEST_CASE("GPU transpose: one cooperative kernel for small matrices, the radix sort beyond; both the host's") {
  // Up to 32 tiles of 4096 entries and 4096 columns take the one kernel
  // (sparse/cuda/transpose_cuda.cu): sizes on both sides of each bound,
  // empty rows and columns, and values stored in single precision.
  std::mt19937_64 rng(fresh_seed());
  struct Shape {
    index_t rows, cols;
    std::int64_t nnz;
  };
  const std::vector<Shape> shapes = {{1, 1, 0},         {5, 3, 1},          {300, 200, 4096},    {300, 200, 4097},
                                     {19353, 2082, 53341}, {9000, 4096, 131072}, {9000, 4097, 60000},
                                     {20000, 3000, 131073}, {70000, 20000, 200000}};
  for (const Shape& sh : shapes) {
    CAPTURE(sh.rows);
    CAPTURE(sh.cols);
    CAPTURE(sh.nnz);
    // nnz distinct (row, column) pairs, rows sorted; some rows and columns stay empty.
    std::uniform_int_distribution<index_t> R(0, sh.rows - 1), C(0, sh.cols - 1);
    std::set<std::pair<index_t, index_t>> pairs;
    while (static_cast<std::int64_t>(pairs.size()) < sh.nnz) pairs.insert({R(rng), C(rng)});
    HostCsr h;
    h.rows = sh.rows;
    h.cols = sh.cols;
    h.row_ptr.assign(static_cast<std::size_t>(sh.rows) + 1, 0);
    std::uniform_real_distribution<double> U(-1, 1);
    for (const auto& [r, c] : pairs) {
      ++h.row_ptr[r + 1];
      h.col.push_back(c);
      h.val.push_back(U(rng));
    }
    for (index_t i = 0; i < sh.rows; ++i) h.row_ptr[i + 1] += h.row_ptr[i];
    const CsrMatrix Ah = from_host_csr(h, Space::host);
    const HostCsr want = to_host_csr(transpose(Ah));
    check_equal(to_host_csr(transpose(Ah.to(Space::device))), want, 0.0);
    CsrMatrix As = Ah.to(Space::device);
    As.store_values_single();
    const HostCsr got = to_host_csr(transpose(As));
    REQUIRE(got.row_ptr == want.row_ptr);
    REQUIRE(got.col == want.col);
    for (std::size_t k = 0; k < want.val.size(); ++k)
      REQUIRE(got.val[k] == static_cast<double>(static_cast<float>(want.val[k])));
  }
}

TEST_CASE("GPU SpMV (csr_vector and cuSPARSE) equals host") {
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 4; ++t) {
    const HostCsr h = random_pairs(rng, t)[0];
    const CsrMatrix Ah = from_host_csr(h, Space::host), Ad = Ah.to(Space::device);
    const Vector xh = random_vector(h.cols, rng(), Space::host);
    const Vector y0 = random_vector(h.rows, rng(), Space::host);
    Vector yh = y0.clone();
    spmv(0.7, Ah, xh, 1.3, yh);
    for (const std::string alg : {"csr_vector", "cusparse"}) {
      Vector yd = y0.to(Space::device);
      spmv(0.7, Ad, xh.to(Space::device), 1.3, yd, alg);
      CHECK(max_rel_diff(yd.to_vector(), yh.to_vector()) < 1e-12);
    }
  }
  // beta = 0 ignores NaN in y.
  const CsrMatrix P = poisson(Stencil::fd3d_7pt, 12, Space::device);
  Vector y = Vector::from_vector(std::vector<double>(P.rows(), std::nan("")), Space::device);
  spmv(P, ones(P.cols(), Space::device), y);
  CHECK(all_finite(y));
}

TEST_CASE("GPU ESC SpGEMM in row slices equals one slice") {
  const CsrMatrix A = poisson(Stencil::fe3d_27pt, 12, Space::device);
  const HostCsr ref = to_host_csr(spgemm(A.to(Space::host), A.to(Space::host)));
  SpgemmStats st;
  // 200000 bytes force many slices
  check_equal(to_host_csr(spgemm(A, A, {"esc", Options().set("memory_budget_mib", 200000.0 / 1048576)}, &st)), ref,
              1e-12);
  CHECK(st.slices > 5);
  // one byte: one row per slice
  check_equal(to_host_csr(spgemm(A, A, {"esc", Options().set("memory_budget_mib", 1.0 / 1048576)}, &st)), ref, 1e-12);
  CHECK(st.slices == A.rows());
}

TEST_CASE("GPU SpGEMM as the first use of an executor's memory pool") {
  // The SpGEMM budgets read the free memory from the pool's last exact query
  // (device::available_memory_recent); on a pool with none yet that made the
  // query under the lock the query itself takes, and the product never
  // returned (an SpGEMM before any setup in a fresh process, as the benchmark's).
  const auto exec = Executor::cuda();  // a memory pool of its own, not queried yet
  ExecutorScope scope(exec);
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 30, Space::device);
  const HostCsr ref = to_host_csr(spgemm(A.to(Space::host), A.to(Space::host)));
  check_equal(to_host_csr(spgemm(A, A, {"esc"})), ref, 1e-12);
  check_equal(to_host_csr(spgemm(A, A)), ref, 1e-12);
}

TEST_CASE("GPU SpGEMM zero result and Poisson products") {
  HostCsr a{2, 3, {0, 1, 2}, {0, 2}, {1.0, 2.0}};
  HostCsr b{3, 2, {0, 0, 1, 1}, {1}, {5.0}};
  const HostCsr c = to_host_csr(spgemm(from_host_csr(a, Space::device), from_host_csr(b, Space::device)));
  CHECK(c.row_ptr == std::vector<offset_t>{0, 0, 0});
  CHECK(c.col.empty());
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    const CsrMatrix A = poisson(s, 10, Space::host);
    check_equal(to_host_csr(spgemm(A.to(Space::device), A.to(Space::device))), to_host_csr(spgemm(A, A)), 1e-12);
  }
}

TEST_CASE("GPU vector operations equal host") {
  std::mt19937_64 rng(fresh_seed());
  const std::size_t n = sized<std::size_t>(1000003, 100003);
  const Vector a = random_vector(n, rng(), Space::host), b = random_vector(n, rng(), Space::host);
  const Vector da = a.to(Space::device), db = b.to(Space::device);
  CHECK(random_vector(n, 12345, Space::device).to_vector() == random_vector(n, 12345, Space::host).to_vector());
  CHECK(std::abs(dot(da, db) - dot(a, b)) < 1e-12 * std::abs(dot(a, b)));
  CHECK(dot(da, db) == dot(da, db));  // deterministic
  Vector yh = b.clone(), yd = db.clone();
  axpby(0.3, a, -2.0, yh);
  axpby(0.3, da, -2.0, yd);
  CHECK(max_rel_diff(yd.to_vector(), yh.to_vector()) < 1e-15);
  scale(1.7, yh);
  scale(1.7, yd);
  add_scaled_product(0.4, a, b, yh);
  add_scaled_product(0.4, da, db, yd);
  CHECK(max_rel_diff(yd.to_vector(), yh.to_vector()) < 1e-15);
  Vector zh(n, Space::host), zd(n, Space::device);
  multiply(a, b, zh);
  multiply(da, db, zd);
  CHECK(zd.to_vector() == zh.to_vector());
  CHECK(all_finite(zd));
  fill(zd, std::numeric_limits<double>::infinity());
  CHECK_FALSE(all_finite(zd));
}

TEST_CASE("device out-of-memory names the allocation") {
  CHECK_THROWS_WITH_AS(Array<double>(std::size_t(1) << 45, Space::device, "a test buffer"),
                       doctest::Contains("GPU out of memory allocating a test buffer"), DeviceError);
}

TEST_CASE("GPU validate() checks on the device and says what the host says") {
  auto make = [](index_t rows, index_t cols, std::vector<offset_t> rp, std::vector<index_t> c) {
    HostCsr h{rows, cols, std::move(rp), std::move(c), {}};
    h.val.assign(h.col.size(), 1.0);
    return from_host_csr(h, Space::host);
  };
  auto message = [](const CsrMatrix& A) -> std::string {
    try {
      A.validate("A");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::vector<CsrMatrix> broken = [&] {
    std::vector<CsrMatrix> v;
    v.push_back(make(2, 3, {0, 2, 1}, {0, 2}));        // row_ptr decreases
    v.push_back(make(2, 3, {0, 1, 2}, {0, 3}));        // column out of range
    v.push_back(make(2, 3, {0, 2, 2}, {2, 1}));        // not increasing
    v.push_back(make(2, 3, {0, 1, 1}, {0, 1}));        // row_ptr[rows] short of the entries
    v.push_back(make(3, 3, {0, 1, 4, 2}, {0, 1, 2}));  // a row spans past the entries
    v.push_back(make(2, 3, {1, 1, 2}, {0, 1}));        // row_ptr[0]
    return v;
  }();
  for (const CsrMatrix& h : broken) {
    const std::string want = message(h);
    CAPTURE(want);
    CHECK(!want.empty());
    CHECK(message(h.to(Space::device)) == want);
  }
  // A large valid matrix passes, and one bad entry deep inside is found by row.
  std::mt19937_64 rng(fresh_seed());
  RandomSpec s;
  s.rows = 20000;
  s.cols = 3000;
  s.density = 0.004;
  HostCsr h = random_csr(s, rng);
  CHECK_NOTHROW(from_host_csr(h, Space::device).validate("A"));
  const index_t row = static_cast<index_t>(rng() % static_cast<std::uint64_t>(s.rows));
  index_t r = row;
  while (h.row_ptr[r + 1] - h.row_ptr[r] < 2) r = (r + 1) % s.rows;
  std::swap(h.col[h.row_ptr[r]], h.col[h.row_ptr[r] + 1]);
  const std::string want = fmt::format("A: row {} columns not strictly increasing", r);
  CHECK_THROWS_WITH_AS(from_host_csr(h, Space::device).validate("A"), doctest::Contains(want.c_str()), InputError);
}

TEST_CASE("GPU host-device copies: staged through pinned buffers above 4 MB, exact at every size") {
  std::mt19937_64 rng(fresh_seed());
  // doubles: below the staging threshold, at it, across the 8 MB chunks, not a whole chunk
  for (std::size_t n : {std::size_t(1), (std::size_t(4) << 17) - 1, std::size_t(4) << 17, (std::size_t(8) << 17) + 3,
                        (std::size_t(37) << 17) + 5}) {
    CAPTURE(n);
    std::vector<double> h(n);
    for (double& v : h) v = static_cast<double>(rng() >> 11);
    const Vector d = Vector::from_vector(h, Space::device);  // host -> device
    CHECK(d.to_vector() == h);                               // device -> host
    const Vector back = d.to(Space::host);
    CHECK(back.to_vector() == h);
    Vector d2(n, Space::device);
    d2.copy_from_host(back.data(), n);
    CHECK(d2.to_vector() == h);
  }
}

TEST_CASE("GPU first_flagged and inverse_diagonal: the host's index, values and error, bit for bit") {
  std::mt19937_64 rng(fresh_seed());
  // first_flagged: none set, one set anywhere (the last included), several; sizes from 0 past a grid's stride
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, sized<std::size_t>(3000000, 300000)}) {
    CAPTURE(n);
    for (int trial = 0; trial < 4; ++trial) {
      CAPTURE(trial);
      std::vector<std::int32_t> h(n, 0);
      if (n > 0 && trial > 0) {
        const std::size_t hits = trial == 1 ? 1 : 1 + rng() % 50;
        for (std::size_t k = 0; k < hits; ++k) h[trial == 3 && k == 0 ? n - 1 : rng() % n] = 1 + static_cast<int>(rng() % 3);
      }
      const auto host = Array<std::int32_t>::from_vector(h, Space::host);
      const auto device = Array<std::int32_t>::from_vector(h, Space::device);
      const std::int64_t expected = first_flagged(host);
      CHECK(first_flagged(device) == expected);
      CHECK((expected >= 0) == (n > 0 && trial > 0));
    }
  }
  // inverse_diagonal: 1 / a_ii in one pass, double and float values; a bad diagonal names the row and its value
  CsrMatrix A = poisson(Stencil::fe3d_27pt, sized(24, 10), Space::host);
  for (bool single : {false, true}) {
    CAPTURE(single);
    CsrMatrix H = A.clone();
    if (single) H.store_values_single();
    const CsrMatrix D = H.to(Space::device);
    std::vector<double> expected = diagonal(H, true).to_vector();
    for (double& x : expected) x = 1.0 / x;
    const std::vector<double> got = inverse_diagonal(D).to_vector(), host = inverse_diagonal(H).to_vector();
    CHECK(std::memcmp(got.data(), expected.data(), got.size() * sizeof(double)) == 0);
    CHECK(std::memcmp(host.data(), expected.data(), host.size() * sizeof(double)) == 0);
  }
  HostCsr bad = to_host_csr(A);
  const index_t row = static_cast<index_t>(rng() % static_cast<std::uint64_t>(A.rows()));
  CAPTURE(row);
  for (offset_t k = bad.row_ptr[row]; k < bad.row_ptr[row + 1]; ++k)
    if (bad.col[k] == row) bad.val[k] = -2.5;
  const std::string message = fmt::format("diagonal entry of row {} is -2.5", row);
  CHECK_THROWS_WITH_AS(inverse_diagonal(from_host_csr(bad, Space::device)), doctest::Contains(message.c_str()), InputError);
  CHECK_THROWS_WITH_AS(inverse_diagonal(from_host_csr(bad, Space::host)), doctest::Contains(message.c_str()), InputError);
}
