// The device SpMV algorithms and the fused products of the solve phase against
// the host: seed stencils, coarse-level operators, power-law matrices with rows
// of 0 to 10^5 entries, empty rows, 1 x n and n x 1 shapes. Then the solve: the
// graph-replayed PCG gives bitwise the iterates of the kernel-by-kernel one.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "amg/hierarchy.hpp"
#include "api/saga.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "solver/multigrid_cycle.hpp"
#include "sparse/cg_ops.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/spmv.hpp"
#include "sparse/spmv_diagonals.hpp"
#include "sparse/spmv_row_blocks.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/gpu/fine_copy_hierarchy.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// A rows x cols matrix whose row lengths run from 0 to max_len: row i has
// length (i * 7919) % (max_len + 1) for a few rows, else a power law; random
// distinct columns, values in [-1, 1].
HostCsr ragged(index_t rows, index_t cols, index_t max_len, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0.0, 1.0);
  std::uniform_int_distribution<index_t> C(0, cols - 1);
  HostCsr h{rows, cols, {0}, {}, {}};
  std::vector<index_t> all(cols);
  for (index_t j = 0; j < cols; ++j) all[j] = j;
  for (index_t i = 0; i < rows; ++i) {
    index_t len = static_cast<index_t>(std::min<double>(cols, 1.5 / std::pow(U(rng) + 1e-9, 1.2))) - 1;
    if (i % 97 == 0) len = 0;                                   // empty rows
    if (i == rows / 2 || i == rows - 1) len = std::min(cols, max_len);  // the longest rows
    len = std::max<index_t>(0, std::min(len, cols));
    std::vector<index_t> c;
    if (len > cols / 4) {  // dense-ish: a random subset by shuffling a prefix
      std::shuffle(all.begin(), all.end(), rng);
      c.assign(all.begin(), all.begin() + len);
    } else {
      while (static_cast<index_t>(c.size()) < len) c.push_back(C(rng));
    }
    append_row(h, std::move(c), rng);
  }
  return h;
}

struct Case {
  std::string name;
  CsrMatrix A;  // host
};

std::vector<Case> cases(std::mt19937_64& rng) {
  std::vector<Case> c;
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt})
    c.push_back({stencil_name(s), poisson(s, stencil_dim(s) == 2 ? sized(70, 30) : sized(19, 10), Space::host)});
  {  // coarse-level operators (wider rows) of a 3D hierarchy
    AmgParams p;
    const Hierarchy h(poisson(Stencil::fe3d_27pt, sized(20, 12), Space::host), p);
    for (std::size_t l = 1; l < h.levels().size(); ++l)
      c.push_back({fmt::format("27-pt level {}", l), h.levels()[l].A.clone()});
    c.push_back({"27-pt P0", h.levels()[0].P.clone()});
    c.push_back({"27-pt R0", h.levels()[0].R.clone()});
  }
  // Large enough for the row blocks to be spread over whole waves of 24 CTAs
  // an SM (at least 12 CTAs an SM of 2304 units: 3.65M units on 132 SMs).
  c.push_back({"27-pt N=60 (whole waves)", poisson(Stencil::fe3d_27pt, 60, Space::host)});
  c.push_back({"ragged 3000 x 120000 (rows up to 1e5)", from_host_csr(ragged(sized(3000, 600), 120000, 100000, rng), Space::host)});
  c.push_back({"ragged 20000 x 5000", from_host_csr(ragged(sized(20000, 4000), 5000, 5000, rng), Space::host)});
  // Small with a few rows far above the mean (no row split): row blocks, not
  // vector rows (spmv_vector_rows_fit).
  c.push_back({"ragged 4000 x 4000 (rows up to 200)", from_host_csr(ragged(4000, 4000, 200, rng), Space::host)});
  // Small with every row long and about as long (a coarse restriction, a dense
  // inverse): vector rows, rows longer than the small matrix's block units.
  {
    std::uniform_int_distribution<index_t> len(300, 450), col(0, 499);
    HostCsr h{500, 500, {0}, {}, {}};
    for (index_t i = 0; i < 500; ++i) {
      std::vector<index_t> cs(static_cast<std::size_t>(len(rng)));
      for (auto& j : cs) j = col(rng);
      append_row(h, std::move(cs), rng);
    }
    c.push_back({"even long rows 500 x 500 (about 230-300 a row)", from_host_csr(std::move(h), Space::host)});
  }
  {  // Past 2^18 work units with a mean row of 64 or more (a 27-point
     // restriction): vector rows at any size, 3 to 5 entries a lane.
    const index_t rows = sized(6000, 2500);
    std::uniform_int_distribution<index_t> len(96, 160), col(0, 49999);
    HostCsr h{rows, 50000, {0}, {}, {}};
    for (index_t i = 0; i < rows; ++i) {
      std::vector<index_t> cs(static_cast<std::size_t>(len(rng)));
      for (auto& j : cs) j = col(rng);
      append_row(h, std::move(cs), rng);
    }
    c.push_back({"long rows past 2^18 units (96-160 a row)", from_host_csr(std::move(h), Space::host)});
  }
  // Dense rows (every row holds every column: a coarse dense inverse) at 32,
  // 64 (4000 rows fill a wave), 128 and 256 lanes a row (spmv_dense_lanes).
  for (const auto& [rows, cols] : std::vector<std::pair<index_t, index_t>>{{60, 60}, {4000, 600}, {676, 676}, {40, 3000}}) {
    std::uniform_real_distribution<double> V(-1.0, 1.0);
    HostCsr h{rows, cols, {0}, {}, {}};
    for (index_t i = 0; i < rows; ++i) {
      for (index_t j = 0; j < cols; ++j) {
        h.col.push_back(j);
        h.val.push_back(V(rng));
      }
      h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
    }
    c.push_back({fmt::format("dense {} x {}", rows, cols), from_host_csr(std::move(h), Space::host)});
  }
  RmatParams rp;
  rp.scale = sized(14, 11);
  rp.edges = 12;
  rp.seed = rng();
  c.push_back({"R-MAT 2^14", rmat_matrix(rp, Space::host)});
  c.push_back({"R-MAT Laplacian 2^13", rmat_laplacian(RmatParams{13, 8, 0.57, 0.19, 0.19, rng()}, 0.5, Space::host)});
  // Row blocks in several waves with long rows: those are finished by a kernel
  // of their own (the smaller matrices above let their chunks finish them).
  c.push_back({"R-MAT 2^18 x20", rmat_matrix(RmatParams{sized(18, 12), 20, 0.57, 0.19, 0.19, rng()}, Space::host)});
  c.push_back({"1 x 70000", from_host_csr(ragged(1, 70000, 70000, rng), Space::host)});
  c.push_back({"70000 x 1", from_host_csr(ragged(70000, 1, 1, rng), Space::host)});
  c.push_back({"empty 500 x 300", CsrMatrix::zeros(500, 300, Space::host)});
  c.push_back({"0 x 0", CsrMatrix::zeros(0, 0, Space::host)});
  return c;
}
}  // namespace

TEST_CASE("GPU SpMV: every device algorithm equals host (stencils, coarse levels, power law, odd shapes)") {
  std::mt19937_64 rng(fresh_seed());
  for (const Case& k : cases(rng)) {
    CAPTURE(k.name);
    const CsrMatrix& Ah = k.A;
    const CsrMatrix Ad = Ah.to(Space::device);
    const Vector xh = random_vector(Ah.cols(), rng(), Space::host);
    const Vector y0 = random_vector(Ah.rows(), rng(), Space::host);
    // The scale of the rounding: 0.7 |A| |x| + |beta| |y0| (a row of 70000
    // random terms can sum to almost 0, where a relative difference says
    // nothing about the summation order).
    HostCsr habs = to_host_csr(Ah);
    for (double& v : habs.val) v = std::abs(v);
    std::vector<double> xabs = xh.to_vector(), y0abs = y0.to_vector();
    for (double& v : xabs) v = std::abs(v);
    for (double& v : y0abs) v = std::abs(v);
    for (double beta : {0.0, 1.3}) {
      Vector yh = y0.clone();
      spmv(0.7, Ah, xh, beta, yh);
      Vector ymag = Vector::from_vector(y0abs, Space::host);
      spmv(0.7, from_host_csr(habs, Space::host), Vector::from_vector(xabs, Space::host), beta, ymag);
      double mag = 0.0;
      for (double v : ymag.to_vector()) mag = std::max(mag, v);
      const std::vector<double> yref = yh.to_vector();
      std::vector<Component> algs;
      for (const std::string& alg : spmv_registry().names(Space::device)) algs.emplace_back(alg);
      // every path of the binned kernels: row blocks with 1 or 32 lanes per row (staged or not),
      // the warp bin, the thread bin
      algs.emplace_back("binned",
                        Options().set("thread_max_row", 0).set("warp_max_row", 0).set("entries_per_lane", 2048));
      algs.emplace_back("binned",
                        Options().set("thread_max_row", 0).set("warp_max_row", 0).set("entries_per_lane", 1));
      algs.emplace_back("binned", Options().set("thread_max_row", 0).set("warp_max_row", 0).set("stage", false));
      // small matrices in vector rows (the default; every small case without long rows) or in row blocks
      algs.emplace_back("binned", Options().set("thread_max_row", 0).set("warp_max_row", 0));
      algs.emplace_back("binned",
                        Options().set("thread_max_row", 0).set("warp_max_row", 0).set("small_vector", false));
      algs.emplace_back("binned", Options().set("thread_max_row", 0));
      algs.emplace_back("binned", Options().set("thread_max_row", 256));
      algs.emplace_back("binned", Options().set("thread_max_row", 0).set("warp_max_row", 0).set("max_units", 8192));
      algs.emplace_back("binned", Options().set("thread_max_row", 0).set("warp_max_row", 0).set("max_units", 300));
      // the vector rows at every count of lanes a row they are compiled for, on every matrix they take
      for (const char* lanes : {"2", "4", "8", "16", "32", "64", "128", "256"})
        algs.emplace_back("binned", Options()
                                        .set("thread_max_row", 0)
                                        .set("warp_max_row", 0)
                                        .set("sliced", "off")
                                        .set("vector_max_units", 1 << 30)
                                        .set("vector_lanes", lanes));
      // the sliced rows wherever no row passes 64 entries (any size), and never
      algs.emplace_back("binned", Options().set("sliced", "on"));
      algs.emplace_back("binned", Options().set("sliced", "off"));
      // the sorted slices on every power-law plan (any size), and never
      algs.emplace_back("binned", Options().set("sorted_slices", "on"));
      algs.emplace_back("binned", Options().set("sorted_slices", "off"));
      algs.emplace_back("binned", Options().set("sorted_slices", "on").set("sorted_chunk", 256));
      algs.emplace_back("cusparse", Options().set("alg", "csr_alg2"));
      for (const Component& alg : algs) {
        CAPTURE(alg.name);
        std::string opts;
        for (const auto& [key, o] : alg.options.values()) opts += key + "=" + o.text + " ";
        CAPTURE(opts);
        Vector yd = y0.to(Space::device);
        spmv(0.7, Ad, xh.to(Space::device), beta, yd, alg);
        const std::vector<double> got = yd.to_vector();
        double diff = 0.0;
        for (std::size_t i = 0; i < got.size(); ++i) diff = std::max(diff, std::abs(got[i] - yref[i]));
        CHECK(diff <= 1e-12 * mag);
      }
    }
  }
}

TEST_CASE("GPU binned SpMV: bins, fused products against their composition, bitwise repeatable") {
  std::mt19937_64 rng(fresh_seed());
  int long_rows_finished_in_chunks = 0, long_rows_own_kernel = 0;  // matrices with long rows, by path
  for (const Case& k : cases(rng)) {
    CAPTURE(k.name);
    const CsrMatrix& Ah = k.A;
    const CsrMatrix Ad = Ah.to(Space::device);
    const auto bins = cuda::spmv_binned_info(Ad);
    MESSAGE(k.name << ": " << bins.blocks << " blocks, " << bins.long_rows << " long rows in " << bins.chunks
                   << " chunks");
    const auto hh = to_host_csr(Ah);
    offset_t longest = 0;
    for (index_t i = 0; i < hh.rows; ++i) longest = std::max(longest, hh.row_ptr[i + 1] - hh.row_ptr[i]);
    CHECK(bins.max_row == longest);
    CHECK(bins.dense == spmv_dense_rows_fit(static_cast<std::int64_t>(Ah.nnz()), Ah.rows(), Ah.cols()));
    if (bins.dense) CHECK(bins.dense_lanes == spmv_dense_lanes(Ah.rows(), Ah.cols(), device::info().multiprocessors));
    CHECK((bins.long_rows > 0) == (longest > bins.units));
    // The plan follows the row-block rule (its invariants: host test "SpMV row
    // blocks"); the last block may be empty.
    const std::int64_t units_total = static_cast<std::int64_t>(Ah.nnz()) + Ah.rows();
    if (Ah.rows() > 0) {
      CHECK(bins.units == spmv_plan_units(Ah.nnz(), Ah.rows(), longest, SpmvRowBlocks::default_units,
                                          device::info().multiprocessors, SpmvRowBlocks::default_unstaged_mean,
                                          SpmvRowBlocks::default_power_law_units));
      CHECK(bins.blocks == units_total / bins.units + 1);
      CHECK(bins.finish_in_chunks ==
            spmv_blocks_in_one_small_wave(units_total, bins.units, device::info().multiprocessors));
      if (bins.long_rows > 0) (bins.finish_in_chunks ? long_rows_finished_in_chunks : long_rows_own_kernel) += 1;
    }
    const Vector xh = random_vector(Ah.cols(), rng(), Space::host);
    const Vector zh = random_vector(Ah.rows(), rng(), Space::host);
    const Vector xd = xh.to(Space::device), zd = zh.to(Space::device);
    // y = alpha A x + beta z into another vector
    Vector yh(Ah.rows(), Space::host), yd(Ah.rows(), Space::device);
    spmv_add(-0.6, Ah, xh, 1.7, zh, yh);
    spmv_add(-0.6, Ad, xd, 1.7, zd, yd);
    CHECK(max_rel_diff(yd.to_vector(), yh.to_vector()) < 1e-12);
    if (Ah.rows() != Ah.cols()) continue;
    // the relaxation sweep x_out = x + omega w (b - A x)
    const Vector wh = random_vector(Ah.rows(), rng(), Space::host);
    Vector oh(Ah.rows(), Space::host), od(Ah.rows(), Space::device);
    spmv_relax(Ah, xh, zh, wh, 0.66, oh);
    spmv_relax(Ad, xd, zd, wh.to(Space::device), 0.66, od);
    CHECK(max_rel_diff(od.to_vector(), oh.to_vector()) < 1e-12);
    {  // ... with b . x_out fused
      Scalars rs(2, Space::device);
      Vector od2(Ah.rows(), Space::device);
      spmv_relax(Ad, xd, zd, wh.to(Space::device), 0.66, od2, &rs, 1);
      CHECK(od2.to_vector() == od.to_vector());
      const double want = dot(zh, oh);
      CHECK(std::abs(rs.head(2)[1] - want) <= 1e-12 * std::max(1.0, std::abs(want)) * std::sqrt(double(Ah.rows()) + 1));
    }
    {  // a sweep from zero and its residual in one pass: x = omega w .* b, r = b - A x
      const Vector wd = wh.to(Space::device);
      Vector xf(Ah.rows(), Space::device), rf(Ah.rows(), Space::device);
      Vector xc(Ah.rows(), Space::device), rc(Ah.rows(), Space::device);
      spmv_relax_from_zero(Ad, zd, wd, 0.66, xf, rf);
      multiply(wd, zd, xc, 0.66);  // its composition on the device: the same values and summation order
      spmv_residual(Ad, xc, zd, rc);
      CHECK(xf.to_vector() == xc.to_vector());
      CHECK(rf.to_vector() == rc.to_vector());
      Vector xh0(Ah.rows(), Space::host), rh0(Ah.rows(), Space::host);
      spmv_relax_from_zero(Ah, zh, wh, 0.66, xh0, rh0);
      CHECK(xf.to_vector() == xh0.to_vector());
      CHECK(max_rel_diff(rf.to_vector(), rh0.to_vector()) < 1e-12);
    }
    // y = A x with x . y
    Scalars sh(3, Space::host), sd(3, Space::device);
    spmv_dot(Ah, xh, yh, sh, 1);
    spmv_dot(Ad, xd, yd, sd, 1);
    CHECK(max_rel_diff(yd.to_vector(), yh.to_vector()) < 1e-12);
    const double dh = sh.head(2)[1], dd = sd.head(2)[1];
    CHECK(std::abs(dd - dh) <= 1e-12 * std::max(1.0, std::abs(dh)) * std::sqrt(std::max<double>(1, Ah.nnz())));
    // Two runs give the same bits (fixed summation order, no atomics).
    Vector yd2(Ah.rows(), Space::device);
    Scalars sd2(3, Space::device);
    spmv_dot(Ad, xd, yd2, sd2, 1);
    CHECK(yd2.to_vector() == yd.to_vector());
    CHECK(sd2.head(2)[1] == dd);
  }
  // Both ways of finishing long rows ran (the R-MAT 2^18 case is small under SAGA_TEST_SIZE=small).
  CHECK(long_rows_finished_in_chunks > 0);
  if (!small_test_sizes()) CHECK(long_rows_own_kernel > 0);
}

namespace {
// rows x rows with rows of 9 to `upto` distinct random columns (every 101st
// row empty, every 7th of 64 entries): the sliced rows' matrices.
HostCsr sliced_rows_matrix(index_t rows, index_t upto, std::mt19937_64& rng) {
  std::uniform_int_distribution<index_t> L(9, upto), C(0, rows - 1);
  HostCsr h{rows, rows, {0}, {}, {}};
  for (index_t i = 0; i < rows; ++i) {
    const index_t len = i % 101 == 0 ? 0 : i % 7 == 0 ? 64 : L(rng);
    std::vector<index_t> c;
    while (static_cast<index_t>(c.size()) < len) {
      const index_t j = C(rng);
      if (std::find(c.begin(), c.end(), j) == c.end()) c.push_back(j);
    }
    append_row(h, std::move(c), rng);
  }
  return h;
}
// The vectors the solve phase's products read on a square matrix of `rows`
// rows, random (x, z, w, then the tentative prolongation's scale and e), and
// its aggregates: 4 rows each, every 13th row in none.
struct SolvePhaseInputs {
  Vector x, z, w;
  Array<index_t> agg;
  Vector scale, e;
  SolvePhaseInputs(index_t rows, std::mt19937_64& rng)
      : x(random_vector(rows, rng(), Space::device)),
        z(random_vector(rows, rng(), Space::device)),
        w(random_vector(rows, rng(), Space::device)),
        agg(aggregates_of_four(rows)),
        scale(random_vector(rows / 4 + 1, rng(), Space::device)),
        e(random_vector(rows / 4 + 1, rng(), Space::device)) {}
  static Array<index_t> aggregates_of_four(index_t rows) {
    std::vector<index_t> agg_h(rows);
    for (index_t i = 0; i < rows; ++i) agg_h[i] = i % 13 == 0 ? -1 : i / 4;
    return Array<index_t>::from_vector(agg_h, Space::device);
  }
};
// Every output functor of the solve phase, once through `a` on A (square):
// the vectors each writes, and the fused dots as one-element vectors.
std::vector<std::vector<double>> solve_phase_products(const SpmvAlgorithm& a, const CsrMatrix& Ad,
                                                      const SolvePhaseInputs& in) {
  const Vector &x = in.x, &z = in.z, &w = in.w, &scale = in.scale, &e = in.e;
  const Array<index_t>& agg = in.agg;
  const index_t rows = Ad.rows();
  std::vector<std::vector<double>> out;
  Vector y(rows, Space::device), y2(rows, Space::device);
  a.apply(0.7, Ad, x, 0.0, y);
  out.push_back(y.to_vector());
  a.apply_add(-0.6, Ad, x, 1.7, z, y);
  out.push_back(y.to_vector());
  Scalars s(2, Space::device);
  a.relax(Ad, x, z, w, 0.66, y, &s, 1);
  out.push_back(y.to_vector());
  out.push_back({s.head(2)[1]});
  a.apply_dot(Ad, x, y, s, 0);
  out.push_back(y.to_vector());
  out.push_back({s.head(1)[0]});
  a.smoothed_prolongation(Ad, w, 0.66, agg, scale, e, z, y);
  out.push_back(y.to_vector());
  a.relax_from_zero(Ad, z, w, 0.66, y, y2);
  out.push_back(y.to_vector());
  out.push_back(y2.to_vector());
  return out;
}
// New values of A (the same pattern, double storage) reach a copy made for
// them: `product` (y = A x, through the copy) gives, after the values double,
// twice its first result bit for bit, and the copy's pattern part (analysis
// `pattern_key`) stays.
void check_new_values_reach_copy(CsrMatrix& Ad, const char* pattern_key, const std::function<void(Vector&)>& product) {
  Ad.store_values_double();
  Vector y1(Ad.rows(), Space::device), y2(Ad.rows(), Space::device);
  product(y1);
  saga::scale(2.0, Ad.mutable_val());
  CHECK(Ad.has_analysis(pattern_key));
  product(y2);
  const auto a1 = y1.to_vector(), a2 = y2.to_vector();
  bool doubled = true;
  for (std::size_t i = 0; i < a1.size(); ++i) doubled = doubled && a2[i] == 2.0 * a1[i];
  CHECK(doubled);
}
}  // namespace

// The sliced rows sum each row in CSR order, as the thread bin does: every
// product of the solve phase must give the thread bin's bits, with double and
// float values, and the default options must take them where the rule says.
TEST_CASE("GPU binned SpMV sliced rows: every fused product equals the thread bin bitwise; new values reach the copy") {
  std::mt19937_64 rng(fresh_seed());
  const int sms = device::info().multiprocessors;
  // Past the default rule's bound (SpmvSliced::min_warps_per_sm, 20 warps of rows an SM), with a part-filled
  // last slice: rows of 9-64 (mean ~40: 8 entries in flight a thread), and
  // rows of 9-40 on 64 warps an SM (mean ~30: 4).
  struct Shape {
    index_t rows, upto;
    int unroll;
  };
  for (const Shape shape : {Shape{32 * SpmvSliced::min_warps_per_sm * sms + 777, 64, 8},
                            Shape{32 * 2 * SpmvSliced::wide_unroll_warps_per_sm * sms + 777, 40, 4}}) {
    const index_t rows = shape.rows;
    CAPTURE(rows);
    const CsrMatrix Ah = from_host_csr(sliced_rows_matrix(rows, shape.upto, rng), Space::host);
    CHECK(spmv_sliced_unroll(rows, Ah.nnz(), sms) == shape.unroll);
    CsrMatrix Ad = Ah.to(Space::device);
    const auto bins = cuda::spmv_binned_info(Ad);
    CHECK(bins.max_row == 64);
    CHECK(bins.sliced);
    CHECK(spmv_sliced_fit(rows, 64, 8, sms));
    CHECK_FALSE(spmv_sliced_fit(32 * SpmvSliced::min_warps_per_sm * sms - 1, 64, 8, sms));
    {  // The default options (sliced: auto) make the copy only in spmv_prepare, and only within the room given.
      const Vector x0 = random_vector(rows, rng(), Space::device);
      Vector y0(rows, Space::device);
      spmv(1.0, Ad, x0, 0.0, y0);
      CHECK_FALSE(Ad.has_analysis("spmv.sliced"));
      const std::size_t bytes = static_cast<std::size_t>(spmv_sliced_bytes(rows, Ad.nnz(), 8));
      CHECK(spmv_prepare(Ad, bytes - 1) == 0);
      CHECK_FALSE(Ad.has_analysis("spmv.sliced"));
      CHECK(spmv_prepare(Ad, bytes) == bytes);
      CHECK(Ad.has_analysis("spmv.sliced"));
      CHECK(spmv_prepare(Ad, bytes) == 0);  // made once
    }
    const auto sliced = spmv_registry().create(Component("binned", Options().set("sliced", "on")), Space::device);
    const auto thread =
        spmv_registry().create(Component("binned", Options().set("sliced", "off").set("thread_max_row", 64)), Space::device);
    const auto blocks = spmv_registry().create(Component("binned", Options().set("sliced", "off")), Space::device);
    const SolvePhaseInputs in(rows, rng);
    const Vector& x = in.x;
    const Vector xh = x.to(Space::host);
    for (const bool single : {false, true}) {
      CAPTURE(single);
      if (single) Ad.store_values_single();
      // Every output functor, once through each algorithm: the vectors it writes.
      auto run = [&](const SpmvAlgorithm& a) { return solve_phase_products(a, Ad, in); };
      const auto got = run(*sliced), want = run(*thread), other = run(*blocks);
      REQUIRE(got.size() == want.size());
      CHECK(run(*sliced) == got);  // repeatable, bit for bit
      for (std::size_t k = 0; k < got.size(); ++k) {
        CAPTURE(k);
        if (got[k].size() > 1) {
          CHECK(got[k] == want[k]);  // each row bit for bit
          CHECK(max_rel_diff(got[k], other[k]) < 1e-11);
        } else {  // a fused dot: its CTAs add their rows in rank order, not row order
          CHECK(std::abs(got[k][0] - want[k][0]) <= 1e-12 * std::max(1.0, std::abs(want[k][0])) * std::sqrt(double(rows)));
        }
      }
      // The default options (sliced: auto) take the sliced rows here.
      Vector yd(rows, Space::device);
      spmv(0.7, Ad, x, 0.0, yd);
      CHECK(yd.to_vector() == got[0]);
      // ... and the host's product within rounding (the values as the device stores them).
      Vector yh(rows, Space::host);
      spmv(0.7, Ad.to(Space::host), xh, 0.0, yh);
      CHECK(max_rel_diff(yd.to_vector(), yh.to_vector()) < 1e-12);
    }
    // New values (the same pattern): the copy of the values is made again by
    // the next product, under the default options too.
    check_new_values_reach_copy(Ad, "spmv.sliced", [&](Vector& y) { spmv(1.0, Ad, x, 0.0, y); });
  }
}

// The sorted slices (power-law matrices): every product of the solve phase
// against the row blocks and the host within rounding, repeatable bit for
// bit, with double and float values; the copy made by spmv_prepare within the
// room given (sorted_slices: auto), released, and its values made again after
// they change.
TEST_CASE("GPU binned SpMV sorted slices: power-law products equal the row blocks' and the host's; the copy's room") {
  std::mt19937_64 rng(fresh_seed());
  const int sms = device::info().multiprocessors;
  // Past the default rule's bound (20 warps of rows an SM), every kind of row:
  // short (sorted slices), 65 to the chunk's entries (a warp each), longer
  // (chunks; the chunk spmv_sorted_chunk gives these sizes is 2048).
  const int scale = 17;
  for (const bool laplacian : {true, false}) {
    CAPTURE(laplacian);
    const RmatParams params{scale, 16, 0.57, 0.19, 0.19, rng()};
    const CsrMatrix Ah = laplacian ? rmat_laplacian(params, 0.5, Space::host) : rmat_matrix(params, Space::host);
    const index_t rows = Ah.rows();
    REQUIRE(spmv_sorted_fit(rows, true, sms));
    const auto hh = to_host_csr(Ah);
    const int chunk = spmv_sorted_chunk(Ah.nnz(), sms);
    index_t mid = 0, longer = 0;
    for (index_t i = 0; i < rows; ++i) {
      const offset_t len = hh.row_ptr[i + 1] - hh.row_ptr[i];
      mid += len > SpmvSorted::max_row && len <= chunk;
      longer += len > chunk;
    }
    MESSAGE(fmt::format("R-MAT 2^{}{}: {} rows a warp each, {} in chunks of {}", scale, laplacian ? " Laplacian" : "",
                        mid, longer, chunk));
    CHECK(mid > 0);
    CHECK(longer > 0);
    CsrMatrix Ad = Ah.to(Space::device);
    {  // sorted_slices: auto makes the copy only in spmv_prepare, within the room given; spmv_release frees it.
      const Vector x0 = random_vector(rows, rng(), Space::device);
      Vector y0(rows, Space::device);
      spmv(1.0, Ad, x0, 0.0, y0);
      CHECK_FALSE(Ad.has_analysis("spmv.sorted"));
      CHECK(spmv_kept_bytes(Ad) == 0);
      const std::size_t bound = static_cast<std::size_t>(spmv_sorted_bytes(rows, Ad.nnz(), 8, chunk));
      CHECK(spmv_prepare(Ad, bound - 1) == 0);
      CHECK_FALSE(Ad.has_analysis("spmv.sorted"));
      const std::size_t kept = spmv_prepare(Ad, bound);
      CHECK(Ad.has_analysis("spmv.sorted"));
      CHECK(Ad.has_analysis("spmv.sorted.values"));  // the values under the rule's key too, counted and released
      CHECK(kept > 0);
      CHECK(kept <= bound);
      CHECK(spmv_kept_bytes(Ad) == kept);
      CHECK(spmv_prepare(Ad, bound) == 0);  // made once
      spmv_release(Ad);
      CHECK_FALSE(Ad.has_analysis("spmv.sorted"));
      CHECK_FALSE(Ad.has_analysis("spmv.sorted.values"));
      CHECK(spmv_kept_bytes(Ad) == 0);
      CHECK(spmv_prepare(Ad, bound) == kept);
    }
    const auto sorted = spmv_registry().create(Component("binned", Options().set("sorted_slices", "on")), Space::device);
    const auto blocks = spmv_registry().create(Component("binned", Options().set("sorted_slices", "off")), Space::device);
    // Rows past 512 entries in chunks instead, and no row in chunks (every
    // row of 65 entries or more a warp's): copies of their own, beside the default's.
    const auto chunk512 = spmv_registry().create(
        Component("binned", Options().set("sorted_slices", "on").set("sorted_chunk", 512)), Space::device);
    const auto chunk65536 = spmv_registry().create(
        Component("binned", Options().set("sorted_slices", "on").set("sorted_chunk", 65536)), Space::device);
    const SolvePhaseInputs in(rows, rng);
    const Vector& x = in.x;
    for (const bool single : {false, true}) {
      CAPTURE(single);
      if (single) Ad.store_values_single();
      auto run = [&](const SpmvAlgorithm& a) { return solve_phase_products(a, Ad, in); };
      const auto got = run(*sorted), want = run(*blocks), small_chunks = run(*chunk512),
                 warps = run(*chunk65536);
      CHECK(run(*chunk512) == small_chunks);
      CHECK(run(*chunk65536) == warps);
      CHECK(run(*sorted) == got);  // repeatable, bit for bit (the chunks' counts reset)
      // Each chunk size within rounding of the row blocks.
      const std::pair<const char*, const std::vector<std::vector<double>>*> chunked[] = {
          {"default chunk", &got}, {"chunks of 512", &small_chunks}, {"no chunks", &warps}};
      for (const auto& each : chunked) {
        const char* which = each.first;
        const std::vector<std::vector<double>>* products = each.second;
        CAPTURE(which);
        REQUIRE(products->size() == want.size());
        for (std::size_t k = 0; k < want.size(); ++k) {
          CAPTURE(k);
          const std::vector<double>& mine = (*products)[k];
          if (mine.size() > 1)
            CHECK(max_rel_diff(mine, want[k]) < 1e-11);
          else  // a fused dot
            CHECK(std::abs(mine[0] - want[k][0]) <=
                  1e-12 * std::max(1.0, std::abs(want[k][0])) * std::sqrt(double(Ad.nnz())));
        }
      }
      // The default options take the copy spmv_prepare made: the same bits.
      Vector yd(rows, Space::device);
      spmv(0.7, Ad, x, 0.0, yd);
      CHECK(yd.to_vector() == got[0]);
      // ... and the host's product within rounding (the values as the device stores them).
      Vector yh(rows, Space::host);
      spmv(0.7, Ad.to(Space::host), x.to(Space::host), 0.0, yh);
      CHECK(max_rel_diff(yd.to_vector(), yh.to_vector()) < 1e-12);
    }
    // New values (the same pattern): the values' copy is made again by the next product.
    check_new_values_reach_copy(Ad, "spmv.sorted", [&](Vector& y) {
      spmv(1.0, Ad, x, 0.0, y, Component("binned", Options().set("sorted_slices", "on")));
    });
  }
}

// The diagonal rows sum each row's entries in CSR order, as the thread bin
// does: every product of the solve phase (and its fused dots: both write a
// partial per 256 rows) must give the thread bin's bits, on the seed stencils
// with double and float values; matrices off the diagonals take no copy.
TEST_CASE("GPU binned SpMV diagonal rows: every fused product equals the thread bin bitwise; new values reach the copy") {
  std::mt19937_64 rng(fresh_seed());
  struct Shape {
    Stencil stencil;
    index_t N;
    int diagonals;
  };
  const int sms = device::info().multiprocessors;
  // Rows past the bound (20 warps an SM): 2D N = 300, 3D N = 45 on up to 140 SMs.
  for (const Shape shape : {Shape{Stencil::fd2d_5pt, 300, 5}, Shape{Stencil::fe2d_9pt, 300, 9},
                            Shape{Stencil::fd3d_7pt, 45, 7}, Shape{Stencil::fe3d_27pt, 45, 27}}) {
    CsrMatrix Ad = poisson(shape.stencil, shape.N, Space::device);
    const index_t rows = Ad.rows();
    CAPTURE(stencil_name(shape.stencil));
    CAPTURE(rows);
    REQUIRE(spmv_diagonals_fit(rows, Ad.nnz(), shape.diagonals, sms));
    {  // The default options (diagonals: auto) make the copy only in spmv_prepare, within the room given.
      std::vector<double> no_copy;
      const Vector x0 = random_vector(rows, rng(), Space::device);
      Vector y0(rows, Space::device);
      spmv(1.0, Ad, x0, 0.0, y0);
      CHECK(cuda::spmv_binned_info(Ad).diagonals == 0);
      const std::size_t bytes = static_cast<std::size_t>(spmv_diagonals_bytes(rows, shape.diagonals, 8));
      CHECK(spmv_prepare(Ad, bytes - 1) == 0);
      CHECK(Ad.has_analysis("spmv.diagonals"));  // the pattern, looked at whatever the room ...
      CHECK_FALSE(Ad.has_analysis("spmv.diagonals.values"));  // ... and no copy
      CHECK(cuda::spmv_binned_info(Ad).diagonals == 0);
      if (shape.diagonals <= 8) {  // without the copy short rows keep the thread bin: the bits the copy gives
        Vector y1(rows, Space::device);
        spmv(1.0, Ad, x0, 0.0, y1);
        no_copy = y1.to_vector();
      }
      CHECK(spmv_prepare(Ad, bytes) == bytes);
      CHECK(cuda::spmv_binned_info(Ad).diagonals == shape.diagonals);
      CHECK_FALSE(Ad.has_analysis("spmv.sliced"));  // the diagonal copy serves what a sliced one would
      CHECK(spmv_prepare(Ad, bytes) == 0);          // made once
      if (shape.diagonals <= 8) {
        Vector y2(rows, Space::device);
        spmv(1.0, Ad, x0, 0.0, y2);
        CHECK(y2.to_vector() == no_copy);
      }
      spmv_release(Ad);
      CHECK_FALSE(Ad.has_analysis("spmv.diagonals"));
    }
    const auto diagonal = spmv_registry().create(Component("binned", Options().set("diagonals", "on")), Space::device);
    // The thread bin on every row (no vector rows for small matrices, no sliced rows).
    const auto thread = spmv_registry().create(Component("binned", Options()
                                                                     .set("diagonals", "off")
                                                                     .set("sliced", "off")
                                                                     .set("small_vector", false)
                                                                     .set("thread_max_row", 64)),
                                               Space::device);
    const SolvePhaseInputs in(rows, rng);
    const Vector& x = in.x;
    for (const bool single : {false, true}) {
      CAPTURE(single);
      if (single) Ad.store_values_single();
      auto run = [&](const SpmvAlgorithm& a) { return solve_phase_products(a, Ad, in); };
      const auto got = run(*diagonal), want = run(*thread);
      CHECK(cuda::spmv_binned_info(Ad).diagonals == shape.diagonals);  // made by the first product (on)
      REQUIRE(got.size() == want.size());
      CHECK(run(*diagonal) == got);  // repeatable, bit for bit
      for (std::size_t k = 0; k < got.size(); ++k) {
        CAPTURE(k);
        CHECK(got[k] == want[k]);  // each row, and each fused dot, bit for bit
      }
      // ... and the host's product within rounding (the values as the device stores them).
      const Vector xh = x.to(Space::host);
      Vector yh(rows, Space::host);
      spmv(0.7, Ad.to(Space::host), xh, 0.0, yh);
      CHECK(max_rel_diff(got[0], yh.to_vector()) < 1e-12);
    }
    // New values (the same pattern): the copy of the values is made again by the next product.
    check_new_values_reach_copy(Ad, "spmv.diagonals", [&](Vector& y) { diagonal->apply(1.0, Ad, x, 0.0, y); });
    // A NaN among the values: no copy of them (a NaN would read as a pad), the bins serve the product.
    {
      std::vector<double> v = Ad.val().to_vector();
      v[v.size() / 2] = std::nan("");
      Ad.mutable_val() = Array<double>::from_vector(v, Space::device);
      Vector y3(rows, Space::device);
      diagonal->apply(1.0, Ad, x, 0.0, y3);
      const auto a3 = y3.to_vector();
      CHECK(std::count_if(a3.begin(), a3.end(), [](double t) { return std::isnan(t); }) == 1);
    }
  }
  // Matrices that pass the shape's rule but not the pattern's take no copy, and the bins give the product.
  const auto diagonal = spmv_registry().create(Component("binned", Options().set("diagonals", "on")), Space::device);
  auto refused = [&](const HostCsr& h, const char* why) {
    CAPTURE(why);
    const CsrMatrix G = from_host_csr(h, Space::device);
    REQUIRE(spmv_diagonals_fit(G.rows(), G.nnz(), cuda::spmv_binned_info(G).max_row, sms));
    CHECK(spmv_diagonals_of(G.rows(), G.nnz(), h.row_ptr.data(), h.col.data(), cuda::spmv_binned_info(G).max_row, sms)
              .empty());  // the host model agrees
    const Vector xg = random_vector(G.cols(), rng(), Space::device);
    Vector yg(G.rows(), Space::device), yh(G.rows(), Space::host);
    diagonal->apply(1.0, G, xg, 0.0, yg);
    CHECK(G.has_analysis("spmv.diagonals"));          // looked at once ...
    CHECK(cuda::spmv_binned_info(G).diagonals == 0);  // ... and refused
    spmv(1.0, G.to(Space::host), xg.to(Space::host), 0.0, yh);
    CHECK(max_rel_diff(yg.to_vector(), yh.to_vector()) < 1e-12);
  };
  const HostCsr five = to_host_csr(poisson(Stencil::fd2d_5pt, 300, Space::host));
  {  // an entry off the diagonals: one interior row's last column one further (still ascending)
    HostCsr h = five;
    h.col[h.row_ptr[45151] - 1] += 1;
    refused(h, "an entry off the diagonals");
  }
  {  // the probe row (45001: row 45000 lies on the face x = 0) with its first two entries swapped
    HostCsr h = five;
    const offset_t k = h.row_ptr[45001];
    std::swap(h.col[k], h.col[k + 1]);
    std::swap(h.val[k], h.val[k + 1]);
    refused(h, "the probe row's columns descending");
  }
  {  // the longest row (10 entries: row 0 of 2D 9-pt with 6 more) outside the probe's window
    const HostCsr nine = to_host_csr(poisson(Stencil::fe2d_9pt, 300, Space::host));
    HostCsr h;
    h.rows = nine.rows;
    h.cols = nine.cols;
    h.row_ptr.push_back(0);
    for (index_t r = 0; r < nine.rows; ++r) {
      for (offset_t k = nine.row_ptr[r]; k < nine.row_ptr[r + 1]; ++k) {
        h.col.push_back(nine.col[k]);
        h.val.push_back(nine.val[k]);
      }
      for (index_t extra = 0; r == 0 && extra < 6; ++extra) {
        h.col.push_back(1000 + extra);
        h.val.push_back(-0.5);
      }
      h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
    }
    refused(h, "no row of the longest length in the probe's window");
  }
}

// A build with 64-bit row offsets keeps a 32-bit copy of them for the binned
// SpMV's CSR bins where a matrix fits it (prepare_offsets, within the room given):
// the same entries in the same order, so every product gives the bits it gave
// from the matrix's own offsets. A 32-bit build keeps none (nothing to narrow).
TEST_CASE("GPU binned SpMV: a 64-bit build's 32-bit offsets copy gives the same bits; a 32-bit build makes none") {
  const std::uint64_t seed = fresh_seed();
  MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  // The CSR bins alone: the diagonal, sliced and sorted copies read arrays of their own.
  const auto bins = spmv_registry().create(
      Component("binned", Options().set("diagonals", "off").set("sliced", "off").set("sorted_slices", "off")),
      Space::device);
  const bool wide = sizeof(offset_t) == 8;
  for (Case& c : cases(rng)) {
    CAPTURE(c.name);
    const CsrMatrix Ad = c.A.to(Space::device);
    const index_t rows = Ad.rows(), cols = Ad.cols();
    const Vector x = random_vector(cols, rng(), Space::device);
    const Vector z = random_vector(rows, rng(), Space::device);
    auto products = [&] {
      std::vector<std::vector<double>> out;
      Vector y(rows, Space::device);
      bins->apply(0.7, Ad, x, 0.0, y);
      out.push_back(y.to_vector());
      bins->apply_add(-0.6, Ad, x, 1.7, z, y);
      out.push_back(y.to_vector());
      if (rows == cols && rows > 0) {
        const SolvePhaseInputs in(rows, rng);
        for (auto& v : solve_phase_products(*bins, Ad, in)) out.push_back(std::move(v));
      }
      return out;
    };
    std::mt19937_64 keep = rng;  // the same inputs for both runs
    const auto own = products();
    CHECK_FALSE(Ad.has_analysis("spmv.offsets32"));  // made by a prepare only
    const std::size_t bytes = sizeof(std::int32_t) * (static_cast<std::size_t>(rows) + 1);
    CHECK(bins->prepare(Ad, bytes) == 0);  // the copies' turn: none under these options
    if (rows > 0) CHECK(bins->prepare_offsets(Ad, bytes - 1) == 0);  // not within less room than it takes
    const std::size_t made = bins->prepare_offsets(Ad, bytes);
    CHECK(made == (wide && rows > 0 ? bytes : 0));
    CHECK(Ad.has_analysis("spmv.offsets32") == (made > 0));
    CHECK(bins->kept_bytes(Ad) == made);
    CHECK(bins->prepare_offsets(Ad, bytes) == 0);  // made once
    rng = keep;
    const auto narrow = products();
    REQUIRE(narrow.size() == own.size());
    for (std::size_t k = 0; k < own.size(); ++k) {
      CAPTURE(k);
      CHECK(narrow[k] == own[k]);  // bit for bit, fused dots included
    }
    bins->release(Ad);
    CHECK_FALSE(Ad.has_analysis("spmv.offsets32"));
    CHECK(bins->kept_bytes(Ad) == 0);
  }
}

// The cycle makes the SpMV copies of its operators (3D 27-pt's fine matrix:
// its diagonal copy, ahead of a sliced one); a resetup frees them before its
// own products and the next cycle makes them again, and the products give the
// same results with and without them.
TEST_CASE("GPU SpMV copies: made by the cycle, freed by a resetup, made again by the next cycle") {
  std::mt19937_64 rng(fresh_seed());
  const int sms = device::info().multiprocessors;
  // 3D 27-pt with at least min_warps_per_sm (20) warps of rows an SM on the fine level (N=44: 85184 rows on 132 SMs).
  const index_t N = cube_side_for(std::int64_t{32} * SpmvSliced::min_warps_per_sm * sms, 20);
  CAPTURE(N);
  const CsrMatrix A = poisson(Stencil::fe3d_27pt, N, Space::device);
  Hierarchy h(A.clone(), SetupParams{});
  const CsrMatrix& A0 = h.levels().front().A;
  CHECK_FALSE(A0.has_analysis("spmv.diagonals"));  // the setup's own products made none
  CHECK_FALSE(A0.has_analysis("spmv.sliced"));
  const Vector r = random_vector(A.rows(), rng(), Space::device);
  Vector z1(A.rows(), Space::device), z2(A.rows(), Space::device), z3(A.rows(), Space::device);
  {
    const MultigridCycle cycle(h, CycleParams{});
    REQUIRE(cuda::spmv_binned_info(h.levels().front().A).diagonals == 27);  // room under the setup's peak
    CHECK_FALSE(h.levels().front().A.has_analysis("spmv.sliced"));          // the diagonal copy serves it
    cycle.apply(r, z1);
  }
  h.resetup(A.clone());
  CHECK_FALSE(h.levels().front().A.has_analysis("spmv.diagonals"));
  CHECK_FALSE(h.levels().front().A.has_analysis("spmv.diagonals.values"));
  {
    const MultigridCycle cycle(h, CycleParams{});
    CHECK(cuda::spmv_binned_info(h.levels().front().A).diagonals == 27);
    cycle.apply(r, z2);
  }
  CHECK(z2.to_vector() == z1.to_vector());  // the same values: the same cycle, bit for bit
  // Without the copies (released): the fine level's products from its CSR arrays (the bins sum each row in
  // another order), the same cycle within rounding.
  Hierarchy plain(A.clone(), SetupParams{});
  const MultigridCycle cycle(plain, CycleParams{});
  spmv_release(plain.levels().front().A);
  CHECK(cuda::spmv_binned_info(plain.levels().front().A).diagonals == 0);
  cycle.apply(r, z3);
  CHECK(max_rel_diff(z3.to_vector(), z1.to_vector()) < 1e-11);
}

// The cycle sizes its SpMV copies against the process's peak less the Krylov
// method's vectors (MultigridCycle): the fewer the method allocates, the more
// room; the count each method gives (krylov_workspace_vectors) is what a solve
// allocates; the copies and the method's vectors stay under the setup's peak.
TEST_CASE("GPU SpMV copies: the cycle leaves room for the Krylov method's own vectors, as many as it allocates") {
  std::mt19937_64 rng(fresh_seed());
  {
    const FineCopyHierarchy f = fine_copy_hierarchy();
    const Hierarchy& h = *f.h;
    const CsrMatrix& A0 = f.A0();
    const std::size_t vec = f.vec, copy = f.copy;
    // Ballast up to where the cycle's own vectors (~1.2 of the fine level's) and 3 reserved ones leave
    // room for the copy (3.5 vectors: 7 floats a row) and ~1.8 vectors more, and 8 reserved ones do not.
    const device::PoolUsage u = device::pool_usage();
    REQUIRE(u.peak > u.current + copy + 6 * vec);
    const Array<double> ballast((u.peak - u.current - copy - 6 * vec) / sizeof(double), Space::device, "ballast");
    {
      const MultigridCycle eight(h, CycleParams{}, 8);
      CHECK(cuda::spmv_binned_info(A0).diagonals == 0);
      CHECK(spmv_kept_bytes(A0) == 0);  // no room for the fine level's copy
      if (sizeof(offset_t) == 4) {
        CHECK(eight.spmv_copies().bytes == 0);  // nor for any other
        CHECK(eight.spmv_copies().operators == 0);
      } else {  // a 64-bit build: at most the 32-bit offsets of small operators (4 B a row) in what is left
        CHECK(eight.spmv_copies().bytes < vec);
      }
    }
    const MultigridCycle three(h, CycleParams{}, 3);
    CHECK(cuda::spmv_binned_info(A0).diagonals == 7);
    CHECK(spmv_kept_bytes(A0) == copy);  // the copy's bytes, as the cycle reports them
    CHECK(three.spmv_copies().bytes >= copy);
    CHECK(three.spmv_copies().bytes <= copy + 2 * vec);  // within the room it had
    CHECK(three.spmv_copies().operators >= 1);
    const Vector r1(A0.rows(), Space::device), r2(A0.rows(), Space::device), r3(A0.rows(), Space::device);
    CHECK(device::pool_usage().peak == u.peak);  // the copy and three vectors under the setup's peak
  }
  // Each method's solve allocates the vectors it says (the pool's high-water mark over the solve; the
  // scalars and histories add less than a vector), at N = 80 (512000 rows: a vector of 4 MB).
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, sized(80, 40), Space::device);
  const Vector b = random_vector(A.rows(), rng(), Space::device);
  const double vec = sizeof(double) * static_cast<double>(A.rows());
  struct Method {
    Component type, pre;
  };
  for (const Method& m : {Method{Component("pcg"), Component("amg")}, Method{Component("fcg"), Component("amg")},
                          Method{Component("bicgstab"), Component("amg")},
                          Method{Component("gmres", Options().set("restart", 5)), Component("amg")},
                          Method{Component("fgmres", Options().set("restart", 5)), Component("amg")},
                          Method{Component("amg"), Component("amg")},
                          Method{Component("fcg"), Component("pcg", Options().set("max_iterations", 3))}}) {
    CAPTURE(m.type.name);
    CAPTURE(m.pre.name);
    const SolverParams sp = solver_params(m.type, m.pre, 1e-6);
    const Solver solver(A, AmgParams{}, sp);
    Vector x = Vector::zeros(A.rows(), Space::device);
    device::reset_peak_memory();
    const std::size_t before = device::pool_usage().current;
    const SolveResult res = solver.solve(b, x);
    CHECK(res.converged);
    const double grew = static_cast<double>(device::pool_usage().peak - before);
    const int said = krylov_workspace_vectors(sp, Space::device);
    MESSAGE(m.type.name << " (" << m.pre.name << "): " << grew / vec << " vectors at the peak, said " << said);
    CHECK(grew >= said * vec);
    CHECK(grew < (said + 1) * vec);
  }
}

TEST_CASE("GPU multigrid cycle with r . z fused into its last sweep equals cycle + dot, and the host cycle") {
  std::mt19937_64 rng(fresh_seed());
  for (Stencil s : {Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const CsrMatrix Ah = poisson(s, sized(24, 12), Space::host);
    AmgParams same;  // the same coarse size on both backends (its default differs: coarse_size_for)
    same.coarse_size = 500;
    const AmgPreconditioner Mh(Ah, same), Md(Ah.to(Space::device), same);
    const Vector rh = random_vector(Ah.rows(), rng(), Space::host), rd = rh.to(Space::device);
    Vector zh(Ah.rows(), Space::host), zd(Ah.rows(), Space::device), zd2(Ah.rows(), Space::device);
    Scalars sh(1, Space::host), sd(1, Space::device);
    Mh.apply_dot(rh, zh, sh, 0);
    Md.apply_dot(rd, zd, sd, 0);
    Md.apply(rd, zd2);
    CHECK(zd.to_vector() == zd2.to_vector());  // fusing the dot changes nothing else
    CHECK(max_rel_diff(zd.to_vector(), zh.to_vector()) < 1e-10);
    const double want = dot(rd, zd);
    CHECK(std::abs(sd.head(1)[0] - want) <= 1e-12 * std::abs(want));
    CHECK(std::abs(sh.head(1)[0] - want) <= 1e-10 * std::abs(want));
  }
}

TEST_CASE("GPU CG updates equal host; a breakdown stops the updates") {
  std::mt19937_64 rng(fresh_seed());
  const std::size_t n = 77777;
  const Vector q = random_vector(n, rng(), Space::host), Aq = random_vector(n, rng(), Space::host),
               z = random_vector(n, rng(), Space::host);
  Vector xh = random_vector(n, rng(), Space::host), rh = random_vector(n, rng(), Space::host);
  Vector xd = xh.to(Space::device), rd = rh.to(Space::device);
  Vector qh = q.clone(), qd = q.to(Space::device);
  const std::vector<double> head{0.8, 0.5, 2.0, -0.3, 2.0, 0.0, 1.0, 0.9};  // rz rz_old qAq zAq count status h0 h1
  for (bool flexible : {false, true}) {
    Scalars sh(cg_slot::history + 4, Space::host), sd(cg_slot::history + 4, Space::device);
    sh.set_head(head);
    sd.set_head(head);
    cg_direction(sh, z, qh, flexible);
    cg_direction(sd, z.to(Space::device), qd, flexible);
    CHECK(max_rel_diff(qd.to_vector(), qh.to_vector()) < 1e-14);
    cg_step(sh, qh, Aq, xh, rh);
    cg_step(sd, qd, Aq.to(Space::device), xd, rd);
    CHECK(max_rel_diff(xd.to_vector(), xh.to_vector()) < 1e-14);
    CHECK(max_rel_diff(rd.to_vector(), rh.to_vector()) < 1e-14);
    const auto a = sh.head(cg_slot::history + 3), b = sd.head(cg_slot::history + 3);
    CHECK(b[cg_slot::count] == 3.0);
    CHECK(b[cg_slot::rz_old] == 0.8);
    CHECK(b[cg_slot::history + 2] == doctest::Approx(a[cg_slot::history + 2]).epsilon(1e-13));
  }
  // q^T A q <= 0: status set, x and r and the history unchanged.
  Scalars sd(cg_slot::history + 4, Space::device);
  std::vector<double> bad = head;
  bad[cg_slot::qAq] = -1.0;
  sd.set_head(bad);
  const auto x_before = xd.to_vector();
  cg_step(sd, qd, Aq.to(Space::device), xd, rd);
  const auto s = sd.head(cg_slot::history + 2);
  CHECK(s[cg_slot::status] == 1.0);
  CHECK(s[cg_slot::count] == 2.0);
  CHECK(xd.to_vector() == x_before);
}

TEST_CASE("GPU PCG replayed as a CUDA graph: the same iterates bitwise as kernel by kernel") {
  std::mt19937_64 rng(fresh_seed());
  for (Stencil s : {Stencil::fd3d_7pt, Stencil::fe2d_9pt}) {
    CAPTURE(stencil_name(s));
    const CsrMatrix A = poisson(s, stencil_dim(s) == 2 ? sized(200, 64) : sized(40, 14), Space::device);
    const Vector b = random_vector(A.rows(), rng(), Space::device);
    const auto exec = Executor::cuda();
    SolveResult r[3];
    std::vector<double> x_of[3];
    const char* modes[3] = {"auto", "off", "auto"};
    for (int m = 0; m < 3; ++m) {
      SolverParams sp;
      sp.type = Component("pcg", Options().set("graph", modes[m]));
      const Solver solver(A, AmgParams{}, sp, exec);
      Vector x = Vector::zeros(A.rows(), Space::device);
      r[m] = solver.solve(b, x);
      x_of[m] = x.to_vector();
    }
    CHECK(r[0].converged);
    CHECK(r[0].launch == "graph");
    CHECK(r[1].launch == "kernels");
    CHECK(r[1].launch_note == "graph: off");
    CHECK(r[0].residual_history == r[1].residual_history);
    CHECK(x_of[0] == x_of[1]);
    CHECK(r[2].residual_history == r[0].residual_history);  // and run after run
    // The same iteration count as the host solve.
    Vector xh = Vector::zeros(A.rows(), Space::host);
    const SolveResult rh = Solver(A.to(Space::host), AmgParams{}, SolverParams{}).solve(b.to(Space::host), xh);
    CHECK(std::abs(rh.iterations - r[0].iterations) <= 1);
    // Checked every iteration, every 4, every 50 and when the rate says (0, the
    // default of r[0..2]): the device stops at convergence, so the same iterates.
    for (int every : {1, 4, 50}) {
      CAPTURE(every);
      SolverParams spk;
      spk.type = Component("pcg", Options().set("check_every", every));
      Vector xk = Vector::zeros(A.rows(), Space::device);
      const SolveResult rk = Solver(A, AmgParams{}, spk, exec).solve(b, xk);
      CHECK(rk.converged);
      CHECK(rk.iterations == r[0].iterations);
      CHECK(rk.residual_history == r[0].residual_history);
      CHECK(xk.to_vector() == x_of[0]);
    }
  }
  {  // Two sweeps each way: the smoother's scratch vector, made on first need in
     // the uncaptured first iteration, is then captured; the same iterates bitwise.
    const CsrMatrix A = poisson(Stencil::fd3d_7pt, sized(32, 12), Space::device);
    const Vector b = random_vector(A.rows(), rng(), Space::device);
    AmgParams ap;
    ap.pre_sweeps = ap.post_sweeps = 2;
    std::vector<double> hist[2], xs[2];
    const char* modes[2] = {"auto", "off"};
    for (int m = 0; m < 2; ++m) {
      SolverParams sp;
      sp.type = Component("pcg", Options().set("graph", modes[m]));
      Vector x = Vector::zeros(A.rows(), Space::device);
      const SolveResult r = Solver(A, ap, sp, Executor::cuda()).solve(b, x);
      CHECK(r.converged);
      CHECK(r.launch == (m == 0 ? "graph" : "kernels"));
      hist[m] = r.residual_history;
      xs[m] = x.to_vector();
    }
    CHECK(hist[0] == hist[1]);
    CHECK(xs[0] == xs[1]);
  }
  // On the legacy default stream (no executor of its own) a graph cannot be
  // captured: the solve runs kernel by kernel and says why.
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, sized(64, 32), Space::device);
  const Vector b = random_vector(A.rows(), rng(), Space::device);
  Vector x = Vector::zeros(A.rows(), Space::device);
  const SolveResult r = Solver(A, AmgParams{}, SolverParams{}, Executor::default_for(Space::device)).solve(b, x);
  CHECK(r.converged);
  CHECK(r.launch == "kernels");
  CHECK(r.launch_note.find("legacy default stream") != std::string::npos);
  // fcg and cg take the same path.
  for (const char* m : {"fcg", "cg"}) {
    SolverParams sp;
    sp.type = m;
    sp.max_iterations = 2000;
    Vector y = Vector::zeros(A.rows(), Space::device);
    const SolveResult rm = Solver(A, AmgParams{}, sp, Executor::cuda()).solve(b, y);
    CHECK(rm.converged);
    CHECK(rm.launch == "graph");
  }
}

// A Solver keeps the CG vectors and the iteration's graph between solves
// (KrylovState): a later solve into the same x array replays the graph from its
// first iteration. It must give bitwise what a fresh Solver gives, whatever the
// right-hand side and the initial guess, and capture again where the graph no
// longer fits (another x array, a resetup, dependent launches switched).
TEST_CASE("GPU solves keep the iteration's graph: the same iterates bitwise as a fresh Solver") {
  std::mt19937_64 rng(fresh_seed());
  const auto exec = Executor::cuda();
  ExecutorScope scope(exec);
  struct Restore {
    ~Restore() { device::set_dependent_launch(true); }
  } restore;
  const std::string kept_note = "graph kept from an earlier solve";
  for (const char* method : {"pcg", "fcg"}) {
    for (Stencil s : {Stencil::fd3d_7pt, Stencil::fe2d_9pt}) {
      CAPTURE(method);
      CAPTURE(stencil_name(s));
      const CsrMatrix A = poisson(s, stencil_dim(s) == 2 ? sized(160, 48) : sized(32, 12), Space::device);
      SolverParams sp;
      sp.type = method;
      Solver solver(A, AmgParams{}, sp, exec);
      // What a Solver that never solved before gives for (b, x0).
      const auto fresh = [&](const Vector& b, const Vector& x0, std::vector<double>& x_out) {
        Vector x = x0.clone();
        const SolveResult r = Solver(A, AmgParams{}, sp, exec).solve(b, x);
        x_out = x.to_vector();
        return r;
      };
      Vector x = Vector::zeros(A.rows(), Space::device);
      for (int k = 0; k < 4; ++k) {
        CAPTURE(k);
        const Vector b = random_vector(A.rows(), rng(), Space::device);
        // Solves 0 and 1 from zero, 2 and 3 from a random guess.
        const Vector x0 = k < 2 ? Vector::zeros(A.rows(), Space::device) : random_vector(A.rows(), rng(), Space::device);
        copy(x0, x);
        const SolveResult r = solver.solve(b, x);
        std::vector<double> xf;
        const SolveResult rf = fresh(b, x0, xf);
        CHECK(r.converged);
        CHECK(r.launch == "graph");
        CHECK(r.launch_note == (k == 0 ? "" : kept_note));
        CHECK(rf.launch_note == "");
        CHECK(r.residual_history == rf.residual_history);
        CHECK(x.to_vector() == xf);
      }
      // Another x array: its own capture (the kept graph writes the first one).
      const Vector b = random_vector(A.rows(), rng(), Space::device);
      std::vector<double> xf;
      const SolveResult rf = fresh(b, Vector::zeros(A.rows(), Space::device), xf);
      Vector y = Vector::zeros(A.rows(), Space::device);
      SolveResult r = solver.solve(b, y);
      CHECK(r.launch_note == "");
      CHECK(r.residual_history == rf.residual_history);
      CHECK(y.to_vector() == xf);
      fill(y, 0.0);
      r = solver.solve(b, y);
      CHECK(r.launch_note == kept_note);
      CHECK(y.to_vector() == xf);
      // Dependent launches switched: captured again, the same bits.
      device::set_dependent_launch(false);
      fill(y, 0.0);
      r = solver.solve(b, y);
      CHECK(r.launch_note == "");
      CHECK(y.to_vector() == xf);
      device::set_dependent_launch(true);
      // Released: made again.
      solver.release_workspace();
      fill(y, 0.0);
      r = solver.solve(b, y);
      CHECK(r.launch_note == "");
      CHECK(y.to_vector() == xf);
    }
  }
  // A resetup drops what the solves kept (the graph holds the old arrays): a
  // solve after it equals the solve of a Solver that had not solved before it.
  const CsrMatrix A1 = poisson(Stencil::fd3d_7pt, sized(32, 12), Space::host);
  HostCsr h = to_host_csr(A1);
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k)
      h.val[k] *= h.col[k] == i ? 2.0 : 1.0 + 0.25 * std::sin(0.1 * (i + h.col[k]));  // symmetric, dominant
  const CsrMatrix A2 = from_host_csr(h, Space::device);
  const Vector b = random_vector(A1.rows(), rng(), Space::device);
  std::vector<double> xs[2], hist[2];
  for (int solved_before = 0; solved_before < 2; ++solved_before) {
    Solver solver(A1.to(Space::device), AmgParams{}, SolverParams{}, exec);
    Vector x = Vector::zeros(A1.rows(), Space::device);
    if (solved_before) CHECK(solver.solve(b, x).converged);
    solver.resetup(A2.clone());
    fill(x, 0.0);
    const SolveResult r = solver.solve(b, x);
    CHECK(r.converged);
    CHECK(r.launch_note == "");
    xs[solved_before] = x.to_vector();
    hist[solved_before] = r.residual_history;
  }
  CHECK(xs[0] == xs[1]);
  CHECK(hist[0] == hist[1]);
}

// Dependent launches (core/device.hpp, sparse/cuda/launch.cuh) let a kernel be
// scheduled while the one ahead of it finishes; each waits for it before it
// touches memory. A kernel that read too early would show here as iterates
// that differ from the plain launches' or from one run to the next.
TEST_CASE("GPU dependent launches: the same products and iterates bitwise as plain launches") {
  const device::Info info = device::info();
  const char* env = std::getenv("SAGA_DEPENDENT_LAUNCH");
  const bool env_off = env && std::string(env) == "0";
  // On by default where the device has it; SAGA_DEPENDENT_LAUNCH=0 turns it off.
  CHECK(device::dependent_launch() == (info.cc_major >= 9 && !env_off));
  struct Restore {
    ~Restore() { device::set_dependent_launch(true); }
  } restore;
  std::mt19937_64 rng(fresh_seed());
  const auto exec = Executor::cuda();
  ExecutorScope scope(exec);
  // Chains of products with a fused dot through every bin: each reads the
  // vector the one before wrote, on one stream.
  const index_t ragged_n = sized(20000, 4000);  // rows up to n entries: split rows past 2048
  for (const CsrMatrix& A0 : {poisson(Stencil::fd3d_7pt, sized(40, 12), Space::host),
                              poisson(Stencil::fe2d_9pt, sized(300, 40), Space::host),
                              poisson(Stencil::fe3d_27pt, sized(30, 10), Space::host),
                              rmat_laplacian(RmatParams{sized(14, 11), 8, 0.57, 0.19, 0.19, rng()}, 0.5, Space::host),
                              from_host_csr(ragged(ragged_n, ragged_n, ragged_n, rng), Space::host)}) {
    const CsrMatrix A = A0.to(Space::device);
    CAPTURE(A.rows());
    CAPTURE(A.nnz());
    const Vector x0 = random_vector(A.cols(), rng(), Space::device);
    std::vector<double> y_of[2], dots_of[2];
    for (int dependent = 1; dependent >= 0; --dependent) {
      device::set_dependent_launch(dependent == 1);
      CHECK(device::dependent_launch() == (dependent == 1 && info.cc_major >= 9));
      Vector x = x0.clone(), y = Vector::zeros(A.rows(), Space::device);
      Scalars s(8, Space::device);
      std::vector<double> dots;
      for (int k = 0; k < 8; ++k) {  // y = A x with x . y, then x = y / sqrt(n): each reads the last one's output
        spmv_dot(A, x, y, s, k % 4);
        axpby(1.0 / std::sqrt(static_cast<double>(A.rows())), y, 0.0, x);
        if (k % 4 == 3) {
          const std::vector<double> h = s.head(4);
          dots.insert(dots.end(), h.begin(), h.end());
        }
      }
      y_of[dependent] = y.to_vector();
      dots_of[dependent] = dots;
    }
    CHECK(y_of[0] == y_of[1]);
    CHECK(dots_of[0] == dots_of[1]);
  }
  // Whole solves: graph-replayed and kernel by kernel, each way.
  for (Stencil st : {Stencil::fd3d_7pt, Stencil::fe2d_9pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(st));
    const CsrMatrix A =
        poisson(st, stencil_dim(st) == 2 ? sized(200, 64) : st == Stencil::fe3d_27pt ? sized(30, 12) : sized(40, 14),
                Space::device);
    const Vector b = random_vector(A.rows(), rng(), Space::device);
    std::vector<double> hist[4], xs[4];
    for (int m = 0; m < 4; ++m) {  // {graph, kernels} x {dependent, plain}
      device::set_dependent_launch(m < 2);
      SolverParams sp;
      sp.type = Component("pcg", Options().set("graph", m % 2 == 0 ? "auto" : "off"));
      const Solver solver(A, AmgParams{}, sp, exec);
      for (int rep = 0; rep < 3; ++rep) {  // replays of the same graph and fresh launches agree
        Vector x = Vector::zeros(A.rows(), Space::device);
        const SolveResult r = solver.solve(b, x);
        CHECK(r.converged);
        CHECK(r.launch == (m % 2 == 0 ? "graph" : "kernels"));
        if (rep == 0) {
          hist[m] = r.residual_history;
          xs[m] = x.to_vector();
        } else {
          CHECK(r.residual_history == hist[m]);
          CHECK(x.to_vector() == xs[m]);
        }
      }
    }
    for (int m = 1; m < 4; ++m) {
      CHECK(hist[m] == hist[0]);
      CHECK(xs[m] == xs[0]);
    }
  }
}
