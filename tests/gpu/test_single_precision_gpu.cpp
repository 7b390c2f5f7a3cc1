// Single-precision storage on the GPU (CsrMatrix::store_values_single,
// amg.hierarchy_precision: float): every device SpMV path (thread, warp, row
// block and long-row bins, scalar, CSR-vector) and the fused products read
// float values and equal the host's products on the rounded doubles; cuSPARSE
// refuses them clearly; the float hierarchy on the device equals the host's
// (values, iterations), frees the bytes it promises, and survives a resetup.
#include <algorithm>
#include <cmath>

#include "amg/hierarchy.hpp"
#include "api/saga.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv.hpp"
#include "sparse/transpose.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/device_memory.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}
}  // namespace

TEST_CASE("GPU SpMV on single-precision values equals the host's on the rounded doubles, every bin") {
  std::mt19937_64 rng(fresh_seed());
  std::vector<std::pair<std::string, CsrMatrix>> cases;
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt})
    cases.emplace_back(stencil_name(s), poisson(s, stencil_dim(s) == 2 ? sized(70, 30) : sized(19, 10), Space::host));
  RmatParams rp;
  rp.scale = sized(14, 11);
  rp.edges = 12;
  rp.seed = rng();
  cases.emplace_back("R-MAT", rmat_matrix(rp, Space::host));  // long rows: chunks across CTAs
  RandomSpec spec;
  spec.rows = 400;
  spec.cols = 9000;
  spec.density = 0.002;
  spec.long_rows = 3;  // ~8100 entries: longer than a CTA block
  cases.emplace_back("random with long rows", from_host_csr(random_csr(spec, rng), Space::host));
  cases.emplace_back("empty 50 x 30", CsrMatrix::zeros(50, 30, Space::host));
  std::vector<Component> algs{Component("binned"), Component("scalar"), Component("csr_vector")};
  algs.emplace_back("binned", Options().set("thread_max_row", 0).set("warp_max_row", 0).set("entries_per_lane", 1));
  algs.emplace_back("binned", Options().set("thread_max_row", 0).set("warp_max_row", 0).set("stage", false));
  algs.emplace_back("binned", Options().set("thread_max_row", 0));
  algs.emplace_back("binned", Options().set("thread_max_row", 256));
  algs.emplace_back("binned", Options().set("thread_max_row", 0).set("warp_max_row", 0).set("max_units", 300));
  for (const auto& named : cases) {
    const std::string& name = named.first;  // named, not bound: CAPTURE is a lambda
    const CsrMatrix& A = named.second;
    CAPTURE(name);
    const CsrMatrix Ar = rounded_to_float(A);
    CsrMatrix S = A.to(Space::device);
    S.store_values_single();
    REQUIRE(S.single_precision());
    CHECK(to_host_csr(S).val == to_host_csr(Ar).val);  // the device rounds as the host does
    for (const CsrMatrix& T : {transpose(S), transpose_in_blocks(S, 5)}) {  // float values moved, not rounded again
      CHECK(T.single_precision());
      check_equal(to_host_csr(T), to_host_csr(transpose(Ar)), 0.0);
    }
    const Vector xh = random_vector(A.cols(), rng(), Space::host), zh = random_vector(A.rows(), rng(), Space::host);
    const Vector xd = xh.to(Space::device), zd = zh.to(Space::device);
    Vector yh = zh.clone();
    spmv(0.9, Ar, xh, 1.1, yh);
    const std::vector<double> want = yh.to_vector();
    double mag = 1.0;
    for (double v : want) mag = std::max(mag, std::abs(v));
    for (const Component& alg : algs) {
      std::string opts;
      for (const auto& [key, o] : alg.options.values()) opts += key + "=" + o.text + " ";
      CAPTURE(alg.name);
      CAPTURE(opts);
      Vector yd = zd.clone();
      spmv(0.9, S, xd, 1.1, yd, alg);
      CHECK(max_abs_diff(yd.to_vector(), want) <= 1e-12 * mag);
    }
    if (A.rows() > 0)
      CHECK_THROWS_WITH_AS(
          [&] {
            Vector yd = zd.clone();
            spmv(0.9, S, xd, 1.1, yd, Component("cusparse"));
          }(),
          doctest::Contains("single precision"), Error);
    // The fused products of the cycle (default algorithm).
    Vector rh(A.rows(), Space::host), rd(A.rows(), Space::device);
    spmv_add(-1.0, Ar, xh, 1.0, zh, rh);
    spmv_add(-1.0, S, xd, 1.0, zd, rd);
    CHECK(max_abs_diff(rd.to_vector(), rh.to_vector()) <= 1e-12 * mag);
    if (A.rows() != A.cols()) continue;
    const Vector wh = random_vector(A.rows(), rng(), Space::host);
    Vector oh(A.rows(), Space::host), od(A.rows(), Space::device);
    Scalars sd(2, Space::device), sh(2, Space::host);
    spmv_relax(Ar, xh, zh, wh, 0.66, oh, &sh, 1);
    spmv_relax(S, xd, zd, wh.to(Space::device), 0.66, od, &sd, 1);
    CHECK(max_abs_diff(od.to_vector(), oh.to_vector()) <= 1e-12 * mag);
    CHECK(std::abs(sd.head(2)[1] - sh.head(2)[1]) <= 1e-11 * std::max(1.0, std::abs(sh.head(2)[1])) * A.rows());
    // Bitwise repeatable.
    Vector od2(A.rows(), Space::device);
    spmv_relax(S, xd, zd, wh.to(Space::device), 0.66, od2);
    CHECK(od2.to_vector() == od.to_vector());
  }
}

TEST_CASE("GPU hierarchy_precision float: the device hierarchy equals the host's, iterations agree, bytes saved") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const index_t N = stencil_dim(s) == 2 ? sized(300, 64) : sized(40, 14);
    AmgParams pf, pd;
    pf.exact_single = pd.exact_single = false;  // the fine matrix stays double here (test_exact_single_gpu.cpp)
    pf.hierarchy_precision = "float";
    if (s == Stencil::fd3d_7pt) pf.galerkin_slices = 3;  // R made in float from the rounded P, in blocks
    const CsrMatrix Ah = poisson(s, N, Space::host);
    const HeldSolver d_held = solver_with_held_bytes(Ah, pd), f_held = solver_with_held_bytes(Ah, pf);
    Solver* const sd = d_held.solver.get();
    Solver* const sf = f_held.solver.get();
    const std::size_t double_held = d_held.held, float_held = f_held.held;
    const Solver sh(Ah, pf);
    const Hierarchy& hf = sf->preconditioner().hierarchy();
    const Hierarchy& hh = sh.preconditioner().hierarchy();
    REQUIRE(hf.levels().size() == hh.levels().size());
    for (std::size_t l = 0; l < hf.levels().size(); ++l) {
      CAPTURE(l);
      const Level& a = hf.levels()[l];
      CHECK(a.A.single_precision() == (l > 0));
      check_equal(to_host_csr(a.A), to_host_csr(hh.levels()[l].A), 1e-7);  // a float ulp at most
      if (l + 1 < hf.levels().size()) {
        CHECK(a.P.single_precision());
        check_equal(to_host_csr(a.P), to_host_csr(hh.levels()[l].P), 1e-7);
        check_equal(to_host_csr(a.R), to_host_csr(hh.levels()[l].R), 1e-7);
      }
    }
    const std::size_t saved = sd->preconditioner().hierarchy().stats().matrix_bytes() - hf.stats().matrix_bytes();
    MESSAGE(stencil_name(s) << " N=" << N << ": solver holds " << double_held / 1048576.0 << " MiB (double), "
                            << float_held / 1048576.0 << " MiB (float hierarchy); matrices "
                            << saved / 1048576.0 << " MiB smaller");
    CHECK(float_held + saved <= double_held + 4096);  // the pool gave the bytes back
    const Vector b = random_vector(Ah.rows(), seed, Space::device);
    Vector x = Vector::zeros(Ah.rows(), Space::device), y = Vector::zeros(Ah.rows(), Space::device);
    const SolveResult rf = sf->solve(b, x), rd = sd->solve(b, y);
    Vector xh = Vector::zeros(Ah.rows(), Space::host);
    const SolveResult rh = sh.solve(b.to(Space::host), xh);
    MESSAGE("iterations: double " << rd.iterations << ", float hierarchy " << rf.iterations << " (host "
                                  << rh.iterations << ")");
    CHECK(rf.converged);
    CHECK(std::abs(rf.iterations - rh.iterations) <= 1);
    CHECK(std::abs(rf.iterations - rd.iterations) <= 1);
    // A resetup (P kept) widens, recomputes, rounds: the same values as the host's.
    HostCsr h2 = to_host_csr(Ah);
    for (double& v : h2.val) v *= 2.0;
    Solver sh2(Ah, pf);
    sh2.resetup(from_host_csr(h2, Space::host));
    sf->resetup(from_host_csr(h2, Space::device));
    for (std::size_t l = 1; l < hf.levels().size(); ++l) {
      CAPTURE(l);
      CHECK(sf->preconditioner().hierarchy().levels()[l].A.single_precision());
      check_equal(to_host_csr(sf->preconditioner().hierarchy().levels()[l].A),
                  to_host_csr(sh2.preconditioner().hierarchy().levels()[l].A), 1e-7);
    }
    Vector x2 = Vector::zeros(Ah.rows(), Space::device);
    CHECK(sf->solve(b, x2).converged);
  }
}
