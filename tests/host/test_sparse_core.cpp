// Host sparse core against Eigen and hand-computed cases.
#include <sstream>

#include "sparse/csr_ops.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/scan.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"
#include "sparse/transpose.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("scan: int32 counts summed into 64-bit offsets past 2^31 (hand case and random)") {
  // The offsets of a 64-bit-offset build: three rows of 2^30 entries each pass 2^31.
  const Array<std::int32_t> big = Array<std::int32_t>::from_vector({1 << 30, 0, 1 << 30, 1 << 30, 7}, Space::host);
  Array<std::int64_t> out(6, Space::host);
  exclusive_scan_total(big, out);
  CHECK(out.to_vector() == std::vector<std::int64_t>{0, 1LL << 30, 1LL << 30, 2LL << 30, 3LL << 30, (3LL << 30) + 7});
  std::mt19937_64 rng(fresh_seed());
  // At least 2048 counts of mean 2^21: the total passes 2^31 by ~40 standard deviations (1000 counts
  // stayed below it where fewer than ~1024 were drawn: the check below failed in a few runs in a hundred).
  std::vector<std::int32_t> counts(2048 + rng() % 1000);
  for (auto& c : counts) c = static_cast<std::int32_t>(rng() % (1u << 22));
  Array<std::int64_t> sums(counts.size() + 1, Space::host);
  exclusive_scan_total(Array<std::int32_t>::from_vector(counts, Space::host), sums);
  std::int64_t s = 0;
  const auto got = sums.to_vector();
  for (std::size_t k = 0; k < counts.size(); ++k) {
    REQUIRE(got[k] == s);
    s += counts[k];
  }
  CHECK(got.back() == s);
  CHECK(s > (std::int64_t{1} << 31));  // past the 32-bit range
  Array<std::int64_t> short_out(3, Space::host);
  CHECK_THROWS_AS(exclusive_scan_total(big, short_out), Error);  // the output must hold n + 1
}

TEST_CASE("checked_offset: a count past the build's offsets is an error naming it, and the 64-bit build") {
  CHECK(checked_offset(0, "nothing") == 0);
  CHECK(checked_offset(2147483647, "the largest 32-bit count") == 2147483647);
  CHECK_THROWS_WITH_AS(checked_offset(-1, "a negative count"), doctest::Contains("a negative count has -1 entries"),
                       InputError);
#if SAGA_WIDE_OFFSETS
  CHECK(checked_offset(std::int64_t{1} << 33, "3D 7-pt N = 1100") == (std::int64_t{1} << 33));
#else
  // 3D 7-pt N = 700 (2.40G nonzeros) in the default build: the message names
  // the matrix, its size and how to build for it.
  const std::int64_t n = 7LL * 700 * 700 * 700 - 6LL * 700 * 700;
  const std::string names = fmt::format("Poisson matrix has {} entries, more than the 32-bit offsets", n);
  CHECK_THROWS_WITH_AS(checked_offset(n, "Poisson matrix"), doctest::Contains(names.c_str()), InputError);
  CHECK_THROWS_WITH_AS(checked_offset(n, "Poisson matrix"), doctest::Contains("-DSAGA_OFFSET_BITS=64"), InputError);
  CHECK_THROWS_AS(checked_offset(n, "Poisson matrix"), OffsetOverflow);  // the setup's blocks catch it
#endif
}

TEST_CASE("COO to CSR sums duplicates and sorts columns (hand case)") {
  CooMatrix coo;
  coo.rows = 3;
  coo.cols = 4;
  coo.row = Array<index_t>::from_vector({2, 0, 0, 2, 0, 1}, Space::host);
  coo.col = Array<index_t>::from_vector({1, 3, 0, 1, 3, 2}, Space::host);
  coo.val = Array<double>::from_vector({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, Space::host);
  const HostCsr h = to_host_csr(coo_to_csr(coo));
  CHECK(h.row_ptr == std::vector<offset_t>{0, 2, 3, 4});
  CHECK(h.col == std::vector<index_t>{0, 3, 2, 1});
  CHECK(h.val == std::vector<double>{3.0, 7.0, 6.0, 5.0});
}

TEST_CASE("COO out-of-range entry is an error naming it") {
  CooMatrix coo;
  coo.rows = 2;
  coo.cols = 2;
  coo.row = Array<index_t>::from_vector({0, 2}, Space::host);
  coo.col = Array<index_t>::from_vector({0, 0}, Space::host);
  coo.val = Array<double>::from_vector({1.0, 1.0}, Space::host);
  CHECK_THROWS_WITH_AS(coo_to_csr(coo), doctest::Contains("COO entry 1 = (2, 0)"), InputError);
}

TEST_CASE("CSR to COO and back is the identity on random matrices") {
  std::mt19937_64 rng(fresh_seed());
  const HostCsr h = random_csr({}, rng);
  const CsrMatrix A = from_host_csr(h, Space::host);
  check_equal(to_host_csr(coo_to_csr(csr_to_coo(A))), h, 0.0);
}

TEST_CASE("validate() reports each broken invariant") {
  auto make = [](std::vector<offset_t> rp, std::vector<index_t> c) {
    HostCsr h{2, 3, std::move(rp), std::move(c), {}};
    h.val.assign(h.col.size(), 1.0);
    return from_host_csr(h, Space::host);
  };
  CHECK_NOTHROW(make({0, 1, 2}, {0, 2}).validate());
  CHECK_THROWS_WITH(make({0, 2, 1}, {0, 2}).validate(), doctest::Contains("decreases"));
  CHECK_THROWS_WITH(make({0, 1, 2}, {0, 3}).validate(), doctest::Contains("outside"));
  CHECK_THROWS_WITH(make({0, 2, 2}, {2, 1}).validate(), doctest::Contains("not strictly increasing"));
  CHECK_THROWS_WITH(make({1, 1, 2}, {0, 1}).validate(), doctest::Contains("row_ptr[0]"));
  CHECK_THROWS_WITH(make({0, 1, 1}, {0, 1}).validate(), doctest::Contains("row_ptr[rows] = 1 but there are 2"));
  CHECK_THROWS_WITH(make({0, 3, 2}, {0, 1}).validate(), doctest::Contains("row 0 spans entries [0, 3) outside the 2"));
  CHECK_THROWS_WITH(make({0, 1, 3}, {0, 1}).validate(), doctest::Contains("row_ptr[rows] = 3 but there are 2"));
}

TEST_CASE("transpose equals Eigen's on random rectangular matrices") {
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 5; ++t) {
    RandomSpec s;
    s.rows = 20 + 17 * t;
    s.cols = 60 - 9 * t;
    const HostCsr h = random_csr(s, rng);
    const HostCsr at = to_host_csr(transpose(from_host_csr(h, Space::host)));
    check_equal(at, from_eigen(EigenCsr(to_eigen(h).transpose())), 0.0);
  }
}

TEST_CASE("SpMV equals Eigen, with alpha and beta") {
  std::mt19937_64 rng(fresh_seed());
  const HostCsr h = random_csr({}, rng);
  const CsrMatrix A = from_host_csr(h, Space::host);
  std::uniform_real_distribution<double> U(-1, 1);
  Eigen::VectorXd x(h.cols), y(h.rows);
  for (auto& v : x) v = U(rng);
  for (auto& v : y) v = U(rng);
  Vector xs = Vector::from_vector(std::vector<double>(x.data(), x.data() + x.size()), Space::host);
  Vector ys = Vector::from_vector(std::vector<double>(y.data(), y.data() + y.size()), Space::host);
  spmv(1.5, A, xs, -0.5, ys);
  const Eigen::VectorXd ref = 1.5 * (to_eigen(h) * x) - 0.5 * y;
  CHECK(max_rel_diff(ys.to_vector(), std::vector<double>(ref.data(), ref.data() + ref.size())) < 1e-14);
  Vector bad(3, Space::host);
  CHECK_THROWS_WITH_AS(spmv(A, bad, ys), doctest::Contains("x has 3 entries"), InputError);
}

TEST_CASE("SpGEMM (Gustavson) equals Eigen's product on random rectangular matrices") {
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 6; ++t) {
    RandomSpec sa, sb;
    sa.rows = 30 + 11 * t;
    sa.cols = sb.rows = 25 + 7 * t;
    sb.cols = 40 - 3 * t;
    sa.density = 0.08;
    sb.density = 0.12;
    const HostCsr a = random_csr(sa, rng), b = random_csr(sb, rng);
    SpgemmStats st;
    const HostCsr c = to_host_csr(spgemm(from_host_csr(a, Space::host), from_host_csr(b, Space::host), {}, &st));
    EigenCsr ref = to_eigen(a) * to_eigen(b);
    const HostCsr r = from_eigen(ref);
    // Eigen drops structural entries whose products cancel exactly; random
    // values make that impossible, so structures must agree.
    check_equal(c, r, 1e-13);
    CHECK(st.nnz_c == static_cast<std::int64_t>(c.col.size()));
    std::int64_t products = 0;
    for (index_t k : a.col) products += b.row_ptr[k + 1] - b.row_ptr[k];
    CHECK(st.products == products);
  }
}

TEST_CASE("SpGEMM with a zero result and empty operands") {
  // A uses only columns that are empty rows of B: the product is all zero.
  HostCsr a{2, 3, {0, 1, 2}, {0, 2}, {1.0, 2.0}};
  HostCsr b{3, 2, {0, 0, 1, 1}, {1}, {5.0}};
  const HostCsr c = to_host_csr(spgemm(from_host_csr(a, Space::host), from_host_csr(b, Space::host)));
  CHECK(c.row_ptr == std::vector<offset_t>{0, 0, 0});
  CHECK(c.col.empty());
  const CsrMatrix z = CsrMatrix::zeros(4, 3, Space::host);
  CHECK(spgemm(z, from_host_csr(b, Space::host)).nnz() == 0);
  CHECK_THROWS_WITH_AS(spgemm(z, z), doctest::Contains("inner dimensions"), InputError);
}

TEST_CASE("vector operations") {
  std::mt19937_64 rng(fresh_seed());
  std::uniform_real_distribution<double> U(-1, 1);
  const std::size_t n = 10007;
  std::vector<double> a(n), b(n);
  for (auto& v : a) v = U(rng);
  for (auto& v : b) v = U(rng);
  Vector x = Vector::from_vector(a, Space::host), y = Vector::from_vector(b, Space::host);
  long double ref = 0;
  for (std::size_t i = 0; i < n; ++i) ref += static_cast<long double>(a[i]) * b[i];
  CHECK(std::abs(dot(x, y) - static_cast<double>(ref)) < 1e-12);
  CHECK(dot(x, y) == dot(x, y));
  axpby(2.0, x, -1.0, y);
  CHECK(y.get(17) == doctest::Approx(2 * a[17] - b[17]));
  scale(0.5, y);
  CHECK(y.get(3) == doctest::Approx((2 * a[3] - b[3]) / 2));
  Vector z(n, Space::host);
  multiply(x, x, z);
  CHECK(z.get(5) == doctest::Approx(a[5] * a[5]));
  Vector w = Vector::from_vector(b, Space::host);
  add_scaled_product(3.0, x, x, w);
  CHECK(w.get(9) == doctest::Approx(b[9] + 3 * a[9] * a[9]));
  fill(z, 2.0);
  CHECK(norm2(z) == doctest::Approx(2.0 * std::sqrt(double(n))));
  CHECK(all_finite(z));
  z[4] = std::nan("");
  CHECK_FALSE(all_finite(z));
  Vector short_v(3, Space::host);
  CHECK_THROWS_AS(dot(x, short_v), InputError);
}

TEST_CASE("Matrix Market round trip is exact") {
  std::mt19937_64 rng(fresh_seed());
  const HostCsr h = random_csr({}, rng);
  std::stringstream ss;
  write_matrix_market(from_host_csr(h, Space::host), ss);
  check_equal(to_host_csr(read_matrix_market(ss)), h, 0.0);
}

TEST_CASE("Matrix Market symmetric, pattern, integer and comments") {
  std::stringstream ss(
      "%%MatrixMarket matrix coordinate integer symmetric\n% a comment\n\n3 3 4\n1 1 4\n2 1 -1\n3 3 2\n% mid\n3 2 "
      "-7\n");
  const HostCsr h = to_host_csr(read_matrix_market(ss));
  CHECK(h.row_ptr == std::vector<offset_t>{0, 2, 4, 6});
  CHECK(h.col == std::vector<index_t>{0, 1, 0, 2, 1, 2});
  CHECK(h.val == std::vector<double>{4, -1, -1, -7, -7, 2});
  std::stringstream p("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n");
  const HostCsr hp = to_host_csr(read_matrix_market(p));
  CHECK(hp.val == std::vector<double>{1, 1});
}

TEST_CASE("Matrix Market errors name the line") {
  auto err = [](const std::string& text) {
    std::stringstream ss(text);
    try {
      read_matrix_market(ss, "m.mtx");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string H = "%%MatrixMarket matrix coordinate real general\n";
  CHECK(err("") == "m.mtx: empty file (expected a %%MatrixMarket header)");
  CHECK(err("hello\n").find("m.mtx:1: missing %%MatrixMarket header") == 0);
  CHECK(err("%%MatrixMarket matrix coordinate complex general\n").find("m.mtx:1: unsupported field 'complex'") == 0);
  CHECK(err("%%MatrixMarket matrix coordinate real hermitian\n").find("m.mtx:1: unsupported symmetry") == 0);
  CHECK(err("%%MatrixMarket vector coordinate real general\n").find("m.mtx:1: unsupported object") == 0);
  CHECK(err(H).find("missing size line") != std::string::npos);
  CHECK(err(H + "2 2\n").find("m.mtx:2: malformed size line") == 0);
  CHECK(err(H + "2 2 1\n1 x 1\n").find("m.mtx:3: malformed entry") == 0);
  CHECK(err(H + "2 2 1\n1 3 1\n").find("m.mtx:3: entry (1, 3) outside") == 0);
  CHECK(err(H + "2 2 1\n0 1 1\n").find("m.mtx:3: entry (0, 1) outside") == 0);
  CHECK(err(H + "2 2 1\n1 1 abc\n").find("m.mtx:3: malformed number 'abc'") == 0);
  CHECK(err(H + "2 2 1\n1 1 1.5e\n").find("m.mtx:3: malformed number") == 0);
  CHECK(err(H + "2 2 1\n1 1 nan\n").find("m.mtx:3: value 'nan' is not finite") == 0);
  CHECK(err(H + "2 2 1\n1 1 1 9\n").find("m.mtx:3: unexpected trailing text") == 0);
  CHECK(err(H + "2 2 2\n1 1 1\n").find("file ends after 1 of 2 entries") != std::string::npos);
  CHECK(err(H + "2 2 1\n1 1 1\n2 2 2\n").find("m.mtx:4: more entries") == 0);
  CHECK(err("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n").find("upper-triangle") !=
        std::string::npos);
  CHECK(err("%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n").find("must be square") != std::string::npos);
  CHECK_THROWS_WITH_AS(read_matrix_market("/nonexistent/x.mtx"), doctest::Contains("cannot open"), InputError);
}

TEST_CASE("analysis cache is dropped when the matrix changes") {
  CsrMatrix A = from_host_csr(HostCsr{1, 1, {0, 1}, {0}, {2.0}}, Space::host);
  int built = 0;
  auto make = [&](const CsrMatrix& M) {
    ++built;
    return M.nnz();
  };
  CHECK(A.analysis<offset_t>("count", make) == 1);
  CHECK(A.analysis<offset_t>("count", make) == 1);
  CHECK(built == 1);
  A.mutable_val()[0] = 3.0;
  CHECK_FALSE(A.has_analysis("count"));
  A.analysis<offset_t>("count", make);
  CHECK(built == 2);
  // drop_analysis: one key of either kind, the others kept.
  A.structural_analysis<offset_t>("rows", [](const CsrMatrix& M) { return offset_t{M.rows()}; });
  A.drop_analysis("count");
  CHECK_FALSE(A.has_analysis("count"));
  CHECK(A.has_analysis("rows"));
  A.drop_analysis("rows");
  CHECK_FALSE(A.has_analysis("rows"));
  A.drop_analysis("none");  // nothing there: nothing happens
}

TEST_CASE("random_vector is the sequential splitmix64 stream, computed per entry") {
  const std::uint64_t seed = fresh_seed();
  std::uint64_t s = seed;
  std::vector<double> expect;
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    expect.push_back(static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53);
  }
  CHECK(random_vector(1000, seed, Space::host).to_vector() == expect);
}

TEST_CASE("row_block, stack_rows and column_span: hand case, random round trips, bad ranges") {
  // [1 0 2 0]
  // [0 0 0 0]
  // [0 3 4 0]
  // [0 0 5 6]
  const HostCsr h{4, 4, {0, 2, 2, 4, 6}, {0, 2, 1, 2, 2, 3}, {1, 2, 3, 4, 5, 6}};
  const CsrMatrix A = from_host_csr(h, Space::host);
  const HostCsr b = to_host_csr(row_block(A, 1, 4, 1, 3));  // rows 1..3, columns 1..3 as 0..2
  CHECK(b.rows == 3);
  CHECK(b.cols == 3);
  CHECK(b.row_ptr == std::vector<offset_t>{0, 0, 2, 4});
  CHECK(b.col == std::vector<index_t>{0, 1, 1, 2});
  CHECK(b.val == std::vector<double>{3, 4, 5, 6});
  CHECK_THROWS_AS(row_block(A, 0, 2, 1, 3), InputError);  // row 0 has column 0
  CHECK_THROWS_AS(row_block(A, 2, 4, 0, 3, true), InputError);  // a view too: row 3 has column 3
  CHECK_THROWS_AS(row_block(A, 3, 2), InputError);
  CHECK(column_span(A, 0, 4) == std::pair<index_t, index_t>{0, 3});
  CHECK(column_span(A, 1, 3) == std::pair<index_t, index_t>{1, 2});
  CHECK(column_span(A, 1, 2) == std::pair<index_t, index_t>{0x7fffffff, -1});  // an empty row
  CHECK(column_span(A, 2, 2) == std::pair<index_t, index_t>{0x7fffffff, -1});  // no rows
  const CsrMatrix shared = row_block(A, 2, 4, 0, -1, true);  // a view of A's entries
  CHECK(shared.col().data() == A.col().data() + 2);
  check_equal(to_host_csr(shared), to_host_csr(row_block(A, 2, 4)), 0.0);

  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 5; ++t) {
    RandomSpec spec;
    spec.rows = 30 + t * 17;
    spec.cols = 25 + t * 3;
    const HostCsr r = random_csr(spec, rng);
    const CsrMatrix R = from_host_csr(r, Space::host);
    std::vector<CsrMatrix> blocks;
    const index_t cuts[] = {0, 0, r.rows / 3, r.rows / 3 + 1, r.rows};  // an empty block too
    for (int k = 0; k + 1 < 5; ++k) blocks.push_back(row_block(R, cuts[k], cuts[k + 1]));
    check_equal(to_host_csr(stack_rows(std::move(blocks))), r, 0.0);
  }
}

TEST_CASE("row_span_of_columns and column_block give the blocks of a transpose without it") {
  // [1 0 2 0]
  // [0 0 0 0]
  // [0 3 4 0]
  // [0 0 5 6]
  const HostCsr h{4, 4, {0, 2, 2, 4, 6}, {0, 2, 1, 2, 2, 3}, {1, 2, 3, 4, 5, 6}};
  const CsrMatrix A = from_host_csr(h, Space::host);
  CHECK(row_span_of_columns(A, 0, 4) == std::pair<index_t, index_t>{0, 3});
  CHECK(row_span_of_columns(A, 1, 2) == std::pair<index_t, index_t>{2, 2});
  CHECK(row_span_of_columns(A, 2, 3) == std::pair<index_t, index_t>{0, 3});
  CHECK(row_span_of_columns(A, 3, 3) == std::pair<index_t, index_t>{0x7fffffff, -1});  // no columns
  const HostCsr c = to_host_csr(column_block(A, 1, 3));  // columns 1..2 as 0..1
  CHECK(c.rows == 4);
  CHECK(c.cols == 2);
  CHECK(c.row_ptr == std::vector<offset_t>{0, 1, 1, 3, 4});
  CHECK(c.col == std::vector<index_t>{1, 0, 1, 1});
  CHECK(c.val == std::vector<double>{2, 3, 4, 5});
  CHECK_THROWS_AS(column_block(A, 2, 5), InputError);
  CHECK_THROWS_AS(row_span_of_columns(A, 3, 1), InputError);
  // Random matrices with empty rows and columns: rows [c0, c1) of the
  // transpose, restricted to their column span, equal the transpose of the
  // column block of that row span, exactly.
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 6; ++t) {
    RandomSpec spec;
    spec.rows = 40 + t * 13;
    spec.cols = 30 + t * 7;
    const CsrMatrix R = from_host_csr(random_csr(spec, rng), Space::host);
    const CsrMatrix Rt = transpose(R);
    for (const auto& range : {std::pair<index_t, index_t>{0, spec.cols}, {3, 9}, {spec.cols / 2, spec.cols},
                              {5, 5}, {spec.cols - 1, spec.cols}}) {
      const index_t c0 = range.first, c1 = range.second;  // named, not bound: CAPTURE is a lambda
      CAPTURE(c0);
      CAPTURE(c1);
      const auto span = row_span_of_columns(R, c0, c1);
      CHECK(span == column_span(Rt, c0, c1));
      if (span.second < span.first) continue;
      const index_t f0 = span.first, f1 = span.second;
      check_equal(to_host_csr(transpose(column_block(row_block(R, f0, f1 + 1, 0, -1, true), c0, c1))),
                  to_host_csr(row_block(Rt, c0, c1, f0, f1 + 1 - f0)), 0.0);
    }
    for (int blocks : {2, 3, 7, spec.cols, spec.cols + 5}) {  // empty blocks too (the random matrix has empty columns)
      CAPTURE(blocks);
      check_equal(to_host_csr(transpose_in_blocks(R, blocks)), to_host_csr(Rt), 0.0);
    }
  }
}
