// The device SpGEMM algorithms against the host Gustavson: the AMG products of
// the seed stencils (A·T fused into P, A·P, Pᵀ(AP)), A·A, power-law matrices
// whose rows overflow a CTA (the long-row path), empty rows, rectangular shapes,
// empty products and row slices; structure exact, values to 1e-12, the same C
// bitwise run after run, and the numeric-only recomputation.
#include <algorithm>

#include "amg/hierarchy.hpp"
#include "core/device.hpp"
#include "app/run.hpp"
#include "problems/structured.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/cuda/spgemm_dense_rows.hpp"
#include "sparse/cuda/spgemm_merge_rows.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {

// Square power-law matrix: row lengths ~ 1/u^1.3 (a few rows with thousands of
// entries), columns uniform, values in [-1, 1]; every row has its diagonal.
HostCsr power_law(index_t n, index_t max_len, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0.0, 1.0);
  std::uniform_int_distribution<index_t> C(0, n - 1);
  HostCsr h{n, n, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) {
    const auto len = std::min<index_t>(max_len, static_cast<index_t>(2.0 / std::pow(U(rng) + 1e-9, 1.3)));
    std::vector<index_t> cols{i};
    for (index_t k = 0; k < len; ++k) cols.push_back(C(rng));
    append_row(h, std::move(cols), rng);
  }
  return h;
}

// The same structure with fresh values.
HostCsr revalue(HostCsr h, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> V(-2.0, 2.0);
  for (double& v : h.val) v = V(rng);
  return h;
}

void check_bitwise(const CsrMatrix& a, const CsrMatrix& b) {
  const HostCsr x = to_host_csr(a), y = to_host_csr(b);
  CHECK(x.row_ptr == y.row_ptr);
  CHECK(x.col == y.col);
  CHECK(x.val == y.val);
}

// Every device algorithm, and binned with each row contraction.
std::vector<Component> device_algorithms() {
  std::vector<Component> v;
  for (const std::string& name : spgemm_registry().names(Space::device)) v.emplace_back(name);
  v.emplace_back("binned", Options().set("rows", "sort"));
  v.emplace_back("binned", Options().set("rows", "hash"));
  v.emplace_back("binned", Options().set("assembly", "direct"));
  // A direct buffer too small for all rows: the rest go through the fill.
  v.emplace_back("binned", Options().set("assembly", "direct").set("memory_budget_mib", 0.002));
  return v;
}
const Component kSorted("binned", Options().set("rows", "sort"));
const Component kHashed("binned", Options().set("rows", "hash"));
const Component kDirect("binned", Options().set("assembly", "direct"));
const Component kRecount("binned", Options().set("hash_columns", "recount"));
const Component kEscLong("binned", Options().set("long_rows", "esc"));
const Component kMergeLong("binned", Options().set("long_rows", "merge"));

// A (rows x k) with every tenth row long (`long_len` entries; the others 1-20)
// and B (k x n) with 1-40 entries a row: rows of A·B with 10^4-10^5 products,
// more than a CTA's bins hold, into n columns.
std::pair<HostCsr, HostCsr> long_row_product(index_t rows, index_t k, index_t n, index_t long_len,
                                             std::mt19937_64& rng) {
  const auto random_rows = [&](index_t m, index_t cols, auto length) {
    HostCsr h{m, cols, {0}, {}, {}};
    std::uniform_int_distribution<index_t> C(0, cols - 1);
    for (index_t i = 0; i < m; ++i) {
      std::vector<index_t> c;
      for (index_t e = length(i); e > 0; --e) c.push_back(C(rng));
      append_row(h, std::move(c), rng);
    }
    return h;
  };
  const HostCsr a = random_rows(rows, k, [&](index_t i) {
    return i % 10 == 0 ? long_len + static_cast<index_t>(rng() % 1000) : 1 + static_cast<index_t>(rng() % 20);
  });
  const HostCsr b = random_rows(k, n, [&](index_t) { return 1 + static_cast<index_t>(rng() % 40); });
  return {a, b};
}

// Random A (rows x k) and B (k x n) of product number t: shapes and
// densities growing with t, t dense rows of A (long expansions).
std::pair<HostCsr, HostCsr> random_product(int t, std::mt19937_64& rng) {
  RandomSpec sa, sb;
  sa.rows = 30 + 57 * t;
  sa.cols = sb.rows = 20 + 41 * t;
  sb.cols = 10 + 73 * t;
  sa.density = 0.02 * (t + 1);
  sb.density = 0.15;
  sa.long_rows = t;
  HostCsr a = random_csr(sa, rng);
  return {std::move(a), random_csr(sb, rng)};
}

// h with the rows that `drop` selects emptied.
template <class Drop>
HostCsr without_rows(const HostCsr& h, Drop drop) {
  HostCsr e{h.rows, h.cols, {0}, {}, {}};
  for (index_t i = 0; i < h.rows; ++i) {
    if (!drop(i))
      for (offset_t q = h.row_ptr[i]; q < h.row_ptr[i + 1]; ++q) {
        e.col.push_back(h.col[q]);
        e.val.push_back(h.val[q]);
      }
    e.row_ptr.push_back(static_cast<offset_t>(e.col.size()));
  }
  return e;
}

}  // namespace

TEST_CASE("GPU SpGEMM algorithms equal host Gustavson on random, rectangular and empty products") {
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 6; ++t) {
    const auto [a, b] = random_product(t, rng);
    const CsrMatrix Ah = from_host_csr(a, Space::host), Bh = from_host_csr(b, Space::host);
    SpgemmStats hs;
    const HostCsr ref = to_host_csr(spgemm(Ah, Bh, {}, &hs));
    check_equal(ref, from_eigen(EigenCsr(to_eigen(a) * to_eigen(b))), 1e-12);
    for (const Component& alg : device_algorithms()) {
      CAPTURE(alg.name);
      SpgemmStats ds;
      check_equal(to_host_csr(spgemm(Ah.to(Space::device), Bh.to(Space::device), alg, &ds)), ref, 1e-12);
      CHECK(ds.products == hs.products);
      CHECK(ds.nnz_c == hs.nnz_c);
    }
  }
  // Products with no nonzeros, empty operands, zero rows.
  const HostCsr a{3, 3, {0, 1, 2, 2}, {0, 2}, {1.0, 2.0}};
  const HostCsr b{3, 2, {0, 0, 1, 1}, {1}, {5.0}};  // rows 0 and 2 of B empty
  for (const Component& alg : device_algorithms()) {
    CAPTURE(alg.name);
    const HostCsr c = to_host_csr(spgemm(from_host_csr(a, Space::device), from_host_csr(b, Space::device), alg));
    CHECK(c.row_ptr == std::vector<offset_t>{0, 0, 0, 0});
    const CsrMatrix Z = CsrMatrix::zeros(4, 3, Space::device);
    CHECK(spgemm(Z, from_host_csr(b, Space::device), alg).nnz() == 0);
    const CsrMatrix E = CsrMatrix::zeros(0, 3, Space::device);
    CHECK(spgemm(E, from_host_csr(a, Space::device), alg).rows() == 0);
  }
}

TEST_CASE("GPU binned SpGEMM: power-law rows longer than a CTA, slices, determinism") {
  std::mt19937_64 rng(fresh_seed());
  const HostCsr a = power_law(sized(6000, 2000), 3000, rng);
  const CsrMatrix Ah = from_host_csr(a, Space::host), Ad = Ah.to(Space::device);
  const HostCsr ref = to_host_csr(spgemm(Ah, Ah));
  // The hash rows' fill from the columns the count kept, and recounted: the
  // same sorted rows and sums, bitwise.
  check_bitwise(spgemm(Ad, Ad, kRecount), spgemm(Ad, Ad, Component("binned")));
  for (const Component& variant : {Component("binned"), kSorted, kHashed, kDirect, kRecount, kEscLong, kMergeLong}) {
  CAPTURE(variant.options.find("rows") ? variant.options.find("rows")->text : std::string("hash"));
  CAPTURE(variant.options.find("long_rows") ? variant.options.find("long_rows")->text : std::string("dense"));
  SpgemmStats st;
  const CsrMatrix C1 = spgemm(Ad, Ad, variant, &st);
  check_equal(to_host_csr(C1), ref, 1e-12);
  CHECK(st.long_rows > 0);  // dense accumulators (B is narrow), the merge or the global ESC ran on the long rows
  CHECK(st.slices == 1);
  MESSAGE("power law: " << a.col.size() << " nonzeros, " << st.products << " products, " << st.long_rows
                        << " long rows");
  // A tiny budget slices the long rows (the global ESC's sums may round
  // differently per slice layout, and fewer chunks per row change the dense
  // accumulators' order, so to 1e-12).
  SpgemmStats sliced;
  Component tiny = variant;
  tiny.options.set("memory_budget_mib", 0.05);
  const CsrMatrix Cs = spgemm(Ad, Ad, tiny, &sliced);
  check_equal(to_host_csr(Cs), ref, 1e-12);
  CHECK(sliced.slices > 1);
  check_bitwise(spgemm(Ad, Ad, tiny), Cs);
  // Bitwise the same, run after run.
  check_bitwise(spgemm(Ad, Ad, variant), C1);
  // Another right-hand side with short rows.
  const CsrMatrix T = from_host_csr(power_law(sized(6000, 2000), 40, rng), Space::host);
  check_equal(to_host_csr(spgemm(Ad, T.to(Space::device), variant)), to_host_csr(spgemm(Ah, T)), 1e-12);
  }
}

TEST_CASE("GPU binned SpGEMM: long rows into a narrow B in dense accumulators (chunks, slices), a wide B by merge, equal the ESC's") {
  std::mt19937_64 rng(fresh_seed());
  for (const index_t n : {index_t{700}, index_t{12000}, index_t{40000}}) {
    CAPTURE(n);
    MESSAGE(n << " columns of B: " << std::string(cuda::dense_rows_fit(n) ? "dense accumulators" : "segmented merge"));
    const auto [a, b] = long_row_product(300, 4000, n, 2500, rng);
    const CsrMatrix Ah = from_host_csr(a, Space::host), Bh = from_host_csr(b, Space::host);
    const CsrMatrix Ad = Ah.to(Space::device), Bd = Bh.to(Space::device);
    const HostCsr ref = to_host_csr(spgemm(Ah, Bh));
    SpgemmStats st;
    const CsrMatrix C = spgemm(Ad, Bd, Component("binned"), &st);
    check_equal(to_host_csr(C), ref, 1e-12);
    CHECK(st.long_rows == 30);
    CHECK(st.slices == 1);
    check_bitwise(spgemm(Ad, Bd, Component("binned")), C);  // the same sums run after run
    SpgemmStats esc;
    check_equal(to_host_csr(spgemm(Ad, Bd, kEscLong, &esc)), ref, 1e-12);
    CHECK(esc.long_rows == 30);
    SpgemmStats merged;
    check_equal(to_host_csr(spgemm(Ad, Bd, kMergeLong, &merged)), ref, 1e-12);
    CHECK(merged.long_rows == 30);
    // A budget of 0.05 MiB holds 8 partial rows of 700 columns: rows of more
    // chunks take fewer, larger ones, and the rows run in many slices.
    SpgemmStats sliced;
    const CsrMatrix Cs =
        spgemm(Ad, Bd, Component("binned", Options().set("memory_budget_mib", 0.05)), &sliced);
    check_equal(to_host_csr(Cs), ref, 1e-12);
    CHECK(sliced.slices > 1);
    // New values of A on the same structure: the numeric phase runs the long
    // rows again.
    const HostCsr a2 = revalue(a, rng);
    const CsrMatrix A2h = from_host_csr(a2, Space::host);
    CsrMatrix Cn = C.clone();
    spgemm_numeric(A2h.to(Space::device), Bd, Cn, Component("binned"));
    check_equal(to_host_csr(Cn), to_host_csr(spgemm(A2h, Bh)), 1e-12);
  }
}

TEST_CASE("GPU segmented-merge SpGEMM equals host Gustavson: rounds, empty rows, slices, bitwise in any slicing") {
  std::mt19937_64 rng(fresh_seed());
  const SpgemmOptions whole;  // 2 GiB: one slice
  // Rows of 10^3-10^5 products: 1 to 6 merge rounds, rows whose last run has
  // no partner, rows of fewer products than a tile; B with empty rows.
  for (const index_t n : {index_t{37}, index_t{5000}, index_t{1 << 20}}) {
    CAPTURE(n);
    auto [a, b] = long_row_product(120, 3000, n, 1500 + static_cast<index_t>(rng() % 3000), rng);
    b = without_rows(b, [](index_t i) { return i % 7 == 0; });  // every seventh row of B empty
    a = without_rows(a, [](index_t i) { return i == 4 || i == 50; });  // rows 4 and 50 of A empty
    const CsrMatrix Ah = from_host_csr(a, Space::host), Bh = from_host_csr(b, Space::host);
    const CsrMatrix Ad = Ah.to(Space::device), Bd = Bh.to(Space::device);
    SpgemmStats hs, ms;
    const HostCsr ref = to_host_csr(spgemm(Ah, Bh, {}, &hs));
    const CsrMatrix C = cuda::spgemm_merge_rows(Ad, Bd, whole, &ms);
    check_equal(to_host_csr(C), ref, 1e-12);
    CHECK(ms.products == hs.products);
    CHECK(ms.nnz_c == hs.nnz_c);
    CHECK(ms.slices == 1);
    MESSAGE(ms.products << " products into " << ms.nnz_c << " nonzeros, " << n << " columns");
    check_bitwise(cuda::spgemm_merge_rows(Ad, Bd, whole, nullptr), C);  // run after run
    // A budget of 0.5 MiB (~16k products) cuts the rows into slices (a row of
    // more products forms its own): every row's sums are those of the whole.
    SpgemmOptions tiny;
    tiny.memory_budget_bytes = std::size_t(1) << 19;
    SpgemmStats sliced;
    check_bitwise(cuda::spgemm_merge_rows(Ad, Bd, tiny, &sliced), C);
    CHECK(sliced.slices > 1);
    // Through the binned SpGEMM: the same long rows (the binned rows of the
    // same products are summed in another order: to 1e-12).
    SpgemmStats bs;
    check_equal(to_host_csr(spgemm(Ad, Bd, kMergeLong, &bs)), ref, 1e-12);
    CHECK(bs.long_rows > 0);
  }
  // Random rectangular products with short rows, and products with no nonzeros.
  for (int t = 0; t < 4; ++t) {
    const auto [a, b] = random_product(t, rng);
    const CsrMatrix Ah = from_host_csr(a, Space::host), Bh = from_host_csr(b, Space::host);
    check_equal(to_host_csr(cuda::spgemm_merge_rows(Ah.to(Space::device), Bh.to(Space::device), whole, nullptr)),
                to_host_csr(spgemm(Ah, Bh)), 1e-12);
  }
  const HostCsr a{3, 3, {0, 1, 2, 2}, {0, 2}, {1.0, 2.0}};
  const HostCsr b{3, 2, {0, 0, 1, 1}, {1}, {5.0}};  // A selects only B's empty rows
  const CsrMatrix C = cuda::spgemm_merge_rows(from_host_csr(a, Space::device), from_host_csr(b, Space::device), whole,
                                              nullptr);
  CHECK(to_host_csr(C).row_ptr == std::vector<offset_t>{0, 0, 0, 0});
  CHECK(C.cols() == 2);
}

TEST_CASE("GPU binned SpGEMM equals host on the AMG products of the seed stencils, and fuses P") {
  std::mt19937_64 rng(fresh_seed());
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    AmgParams doubles;
    doubles.exact_single = false;  // the products below read every level's A in double
    const Hierarchy h(poisson(s, stencil_dim(s) == 2 ? sized(120, 48) : sized(24, 12), Space::host), doubles);
    for (std::size_t l = 0; l + 1 < h.levels().size(); ++l) {
      CAPTURE(l);
      const Level& L = h.levels()[l];
      const CsrMatrix Ad = L.A.to(Space::device), Pd = L.P.to(Space::device), Rd = L.R.to(Space::device);
      // P from A·T: T has one entry per row (the aggregate), scaled rows, plus T.
      const std::vector<index_t> agg = L.aggregates.to_vector();
      HostCsr t{L.A.rows(), L.P.cols(), {0}, {}, {}};
      std::uniform_real_distribution<double> U(0.1, 1.0);
      for (index_t i = 0; i < L.A.rows(); ++i) {
        t.col.push_back(agg[i]);
        t.val.push_back(U(rng));
        t.row_ptr.push_back(i + 1);
      }
      const CsrMatrix Th = from_host_csr(t, Space::host);
      const Vector sh = random_vector(L.A.rows(), rng(), Space::host);
      const auto host = spgemm_registry().create({}, Space::host);
      const CsrMatrix Ph = host->multiply_scaled_add(L.A, Th, sh, Th, nullptr);
      const CsrMatrix APh = spgemm(L.A, L.P);
      for (const Component& variant : {Component("binned"), kSorted, kHashed, kDirect, kRecount}) {
        const auto dev = spgemm_registry().create(variant, Space::device);
        SpgemmStats fs;
        const CsrMatrix Pf = dev->multiply_scaled_add(Ad, Th.to(Space::device), sh.to(Space::device),
                                                      Th.to(Space::device), &fs);
        check_equal(to_host_csr(Pf), to_host_csr(Ph), 1e-12);
        CHECK(fs.long_rows == 0);
        // E with several entries per row (P): not fused, the default's values.
        const CsrMatrix Pm = dev->multiply_scaled_add(Ad, Th.to(Space::device), sh.to(Space::device), Pd, nullptr);
        check_equal(to_host_csr(Pm), to_host_csr(host->multiply_scaled_add(L.A, Th, sh, L.P, nullptr)), 1e-12);
        // A·P and Pᵀ(AP).
        const CsrMatrix APd = spgemm(Ad, Pd, variant);
        check_equal(to_host_csr(APd), to_host_csr(APh), 1e-12);
        const CsrMatrix RAPd = spgemm(Rd, APd, variant);
        check_equal(to_host_csr(RAPd), to_host_csr(spgemm(L.R, APh)), 1e-12);
        check_bitwise(spgemm(Rd, APd, variant), RAPd);
      }
    }
  }
}

TEST_CASE("GPU binned SpGEMM: a 64-bit build reads 32-bit copies of the offsets that fit them, to the same bits") {
  // A budget below the copies' 4 B a row keeps the build's own offsets: the
  // products then must not differ by a bit. A 32-bit build has nothing to copy.
  const int build_bits = 8 * static_cast<int>(sizeof(offset_t));
  std::mt19937_64 rng(fresh_seed());
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    AmgParams doubles;
    doubles.exact_single = false;  // every level's A in double
    const Hierarchy h(poisson(s, stencil_dim(s) == 2 ? sized(160, 48) : sized(28, 12), Space::host), doubles);
    const Level& L = h.levels().front();
    const CsrMatrix A = L.A.to(Space::device), P = L.P.to(Space::device), R = L.R.to(Space::device);
    const Vector sc = random_vector(A.rows(), rng(), Space::device);
    HostCsr t{A.rows(), L.P.cols(), {0}, {}, {}};
    const std::vector<index_t> agg = L.aggregates.to_vector();
    for (index_t i = 0; i < A.rows(); ++i) {
      t.col.push_back(agg[i]);
      t.val.push_back(0.5 + 0.25 * static_cast<double>(i % 3));
      t.row_ptr.push_back(i + 1);
    }
    const CsrMatrix T = from_host_csr(t, Space::device);
    for (const char* rows : {"auto", "sort", "hash"}) {
      CAPTURE(rows);
      const Component narrow("binned", Options().set("rows", rows));
      const Component wide("binned", Options().set("rows", rows).set("memory_budget_mib", 1e-4));
      const auto n = spgemm_registry().create(narrow, Space::device);
      const auto w = spgemm_registry().create(wide, Space::device);
      SpgemmStats ns, ws;
      const CsrMatrix APn = n->multiply(A, P, &ns), APw = w->multiply(A, P, &ws);
      CHECK(ns.offset_bits == 32);
      CHECK(ws.offset_bits == build_bits);
      check_bitwise(APn, APw);
      check_bitwise(n->multiply(R, APn, nullptr), w->multiply(R, APw, nullptr));
      // The fused smoothed prolongator and the numeric phase.
      const CsrMatrix Pn = n->multiply_scaled_add(A, T, sc, T, &ns), Pw = w->multiply_scaled_add(A, T, sc, T, &ws);
      CHECK(ns.offset_bits == 32);
      check_bitwise(Pn, Pw);
      CsrMatrix Cn = APn.clone(), Cw = APw.clone();
      n->multiply_numeric(A, P, Cn, &ns);
      w->multiply_numeric(A, P, Cw, &ws);
      CHECK(ns.offset_bits == 32);
      CHECK(ws.offset_bits == build_bits);
      check_bitwise(Cn, APn);
      check_bitwise(Cw, APn);
    }
  }
}

TEST_CASE("GPU binned SpGEMM: hash rows whose kept columns do not fit their room are recounted") {
  // A·A of the 2D 9-point stencil in hash rows: 81 products, ~25 columns a row.
  // The 1 MiB budget (the least) keeps the columns of part of the rows; the
  // fill recounts the others.
  const CsrMatrix Ah = poisson(Stencil::fe2d_9pt, 140, Space::host);
  const CsrMatrix Ad = Ah.to(Space::device);
  const Component alg("binned", Options().set("rows", "hash").set("memory_budget_mib", 1));
  const CsrMatrix C = spgemm(Ad, Ad, alg);
  CHECK(C.nnz() * sizeof(index_t) > std::size_t(1) << 20);  // more columns than the room holds
  check_equal(to_host_csr(C), to_host_csr(spgemm(Ah, Ah)), 1e-12);
  Component recount = alg;
  recount.options.set("hash_columns", "recount");
  check_bitwise(spgemm(Ad, Ad, recount), C);
}

TEST_CASE("GPU SpGEMM numeric phase recomputes values on a fixed structure") {
  std::mt19937_64 rng(fresh_seed());
  const HostCsr a = power_law(3000, 2500, rng);
  const HostCsr b = to_host_csr(poisson(Stencil::fe2d_9pt, 54, Space::host));  // 2916 rows
  HostCsr bsq{3000, b.cols, b.row_ptr, b.col, b.val};
  for (index_t i = b.rows; i < 3000; ++i) bsq.row_ptr.push_back(bsq.row_ptr.back());  // empty last rows
  for (const Component& alg : device_algorithms()) {
    CAPTURE(alg.name);
    const CsrMatrix A = from_host_csr(a, Space::device), B = from_host_csr(bsq, Space::device);
    CsrMatrix C = spgemm(A, B, alg);
    const CsrMatrix A2 = from_host_csr(revalue(a, rng), Space::device);
    const CsrMatrix B2 = from_host_csr(revalue(bsq, rng), Space::device);
    spgemm_numeric(A2, B2, C, alg);
    check_equal(to_host_csr(C), to_host_csr(spgemm(A2.to(Space::host), B2.to(Space::host))), 1e-12);
    check_bitwise(C, spgemm(A2, B2, alg));
    // A C of another structure is refused.
    CsrMatrix small = CsrMatrix::zeros(3000, b.cols, Space::device);
    CHECK_THROWS_WITH_AS(spgemm_numeric(A2, B2, small, alg), doctest::Contains("structure"), Error);
  }
}

TEST_CASE("GPU hierarchies built with binned and cuSPARSE SpGEMM agree") {
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const index_t N = stencil_dim(s) == 2 ? sized(300, 64) : sized(32, 12);
    AmgParams pb, pc;
    pb.spgemm = Component("binned");
    pc.spgemm = Component("cusparse");
    const Hierarchy hb(poisson(s, N, Space::device), pb), hc(poisson(s, N, Space::device), pc);
    CHECK(hb.stats().spgemm_algorithm == "binned");
    REQUIRE(hb.levels().size() == hc.levels().size());
    for (std::size_t l = 0; l < hb.levels().size(); ++l) {
      const HostCsr x = to_host_csr(hb.levels()[l].A), y = to_host_csr(hc.levels()[l].A);
      CHECK(x.row_ptr == y.row_ptr);
      CHECK(x.col == y.col);
      CHECK(max_rel_diff(x.val, y.val) < 1e-12);
    }
    RunConfig c;
    c.problem.type = Component("poisson", Options().set("stencil", stencil_name(s)).set("N", N));
    c.amg.spgemm = Component("binned");
    const RunResult rb = run_solve(c, Executor::cuda());
    c.amg.spgemm = Component("cusparse");
    const RunResult rc = run_solve(c, Executor::cuda());
    CHECK(rb.solve.converged);
    CHECK(rb.solve.iterations == rc.solve.iterations);
  }
}

TEST_CASE("GPU SpGEMM out of device memory is a clear error, and the device stays usable") {
  const CsrMatrix A = poisson(Stencil::fe3d_27pt, 40, Space::device);  // A·A: ~22M nonzeros, ~270 MB
  const HostCsr ref = to_host_csr(spgemm(A, A, {"binned"}));
  // Fill the device (256 MiB blocks, then 1 MiB blocks) until allocations
  // fail: the product cannot find the memory for C.
  std::vector<Array<char>> filler;
  for (std::size_t block : {std::size_t(256) << 20, std::size_t(1) << 20})
    for (;;) {
      try {
        filler.emplace_back(block, Space::device, "test filler");
      } catch (const DeviceError&) {
        break;
      }
    }
  REQUIRE(!filler.empty());
  for (const Component& alg : {Component("binned"), Component("esc")}) {
    CAPTURE(alg.name);
    bool threw = false;
    try {
      const CsrMatrix C = spgemm(A, A, alg);
    } catch (const DeviceError& e) {
      threw = true;
      const std::string m = e.what();
      CHECK(m.find("out of memory allocating") != std::string::npos);
      CHECK(m.find("GiB requested") != std::string::npos);
      CHECK(m.find("free of") != std::string::npos);
    }
    CHECK(threw);
  }
  filler.clear();
  device::release_cached_memory();  // other executors' pools need the memory back
  check_equal(to_host_csr(spgemm(A, A, {"binned"})), ref, 0.0);
}

TEST_CASE("GPU SpGEMM with little free device memory slices its expansion to fit, and stays exact") {
  // ESC of the 3D 27-pt A·A N=40: 46M products = 2.2 GB of expansion at the
  // default 2 GiB budget; with 1 GiB free it must slice by the free memory.
  const CsrMatrix A = poisson(Stencil::fe3d_27pt, 40, Space::device);
  const Component esc("esc");
  SpgemmStats roomy;
  const HostCsr ref = to_host_csr(spgemm(A, A, esc, &roomy));
  const std::size_t target = std::size_t(1) << 30;
  device::release_cached_memory();
  std::vector<Array<char>> filler;
  for (std::size_t block : {std::size_t(256) << 20, std::size_t(16) << 20})
    while (device::available_memory() > target + block) filler.emplace_back(block, Space::device, "test filler");
  const std::size_t free_now = device::available_memory();
  SpgemmStats tight;
  const CsrMatrix C = spgemm(A, A, esc, &tight);
  MESSAGE("free " << free_now / 1048576.0 << " MiB: " << tight.slices << " slices of budget " << tight.budget_bytes / 1048576.0
                  << " MiB (" << roomy.slices << " with the device free)");
  CHECK(tight.budget_bytes <= static_cast<std::int64_t>(free_now / 4));
  CHECK(tight.slices > roomy.slices);
  check_equal(to_host_csr(C), ref, 1e-12);  // rows never straddle slices, but sums may group differently
  filler.clear();
  device::release_cached_memory();
}
