// DcsrMatrix on the GPU against the host and the model: the same insertion
// rounds (atomic segment allocation, defragmentations, growth) give the same
// matrix bitwise (integer values: exact sums), the fragmented SpMV equals the
// host's, length ordering equals the host's order, a full buffer fails cleanly.
#include <doctest/doctest.h>

#include "problems/rmat.hpp"
#include "sparse/dcsr.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/dcsr_model.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// Every row's used (start, end) pairs in row order: the slots past a row's
// segment count are not kept (no reader goes there), so they are not compared.
std::vector<offset_t> used_segments(const DcsrMatrix& D) {
  const auto ns = D.row_segments().to_vector();
  const auto seg = D.segment_table().to_vector();
  std::vector<offset_t> out;
  for (index_t i = 0; i < D.rows(); ++i)
    for (int s = 0; s < ns[i]; ++s) {
      out.push_back(seg[s * D.pitch() + 2 * i]);
      out.push_back(seg[s * D.pitch() + 2 * i + 1]);
    }
  return out;
}
}  // namespace

TEST_CASE("GPU DCSR insertion rounds equal the host and the model, every duplicates mode") {
  std::mt19937_64 rng(fresh_seed());
  for (DcsrDuplicates mode : {DcsrDuplicates::keep, DcsrDuplicates::add, DcsrDuplicates::replace}) {
    const std::string mode_name = to_string(mode);
    CAPTURE(mode_name);
    const index_t n = sized(3000, 600);
    const HostCsr h = integer_csr(n, n, 0.004, rng);
    DcsrParams p;
    p.segments = 3;
    p.slack = 2;
    p.duplicates = mode;
    DcsrMatrix Dh = DcsrMatrix::from_csr(from_host_csr(h, Space::host), p);
    DcsrMatrix Dd = DcsrMatrix::from_csr(from_host_csr(h, Space::device), p);
    DcsrModel model = DcsrModel::of(h);
    int defrags = 0;
    for (int round = 0; round < 25; ++round) {
      CAPTURE(round);
      const DcsrBatch b = random_dcsr_batch(n, n, 1 + rng() % sized(3000, 500), rng);
      const DcsrUpdateStats sh = Dh.insert(b.coo(n, n, Space::host));
      const DcsrUpdateStats sd = Dd.insert(b.coo(n, n, Space::device));
      model.insert(b.r, b.c, b.v, mode);
      defrags += sd.defragmentations;
      CHECK(sd.inserted == sh.inserted);
      CHECK(sd.updated == sh.updated);
      CHECK(Dd.entries() == Dh.entries());
      const HostCsr want = model.csr();
      check_equal(to_host_csr(Dd.to_csr()), want, 0.0);
      check_equal(to_host_csr(Dh.to_csr()), want, 0.0);
      if (round % 4 == 0) {
        const Vector x = random_vector(n, rng(), Space::host);
        Vector yh = random_vector(n, rng(), Space::host);
        Vector yd = yh.to(Space::device);
        Dh.spmv(2.0, x, 0.5, yh);
        Dd.spmv(2.0, x.to(Space::device), 0.5, yd);
        CHECK(max_rel_diff(yd.to_vector(), yh.to_vector()) < 1e-14);
      }
    }
    MESSAGE(mode_name << ": " << Dd.entries() << " entries, " << defrags << " defragmentations on the GPU");
    CHECK(defrags > 0);
  }
}

TEST_CASE("GPU DCSR on an R-MAT graph: blank streaming, length-ordered defragmentation, erase, SpMV") {
  std::mt19937_64 rng(fresh_seed());
  RmatParams rp;
  rp.scale = sized(14, 11);
  rp.edges = 8;
  rp.seed = rng();
  const CsrMatrix G = rmat_matrix(rp, Space::host);
  const HostCsr g = to_host_csr(G);
  // Stream the graph's entries into a blank matrix in 8 batches.
  DcsrParams p;
  p.initial_width = 2;
  p.order_by_length = true;
  DcsrMatrix Dd = DcsrMatrix::blank(G.rows(), G.cols(), Space::device, p);
  DcsrMatrix Dh = DcsrMatrix::blank(G.rows(), G.cols(), Space::host, p);
  std::vector<index_t> rows;
  for (index_t i = 0; i < g.rows; ++i)
    for (offset_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) rows.push_back(i);
  const std::size_t nnz = g.col.size();
  for (int b = 0; b < 8; ++b) {
    const std::size_t lo = nnz * b / 8, hi = nnz * (b + 1) / 8;
    DcsrBatch batch{{rows.begin() + lo, rows.begin() + hi}, {g.col.begin() + lo, g.col.begin() + hi},
                    {g.val.begin() + lo, g.val.begin() + hi}};
    Dd.insert(batch.coo(G.rows(), G.cols(), Space::device));
    Dh.insert(batch.coo(G.rows(), G.cols(), Space::host));
  }
  check_equal(to_host_csr(Dd.to_csr()), g, 1e-15);
  Dd.defragment();
  Dh.defragment();
  CHECK(Dd.row_sizes().to_vector() == Dh.row_sizes().to_vector());
  CHECK(used_segments(Dd) == used_segments(Dh));  // the same stable length order
  const Vector x = random_vector(G.cols(), rng(), Space::host);
  Vector yd(G.rows(), Space::device), y(G.rows(), Space::host);
  Dd.spmv(1.0, x.to(Space::device), 0.0, yd);
  spmv(G, x, y);
  CHECK(max_rel_diff(yd.to_vector(), y.to_vector()) < 1e-13);
  // Erase a tenth of the entries.
  DcsrBatch er;
  for (std::size_t e = 0; e < nnz; e += 10) {
    er.r.push_back(rows[e]);
    er.c.push_back(g.col[e]);
    er.v.push_back(0.0);
  }
  const DcsrUpdateStats sd = Dd.erase(er.coo(G.rows(), G.cols(), Space::device));
  const DcsrUpdateStats sh = Dh.erase(er.coo(G.rows(), G.cols(), Space::host));
  CHECK(sd.erased == sh.erased);
  check_equal(to_host_csr(Dd.to_csr()), to_host_csr(Dh.to_csr()), 0.0);
}

TEST_CASE("GPU DCSR SpMV: compact DCSR runs the binned CSR kernels (bitwise CSR), fragmented rows the V-lane kernel") {
  std::mt19937_64 rng(fresh_seed());
  RmatParams rp;
  rp.scale = sized(13, 10);
  rp.edges = 12;
  rp.seed = rng();
  std::vector<CsrMatrix> mats;
  mats.push_back(rmat_matrix(rp, Space::device));
  mats.push_back(from_host_csr(integer_csr(5000, 4000, 0.002, rng), Space::device));
  {  // Rows longer than 4096 entries, which the device kernels give a CTA each.
    HostCsr g = integer_csr(400, 12000, 0.001, rng);
    HostCsr w{g.rows, g.cols, {0}, {}, {}};
    for (index_t i = 0; i < g.rows; ++i) {
      const bool hub = i == 3 || i == 200 || i == 399;
      for (offset_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k)
        if (!hub) {
          w.col.push_back(g.col[k]);
          w.val.push_back(g.val[k]);
        }
      if (hub)
        for (index_t c = i % 3; c < g.cols; c += 1 + i % 2) {  // 12000 or 6000 entries
          w.col.push_back(c);
          w.val.push_back(static_cast<double>(1 + (c * 7 + i) % 11));
        }
      w.row_ptr.push_back(static_cast<offset_t>(w.col.size()));
    }
    mats.push_back(from_host_csr(w, Space::device));
  }
  for (const CsrMatrix& A : mats) {
    const Vector x = random_vector(A.cols(), rng(), Space::device);
    Vector y_csr = random_vector(A.rows(), rng(), Space::device), y = y_csr.clone();
    spmv(0.5, A, x, 2.0, y_csr, Component("binned"));
    DcsrMatrix D = DcsrMatrix::from_csr(A);
    REQUIRE(D.compact());
    D.spmv(0.5, x, 2.0, y);
    CHECK(y.to_vector() == y_csr.to_vector());  // the same kernels on the same arrays
    {  // the row_ptr made from the table (the conversion leaves it out), also after a round trip
      const DcsrMatrix back = D.to(Space::host).to(Space::device);
      REQUIRE(back.compact());
      Vector y2 = random_vector(A.rows(), rng(), Space::device), y2_csr = y2.clone();
      back.spmv(0.5, x, 2.0, y2);
      spmv(0.5, A, x, 2.0, y2_csr, Component("binned"));
      CHECK(y2.to_vector() == y2_csr.to_vector());
    }
    // Fragment it (every row's second half re-inserted after an erase), then compact it again.
    const HostCsr h = to_host_csr(A);
    DcsrBatch half;
    for (index_t i = 0; i < h.rows; ++i)
      for (offset_t k = h.row_ptr[i] + (h.row_ptr[i + 1] - h.row_ptr[i]) / 2; k < h.row_ptr[i + 1]; ++k) {
        half.r.push_back(i);
        half.c.push_back(h.col[k]);
        half.v.push_back(h.val[k]);
      }
    D.erase(half.coo(A.rows(), A.cols(), Space::device));
    D.insert(half.coo(A.rows(), A.cols(), Space::device));
    CHECK(!D.compact());
    Vector yf(A.rows(), Space::device), yc(A.rows(), Space::device);
    D.spmv(1.0, x, 0.0, yf);
    spmv(A, x, yc);
    CHECK(max_rel_diff(yf.to_vector(), yc.to_vector()) < 1e-12);
    check_equal(to_host_csr(D.to_csr()), h, 0.0);
    // The same fragmented matrix on the host: the same SpMV (up to the order of sums).
    DcsrMatrix Dh = D.to(Space::host);
    Vector yh(A.rows(), Space::host);
    Dh.spmv(1.0, x.to(Space::host), 0.0, yh);
    CHECK(max_rel_diff(yf.to_vector(), yh.to_vector()) < 1e-12);
    D.defragment();
    Dh.defragment();
    CHECK(used_segments(D) == used_segments(Dh));
    std::vector<index_t> cd = D.col().to_vector(), ch = Dh.col().to_vector();
    cd.resize(static_cast<std::size_t>(D.entries()));  // the entries, not the spare room
    ch.resize(static_cast<std::size_t>(Dh.entries()));
    CHECK(cd == ch);
    CHECK(D.compact());
    check_equal(to_host_csr(D.to_csr()), h, 0.0);
    D.spmv(1.0, x, 0.0, yf);
    CHECK(max_rel_diff(yf.to_vector(), yc.to_vector()) < 1e-12);
  }
}

TEST_CASE("GPU DCSR: a full buffer fails cleanly and keeps every row whole") {
  std::mt19937_64 rng(fresh_seed());
  const HostCsr h = integer_csr(500, 500, 0.02, rng);
  DcsrParams tight;
  tight.max_entries = static_cast<std::int64_t>(h.col.size()) + 20;
  DcsrMatrix D = DcsrMatrix::from_csr(from_host_csr(h, Space::device), tight);
  const DcsrBatch big = random_dcsr_batch(500, 500, 2000, rng);
  CHECK_THROWS_WITH_AS(D.insert(big.coo(500, 500, Space::device)), doctest::Contains("do not fit"), InputError);
  CHECK(D.entries() <= tight.max_entries);
  CHECK(D.cursor() <= D.capacity());
  // Every row is the old row or the old row plus its batch entries.
  DcsrModel full = DcsrModel::of(h);
  full.insert(big.r, big.c, big.v, DcsrDuplicates::keep);
  const HostCsr all = full.csr(), d = to_host_csr(D.to_csr());
  for (index_t i = 0; i < 500; ++i) {
    const std::vector<index_t> di(d.col.begin() + d.row_ptr[i], d.col.begin() + d.row_ptr[i + 1]);
    const std::vector<index_t> hi(h.col.begin() + h.row_ptr[i], h.col.begin() + h.row_ptr[i + 1]);
    const std::vector<index_t> ai(all.col.begin() + all.row_ptr[i], all.col.begin() + all.row_ptr[i + 1]);
    CHECK((di == hi || di == ai));
  }
}
