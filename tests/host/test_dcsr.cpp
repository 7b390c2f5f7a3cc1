// DcsrMatrix on the host against an ordered-map model: conversions round-trip
// exactly, random insertion sequences over many rounds (with the
// defragmentations they trigger) give the model's matrix and its SpMV,
// duplicates keep / add / replace, erase, A += alpha B, a full buffer's error
// loses nothing, the layout invariants hold.
#include <doctest/doctest.h>

#include "sparse/csr_ops.hpp"
#include "sparse/dcsr.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/dcsr_model.hpp"

using namespace saga;
using namespace saga::test;

namespace {
void check_layout(const DcsrMatrix& D) {
  CHECK(D.pitch() >= 2 * static_cast<std::int64_t>(D.rows()));
  CHECK(D.pitch() % static_cast<std::int64_t>(128 / sizeof(offset_t)) == 0);  // whole 128-byte lines
  const auto ns = D.row_segments().to_vector();
  const auto sz = D.row_sizes().to_vector();
  const auto seg = D.segment_table().to_vector();
  std::int64_t total = 0;
  for (index_t i = 0; i < D.rows(); ++i) {
    REQUIRE(ns[i] >= 0);
    REQUIRE(ns[i] <= D.params().segments);
    std::int64_t cap = 0;
    for (int s = 0; s < ns[i]; ++s) {
      const offset_t a = seg[s * D.pitch() + 2 * i], b = seg[s * D.pitch() + 2 * i + 1];
      REQUIRE(a <= b);
      REQUIRE(b <= D.capacity());
      cap += b - a;
    }
    REQUIRE(sz[i] <= cap);
    total += sz[i];
  }
  CHECK(total == D.entries());
  const DcsrMemory m = D.memory();
  CHECK(m.entries == D.entries());
  CHECK(m.allocated <= m.capacity);
  CHECK(m.allocated >= m.entries);
  CHECK(m.fragmentation() >= 0.0);
  CHECK(m.fragmentation() < 1.0 + 1e-15);
}

void check_spmv(const DcsrMatrix& D, const DcsrModel& m, std::mt19937_64& rng) {
  const CsrMatrix ref = from_host_csr(m.csr(), Space::host);
  const Vector x = random_vector(D.cols(), rng(), Space::host);
  Vector y1 = random_vector(D.rows(), rng(), Space::host), y2 = y1.clone();
  D.spmv(1.5, x, -0.5, y1);
  spmv(1.5, ref, x, -0.5, y2);
  CHECK(max_rel_diff(y1.to_vector(), y2.to_vector()) < 1e-13);
}
}  // namespace

TEST_CASE("DCSR from CSR and back is exact; layout of the segment table") {
  std::mt19937_64 rng(fresh_seed());
  for (index_t rows : {0, 1, 37, 500}) {
    CAPTURE(rows);
    const HostCsr h = rows ? integer_csr(rows, 300, 0.03, rng) : HostCsr{0, 5, {0}, {}, {}};
    const CsrMatrix A = from_host_csr(h, Space::host);
    const DcsrMatrix D = DcsrMatrix::from_csr(A);
    CHECK(D.sorted_rows());
    CHECK(D.compact());
    CHECK(D.entries() == A.nnz());
    CHECK(D.capacity() >= A.nnz());
    check_layout(D);
    check_equal(to_host_csr(D.to_csr()), h, 0.0);
    CHECK(D.memory().max_segments <= 1);
    // from COO: the same matrix
    check_equal(to_host_csr(DcsrMatrix::from_coo(csr_to_coo(A)).to_csr()), h, 0.0);
  }
}

TEST_CASE("DCSR random insertion rounds equal the model, with defragmentations, for every duplicates mode") {
  std::mt19937_64 rng(fresh_seed());
  for (DcsrDuplicates mode : {DcsrDuplicates::keep, DcsrDuplicates::add, DcsrDuplicates::replace}) {
    for (int k : {2, 4}) {
      const std::string mode_name = to_string(mode);
      CAPTURE(mode_name);
      CAPTURE(k);
      const HostCsr h = integer_csr(400, 350, 0.01, rng);
      DcsrParams p;
      p.segments = k;
      p.slack = 2;  // small: rows outgrow their segments quickly
      p.duplicates = mode;
      DcsrMatrix D = DcsrMatrix::from_csr(from_host_csr(h, Space::host), p);
      DcsrModel model = DcsrModel::of(h);
      int defrags = 0;
      std::int64_t segments = 0;
      for (int round = 0; round < 30; ++round) {
        CAPTURE(round);
        const DcsrBatch b = random_dcsr_batch(D.rows(), D.cols(), 1 + rng() % 200, rng);
        const DcsrUpdateStats st = D.insert(b.coo(D.rows(), D.cols(), Space::host));
        model.insert(b.r, b.c, b.v, mode);
        defrags += st.defragmentations;
        segments += st.new_segments;
        CHECK(st.inserted + st.updated > 0);
        if (mode == DcsrDuplicates::keep) CHECK(st.updated == 0);
        check_layout(D);
        check_equal(to_host_csr(D.to_csr()), model.csr(), 0.0);
        if (round % 5 == 0) check_spmv(D, model, rng);
      }
      MESSAGE(mode_name << " k=" << k << ": " << D.entries() << " entries, " << segments << " segments opened, "
                              << defrags << " defragmentations, fragmentation " << D.memory().fragmentation());
      CHECK(defrags > 0);  // the hot rows reached k segments
      CHECK(!D.sorted_rows());
      CHECK(!D.compact());
      D.defragment();
      CHECK(D.compact());  // rows back to back in row order: CSR arrays
      CHECK(D.memory().max_segments <= 1);
      CHECK(D.memory().fragmentation() == 0.0);
      check_equal(to_host_csr(D.to_csr()), model.csr(), 0.0);
      check_spmv(D, model, rng);
    }
  }
}

TEST_CASE("DCSR streaming into a blank matrix equals COO assembly; defragmentation by length keeps the matrix") {
  std::mt19937_64 rng(fresh_seed());
  DcsrParams p;
  p.initial_width = 3;
  DcsrMatrix D = DcsrMatrix::blank(300, 300, Space::host, p);
  CHECK(D.entries() == 0);
  check_layout(D);
  DcsrModel model{300, 300, {}};
  for (int round = 0; round < 20; ++round) {
    const DcsrBatch b = random_dcsr_batch(300, 300, 150, rng);
    D.insert(b.coo(300, 300, Space::host));
    model.insert(b.r, b.c, b.v, DcsrDuplicates::keep);
  }
  check_equal(to_host_csr(D.to_csr()), model.csr(), 0.0);
  DcsrParams q = p;
  q.order_by_length = true;
  DcsrMatrix E = DcsrMatrix::from_csr(D.to_csr(), q);
  const DcsrBatch b = random_dcsr_batch(300, 300, 500, rng);
  E.insert(b.coo(300, 300, Space::host));
  model.insert(b.r, b.c, b.v, DcsrDuplicates::keep);
  E.defragment();
  CHECK(!E.compact());  // ordered by length: not CSR order
  check_layout(E);
  check_equal(to_host_csr(E.to_csr()), model.csr(), 0.0);
  check_spmv(E, model, rng);
  // Longest rows first: segment starts ordered by decreasing row length.
  const auto sz = E.row_sizes().to_vector();
  const auto seg = E.segment_table().to_vector();
  std::vector<std::pair<offset_t, offset_t>> start_len;
  for (index_t i = 0; i < E.rows(); ++i)
    if (sz[i] > 0) start_len.push_back({seg[2 * i], sz[i]});
  std::sort(start_len.begin(), start_len.end());
  for (std::size_t j = 1; j < start_len.size(); ++j) CHECK(start_len[j - 1].second >= start_len[j].second);
}

TEST_CASE("DCSR erase, A += alpha B, and a full buffer that loses nothing") {
  std::mt19937_64 rng(fresh_seed());
  const HostCsr h = integer_csr(200, 200, 0.05, rng);
  DcsrMatrix D = DcsrMatrix::from_csr(from_host_csr(h, Space::host));
  DcsrModel model = DcsrModel::of(h);
  const DcsrBatch ins = random_dcsr_batch(200, 200, 300, rng);
  D.insert(ins.coo(200, 200, Space::host));
  model.insert(ins.r, ins.c, ins.v, DcsrDuplicates::keep);
  // Erase every third held entry plus positions that are not held.
  std::vector<index_t> er, ec;
  int n = 0;
  for (const auto& [key, x] : model.a)
    if (n++ % 3 == 0) {
      er.push_back(key.first);
      ec.push_back(key.second);
    }
  er.push_back(5);
  ec.push_back(199);
  const std::size_t before = model.a.size();
  model.erase(er, ec);
  const DcsrUpdateStats st = D.erase(DcsrBatch{er, ec, std::vector<double>(er.size(), 0.0)}.coo(200, 200, Space::host));
  CHECK(st.erased >= static_cast<std::int64_t>(before - model.a.size()));  // kept duplicates go too
  check_layout(D);
  {
    INFO("after erase");
    check_equal(to_host_csr(D.to_csr()), model.csr(), 0.0);
  }
  check_spmv(D, model, rng);

  // A += 0.5 B
  const HostCsr bh = integer_csr(200, 200, 0.04, rng);
  D.add(0.5, from_host_csr(bh, Space::host));
  const CsrMatrix want = add(1.0, from_host_csr(model.csr(), Space::host), 0.5, from_host_csr(bh, Space::host));
  check_equal(to_host_csr(D.to_csr()), to_host_csr(want), 0.0);

  // A buffer limited to what it holds plus 10 entries: a large batch fails
  // with a clear error; each row is either fully inserted or untouched.
  DcsrParams p;
  p.max_entries = 0;
  DcsrMatrix F = DcsrMatrix::from_csr(from_host_csr(h, Space::host));
  DcsrParams tight;
  tight.max_entries = static_cast<std::int64_t>(h.col.size()) + 10;
  DcsrMatrix G = DcsrMatrix::from_csr(from_host_csr(h, Space::host), tight);
  const DcsrBatch big = random_dcsr_batch(200, 200, 400, rng);
  CHECK_THROWS_WITH_AS(G.insert(big.coo(200, 200, Space::host)), doctest::Contains("do not fit"), InputError);
  check_layout(G);
  const HostCsr g = to_host_csr(G.to_csr());
  DcsrModel full = DcsrModel::of(h);
  full.insert(big.r, big.c, big.v, DcsrDuplicates::keep);
  const HostCsr all = full.csr();
  int untouched = 0, whole = 0;
  for (index_t i = 0; i < 200; ++i) {
    const std::vector<index_t> gi(g.col.begin() + g.row_ptr[i], g.col.begin() + g.row_ptr[i + 1]);
    const std::vector<index_t> hi(h.col.begin() + h.row_ptr[i], h.col.begin() + h.row_ptr[i + 1]);
    const std::vector<index_t> ai(all.col.begin() + all.row_ptr[i], all.col.begin() + all.row_ptr[i + 1]);
    if (gi == hi && std::equal(g.val.begin() + g.row_ptr[i], g.val.begin() + g.row_ptr[i + 1],
                               h.val.begin() + h.row_ptr[i]))
      ++untouched;
    else if (gi == ai)
      ++whole;
    else
      FAIL("row " << i << " is partly inserted");
  }
  CHECK(untouched + whole == 200);
  CHECK(G.entries() <= tight.max_entries);
  (void)F;
  (void)p;
}

TEST_CASE("DCSR bad input: parameters, shapes, indices") {
  DcsrParams p;
  p.segments = 1;
  CHECK_THROWS_WITH_AS(DcsrMatrix::blank(4, 4, Space::host, p), doctest::Contains("segments: 1"), InputError);
  p = {};
  p.reserve = 0.5;
  CHECK_THROWS_WITH_AS(DcsrMatrix::blank(4, 4, Space::host, p), doctest::Contains("reserve"), InputError);
  CHECK_THROWS_WITH_AS(parse_dcsr_duplicates("sum"), doctest::Contains("keep, add, replace"), InputError);
  DcsrMatrix D = DcsrMatrix::blank(4, 4, Space::host);
  CHECK_THROWS_WITH_AS(D.insert(DcsrBatch{{0}, {0}, {1.0}}.coo(5, 4, Space::host)),
                       doctest::Contains("a 5x4 batch for a 4x4 matrix"), InputError);
  // An index out of range is refused before anything is inserted.
  CHECK_THROWS_AS(D.insert(DcsrBatch{{0, 3}, {1, 4}, {1.0, 2.0}}.coo(4, 4, Space::host)), InputError);
  CHECK(D.entries() == 0);
  p = {};
  p.max_entries = 5;
  CHECK_THROWS_WITH_AS(DcsrMatrix::blank(4, 4, Space::host, p), doctest::Contains("exceed max_entries"), InputError);
}
