// saga-bench-spmv: the solve phase against its data-movement floor, in one
// process (docs/spmv.md):
//  1. SpMV y = A x with every device SpMV algorithm (binned, csr_vector,
//     scalar) and cuSPARSE (ALG_DEFAULT and CSR_ALG2), L2 flushed before each
//     call, on the seed suite at its largest sizes, the coarse-level operators
//     of 3D 7-pt N=128 and power-law matrices (R-MAT and its Laplacian):
//     minimal bytes (12 nnz + 4 (rows + 1) + 8 cols + 8 rows), GB/s, % of the
//     measured copy bandwidth, speed-up over cuSPARSE.
//  2. One V(1,1) cycle (damped Jacobi) against the sum of the floors of the
//     passes it makes (listed per level in the JSON): launched kernel by
//     kernel from the host, and replayed in a CUDA graph as a solve runs it.
//  3. PCG(AMG) solves to 1e-8: graph replay (the graph kept from one solve to
//     the next, and made again for each) against kernel-by-kernel launches,
//     per-iteration time and total solve time.
// Writes JSON and Markdown (benchmarks/results/spmv_<gpu>.*).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "api/saga.hpp"
#include "benchmarks/bench_common.hpp"
#include "core/device.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/spmv.hpp"
#include "sparse/spmv_row_blocks.hpp"
#include "sparse/vector_ops.hpp"

using namespace saga;

namespace {
using bench::median;

double spmv_bytes(const CsrMatrix& A) { return bench::csr_bytes(A.rows(), A.nnz()) + 8.0 * A.cols() + 8.0 * A.rows(); }

struct Algo {
  std::string label;
  Component c;
};

// The passes of one V(1,1) damped-Jacobi cycle from a zero guess (solver/multigrid_cycle.cpp)
// and their minimal bytes, per level. Each matrix pass counts the matrix as it is
// stored (CsrMatrix::bytes: 4-byte values where the hierarchy keeps them in
// float — the fine matrix of exact-float values, a float hierarchy; until the
// twenty-eighth session every value counted 8 bytes, which understated the
// cycle's ratio to its floor).
// The pre-sweep from zero and the residual are one pass where the cycle fuses
// them (cuda::fuse_relax_from_zero; docs/spmv.md), else a vector pass and a product.
double cycle_floor_bytes(const Hierarchy& h, nlohmann::json& passes) {
  const auto& L = h.levels();
  double total = 0;
  auto add = [&](std::size_t l, const std::string& what, double bytes) {
    passes.push_back({{"level", l}, {"pass", what}, {"bytes", bytes}});
    total += bytes;
  };
  for (std::size_t l = 0; l + 1 < L.size(); ++l) {
    const double n = L[l].A.rows(), nc = L[l + 1].A.rows();
    const double a = static_cast<double>(L[l].A.bytes());
    if (cuda::fuse_relax_from_zero(L[l].A)) {
      add(l, "pre-smooth x = omega D^-1 b and residual r = b - A x, one pass", a + 8.0 * 4 * n);
    } else {
      add(l, "pre-smooth x = omega D^-1 b", 8.0 * 3 * n);
      add(l, "residual r = b - A x", a + 8.0 * 3 * n);
    }
    add(l, "restrict b_c = R r", static_cast<double>(L[l].R.bytes()) + 8.0 * (n + nc));
    add(l, "prolong t = x + P e", static_cast<double>(L[l].P.bytes()) + 8.0 * (nc + 2 * n));
    add(l, "post-smooth x = t + omega D^-1 (b - A t)", a + 8.0 * 4 * n);
  }
  const auto& C = h.coarse().inverse;
  add(L.size() - 1, "coarse solve x = A_c^-1 b", static_cast<double>(C.bytes()) + 8.0 * 2 * C.rows());
  return total;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saga solve-phase benchmark: SpMV, V-cycle, PCG (run on a GPU machine)"};
  std::string json_path = "bench_spmv.json", md_path;
  int repeat = 9, rmat_scale = 21, rmat_edges = 16, solves = 3;
  bool quick = false, no_solves = false;
  std::string only, solve_only;
  std::vector<int> units_bases, units_ctas;
  app.add_option("--json", json_path, "where to write the results as JSON");
  app.add_option("--markdown", md_path, "also write the tables as Markdown");
  app.add_option("--repeat", repeat, "timed repetitions (median reported)");
  app.add_option("--rmat-scale", rmat_scale, "R-MAT matrices: 2^scale rows (0: skip)");
  app.add_option("--rmat-edges", rmat_edges, "R-MAT matrices: edges drawn a row (16: Graph500's)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--solves", solves, "timed solves per configuration (median reported)");
  app.add_flag("--quick", quick, "small sizes only (smoke run)");
  app.add_option("--units", units_bases,
                 "SpMV: also time the binned default at each of these row-block bases (its max_units option) "
                 "and print the table \"Row blocks by base units\"")
      ->delimiter(',');
  app.add_option("--units-ctas", units_ctas,
                 "with --units: time each base at each of these resident_ctas values too (the shared memory "
                 "carveout's CTAs an SM; default: the component's)")
      ->delimiter(',');
  app.add_option("--only", only, "SpMV: only the matrices whose name contains this (profiling runs)");
  app.add_flag("--no-solves", no_solves, "skip the V-cycle and PCG parts");
  bool profile_cycle = false;
  app.add_flag("--profile-cycle", profile_cycle,
               "also run one V(1,1) cycle of each problem (kernel by kernel, dependent launches) with the CUDA "
               "profiler's collection on, and collection off for everything else: `ncu --profile-from-start off` then "
               "lists only that cycle's kernels");
  int coarse_size = 0;
  app.add_option("--coarse-size", coarse_size,
                 "V-cycle and PCG: amg.coarse_size of their hierarchies (0: the setup's default, 800 rows on the "
                 "device; the seed configs use 500, which adds tiny levels below ~800 rows)")
      ->check(CLI::Range(0, 1 << 30));
  app.add_option("--solve-only", solve_only,
                 "V-cycle and PCG: only the problems whose name (e.g. \"3d7 N=64\") contains this (profiling runs)");
  CLI11_PARSE(app, argc, argv);

  try {
    std::optional<bench::Session> session = bench::start_session("saga-bench-spmv", repeat);
    if (!session) return 2;
    const auto& info = session->info;
    const double bw = session->bandwidth_gbs;
    nlohmann::json& out = session->out;
    Vector flush(std::max<std::size_t>(info.l2_bytes, 1) / 4, Space::device, "L2 flush buffer");

    // ---- 1. SpMV ------------------------------------------------------------------------------
    // The row-block variants keep the small matrices in row blocks too (small_vector off), so that their
    // columns compare row-block policies on every matrix; they and the other bins' variants never take
    // the sliced rows (`unsliced`).
    const auto unsliced = [] { return Options().set("sliced", "off"); };
    const auto blocks = [&] { return unsliced().set("small_vector", false); };
    // Room for c CTAs' staging, power-law matrices' blocks too.
    const auto ctas = [&](int c) { return blocks().set("resident_ctas", c).set("power_law_ctas", c); };
    const auto vector_at = [&](int lanes) {
      return Component("binned", unsliced()
                                     .set("thread_max_row", 0)
                                     .set("warp_max_row", 0)
                                     .set("vector_max_units", 1 << 30)
                                     .set("vector_lanes", std::to_string(lanes)));
    };
    const auto sorted_at = [](int chunk) {
      return Component("binned", Options().set("sorted_slices", "on").set("sorted_chunk", chunk));
    };
    std::vector<Algo> algos{{"binned", Component("binned")},
                                  {"csr_vector", Component("csr_vector")},
                                  {"scalar", Component("scalar")},
                                  {"binned blocks",
                                   Component("binned", blocks().set("thread_max_row", 0).set("warp_max_row", 0))},
                                  {"binned warp bin", Component("binned", unsliced().set("thread_max_row", 0))},
                                  {"binned thread<=16", Component("binned", unsliced().set("thread_max_row", 16))},
                                  {"binned warp<=64", Component("binned", unsliced().set("warp_max_row", 64))},
                                  {"binned epl=8", Component("binned", blocks().set("entries_per_lane", 8))},
                                  {"binned unstaged", Component("binned", blocks().set("stage", false))},
                                  {"binned ctas 0", Component("binned", ctas(0))},
                                  {"binned ctas 4", Component("binned", ctas(4))},
                                  {"binned ctas 5", Component("binned", ctas(5))},
                                  {"binned ctas 8", Component("binned", ctas(8))},
                                  {"binned power-law base 0",
                                   Component("binned", Options().set("power_law_units", 0).set("power_law_ctas", 6))},
                                  {"binned unstaged mean 16", Component("binned", blocks().set("unstaged_mean", 16))},
                                  {"binned unstaged mean 24", Component("binned", blocks().set("unstaged_mean", 24))},
                                  {"binned units=1024", Component("binned", blocks().set("max_units", 1024))},
                                  {"binned units=4096", Component("binned", blocks().set("max_units", 4096))},
                                  {"binned units=8192", Component("binned", blocks().set("max_units", 8192))},
                                  {"binned no small vector", Component("binned", blocks())},
                                  {"binned no sliced", Component("binned", unsliced())},
                                  // Power-law matrices without their sorted copy: the row blocks (the
                                  // rule before the fifty-seventh session).
                                  {"binned no sorted slices", Component("binned", Options().set("sorted_slices", "off"))},
                                  // The sorted slices' split between warp rows and CTA chunks (table
                                  // "Sorted slices by chunk"; 65536: no row of these matrices is chunked).
                                  {"binned sorted chunk 1024", sorted_at(1024)},
                                  {"binned sorted chunk 2048", sorted_at(2048)},
                                  {"binned sorted chunk 4096", sorted_at(4096)},
                                  {"binned sorted chunk 8192", sorted_at(8192)},
                                  {"binned sorted chunk 16384", sorted_at(16384)},
                                  {"binned sorted chunk 65536", sorted_at(65536)},
                                  // The rule before the diagonal copies: no copy, or a sliced one where the
                                  // default route takes the sliced rows (the column picks per matrix).
                                  {"binned no diagonals",
                                   Component("binned", Options().set("diagonals", "off").set("sliced", "on"))},
                                  {"binned no diagonals unsliced",
                                   Component("binned", Options().set("diagonals", "off").set("sliced", "off"))},
                                  {"binned vector rows to 2^20",
                                   Component("binned", Options().set("vector_max_units", 1 << 20))},
                                  {"binned vector rows to 2^24",
                                   Component("binned", Options().set("vector_max_units", 1 << 24))},
                                  // The vector rows at a fixed count of lanes a row, on every matrix
                                  // they take (sliced rows off, no size bound): table "vector rows by lanes".
                                  {"vector G=2", vector_at(2)},
                                  {"vector G=4", vector_at(4)},
                                  {"vector G=8", vector_at(8)},
                                  {"vector G=16", vector_at(16)},
                                  {"vector G=32", vector_at(32)},
                                  {"vector G=64", vector_at(64)},

                                  {"cuSPARSE", Component("cusparse")},
                                  {"cuSPARSE ALG2", Component("cusparse", Options().set("alg", "csr_alg2"))}};
    // --units (and --units-ctas): the default binned SpMV at other row-block bases and carveouts (table
    // "Row blocks by base units", power-law matrices' base too); ctas 0 in the label: the component's
    // resident_ctas and power_law_ctas.
    const std::vector<int> ctas_list = units_ctas.empty() ? std::vector<int>{0} : units_ctas;
    const auto units_label = [](int u, int c) {
      return c ? fmt::format("binned base {} ctas {}", u, c) : fmt::format("binned base {}", u);
    };
    std::string by_units = "| matrix | binned |", by_units_rule = "\n|---|---:|";
    for (int u : units_bases)
      for (int c : ctas_list) {
        Options o = Options().set("max_units", u).set("power_law_units", u);
        if (c) o.set("resident_ctas", c).set("power_law_ctas", c);
        algos.push_back({units_label(u, c), Component("binned", o)});
        by_units += c ? fmt::format(" base {}, {} CTAs |", u, c) : fmt::format(" base {} |", u);
        by_units_rule += "---:|";
      }
    by_units += by_units_rule + "\n";
    std::string table =
        "| matrix | rows | nnz | max row | floor ms | binned ms | binned GB/s | % copy | csr_vector ms | scalar ms | "
        "cuSPARSE ms | ALG2 ms | binned / best cuSPARSE |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    std::string variants =
        "| matrix | binned | row blocks only | warp bin (thread_max_row 0) | thread bin to 16 | warp bin to 64 | epl=8 | "
        "unstaged | carveout: driver's | room for 4 CTAs | 5 | 8 | unstaged where split rows average >= 16 | >= 24 | max_units 1024 | max_units 4096 | max_units 8192 | small matrices in row blocks | no sliced rows | "
        "vector rows to 2^20 units | to 2^24 | scalar | csr_vector | power-law blocks at max_units, 6 CTAs | "
        "no diagonal copy | no sorted slices (power-law: row blocks) |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        "---:|---:|---:|\n";
    std::string by_chunk =
        "| matrix | binned | sorted slices, chunks of 1024 | 2048 | 4096 | 8192 | 16384 | 65536 |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    std::string by_lanes =
        "| matrix | binned | vector rows, 2 lanes a row | 4 | 8 | 16 | 32 | 64 |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    // Whether --only keeps a matrix (or pass) of this name.
    const auto wanted = [&](const std::string& name) { return only.empty() || name.find(only) != std::string::npos; };
    auto bench_matrix = [&](const std::string& name, const CsrMatrix& A) {
      if (!wanted(name)) return;
      nlohmann::json r;
      r["matrix"] = name;
      r["rows"] = A.rows();
      r["nnz"] = A.nnz();
      const auto rp = A.row_ptr().to_vector();
      offset_t longest = 0;
      for (index_t i = 0; i < A.rows(); ++i) longest = std::max(longest, rp[i + 1] - rp[i]);
      r["max_row"] = longest;
      const double bytes = spmv_bytes(A), floor_ms = bytes / (bw * 1e9) * 1e3;
      r["bytes"] = bytes;
      r["floor_ms"] = floor_ms;
      const Vector x = random_vector(A.cols(), 7, Space::device);
      Vector y(A.rows(), Space::device, "SpMV y");
      std::map<std::string, double> ms;
      // As the cycle prepares its operators: the binned SpMV's sliced copy
      // where A takes it (sliced: auto makes it only here, given room).
      spmv_prepare(A, std::numeric_limits<std::size_t>::max());
      for (const auto& a : algos) {
        try {
          spmv(1.0, A, x, 0.0, y, a.c);  // builds the analysis
          std::vector<double> t;
          for (int k = 0; k < repeat; ++k) {
            fill(flush, 0.0);
            t.push_back(device::elapsed_ms([&] { spmv(1.0, A, x, 0.0, y, a.c); }));
          }
          ms[a.label] = median(t);
          r["ms"][a.label] = ms[a.label];
          r["gbs"][a.label] = bytes / (ms[a.label] * 1e6);
        } catch (const Error& e) {
          r["errors"][a.label] = e.what();
          ms[a.label] = -1;
        }
      }
      const double best_cus = std::min(ms["cuSPARSE"] > 0 ? ms["cuSPARSE"] : 1e30,
                                       ms["cuSPARSE ALG2"] > 0 ? ms["cuSPARSE ALG2"] : 1e30);
      r["speedup_vs_best_cusparse"] = best_cus / ms["binned"];
      r["percent_copy"] = 100.0 * bytes / (ms["binned"] * 1e6) / bw;
      auto f = [](double v) { return v > 0 ? fmt::format("{:.3f}", v) : std::string("failed"); };
      table += fmt::format("| {} | {} | {} | {} | {:.3f} | {} | {:.0f} | {:.0f}% | {} | {} | {} | {} | {:.2f}x |\n",
                           name, A.rows(), A.nnz(), longest, floor_ms, f(ms["binned"]),
                           bytes / (ms["binned"] * 1e6), 100.0 * bytes / (ms["binned"] * 1e6) / bw,
                           f(ms["csr_vector"]), f(ms["scalar"]), f(ms["cuSPARSE"]), f(ms["cuSPARSE ALG2"]),
                           best_cus / ms["binned"]);
      const cuda::SpmvBinsInfo bins = cuda::spmv_binned_info(A);
      const double no_diagonals = bins.sliced ? ms["binned no diagonals"] : ms["binned no diagonals unsliced"];
      r["ms"]["binned before diagonal copies"] = no_diagonals;
      r["diagonals"] = bins.diagonals;
      variants += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", name,
                              f(ms["binned"]), f(ms["binned blocks"]), f(ms["binned warp bin"]),
                              f(ms["binned thread<=16"]), f(ms["binned warp<=64"]), f(ms["binned epl=8"]),
                              f(ms["binned unstaged"]), f(ms["binned ctas 0"]), f(ms["binned ctas 4"]),
                              f(ms["binned ctas 5"]), f(ms["binned ctas 8"]), f(ms["binned unstaged mean 16"]),
                              f(ms["binned unstaged mean 24"]), f(ms["binned units=1024"]), f(ms["binned units=4096"]),
                              f(ms["binned units=8192"]), f(ms["binned no small vector"]), f(ms["binned no sliced"]),
                              f(ms["binned vector rows to 2^20"]), f(ms["binned vector rows to 2^24"]), f(ms["scalar"]),
                              f(ms["csr_vector"]), f(ms["binned power-law base 0"]), f(no_diagonals),
                              f(ms["binned no sorted slices"]));
      by_chunk += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", name, f(ms["binned"]),
                              f(ms["binned sorted chunk 1024"]), f(ms["binned sorted chunk 2048"]),
                              f(ms["binned sorted chunk 4096"]), f(ms["binned sorted chunk 8192"]),
                              f(ms["binned sorted chunk 16384"]), f(ms["binned sorted chunk 65536"]));
      by_lanes += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", name, f(ms["binned"]),
                              f(ms["vector G=2"]), f(ms["vector G=4"]), f(ms["vector G=8"]), f(ms["vector G=16"]),
                              f(ms["vector G=32"]), f(ms["vector G=64"]));
      // Each base's time and the units a block its plan takes (row blocks only: spmv_plan_units).
      by_units += fmt::format("| {} | {} |", name, f(ms["binned"]));
      for (int u : units_bases)
        for (int c : ctas_list)
          by_units += fmt::format(" {} ({}) |", f(ms[units_label(u, c)]),
                                  spmv_plan_units(A.nnz(), A.rows(), longest, u, info.multiprocessors,
                                                  SpmvRowBlocks::default_unstaged_mean, u));
      by_units += "\n";
      out["spmv"].push_back(r);
      std::cout << "  spmv " << name << std::endl;
    };
    struct Seed {
      Stencil s;
      index_t N;
    };
    const std::vector<Seed> seeds =
        quick ? std::vector<Seed>{{Stencil::fd2d_5pt, 256}, {Stencil::fd3d_7pt, 32}}
              : std::vector<Seed>{{Stencil::fd2d_5pt, 1024}, {Stencil::fe2d_9pt, 1024}, {Stencil::fd3d_7pt, 128},
                                  {Stencil::fe3d_27pt, 101}, {Stencil::fd2d_5pt, 4096}, {Stencil::fe2d_9pt, 4096}, {Stencil::fd3d_7pt, 256},
                                  {Stencil::fe3d_27pt, 160}};
    for (const auto& s : seeds) {
      const CsrMatrix A = poisson(s.s, s.N, Space::device);
      bench_matrix(fmt::format("{} N={}", stencil_name(s.s), s.N), A);
    }
    {  // coarse-level operators of 3D 7-pt
      const CsrMatrix A = poisson(Stencil::fd3d_7pt, quick ? 32 : 128, Space::device);
      const Hierarchy h(A.clone(), SetupParams{});
      for (std::size_t l = 1; l < h.levels().size(); ++l)
        bench_matrix(fmt::format("3d7 N={} level {}", quick ? 32 : 128, l), h.levels()[l].A);
      bench_matrix(fmt::format("3d7 N={} P0", quick ? 32 : 128), h.levels()[0].P);
      bench_matrix(fmt::format("3d7 N={} R0", quick ? 32 : 128), h.levels()[0].R);
      if (h.levels().size() > 2) bench_matrix(fmt::format("3d7 N={} R1", quick ? 32 : 128), h.levels()[1].R);
    }
    if (!quick) {  // the restriction and level 1 of 3D 27-pt: its cycle's longest rows
      const CsrMatrix A = poisson(Stencil::fe3d_27pt, 128, Space::device);
      const Hierarchy h(A.clone(), SetupParams{});
      bench_matrix("3d27 N=128 level 1", h.levels()[1].A);
      bench_matrix("3d27 N=128 R0", h.levels()[0].R);
      if (h.levels().size() > 2) bench_matrix("3d27 N=128 R1", h.levels()[1].R);
    }
    if (!quick) {  // the thread bin's operators of the small problems that the vector rows take (under 2^21 units:
                   // 3D 7-pt N=64's and 2D 5-pt N=512's fine matrix and P0, 2D 5-pt N=1024's P1, 27-pt N=101's P1;
                   // docs/spmv.md)
      struct Pick {
        Seed s;
        bool fine;  // the fine matrix and P0, else P1
      };
      for (const auto& [s, fine] : std::vector<Pick>{{{Stencil::fd3d_7pt, 64}, true},
                                                     {{Stencil::fd2d_5pt, 512}, true},
                                                     {{Stencil::fd2d_5pt, 1024}, false},
                                                     {{Stencil::fe3d_27pt, 101}, false}}) {
        const std::string name = fmt::format("{} N={}", stencil_name(s.s), s.N);
        // No setup for a problem none of whose matrices --only keeps (the A/B jobs run --only none).
        if (fine ? !wanted(name) && !wanted(name + " P0") : !wanted(name + " P1")) continue;
        const CsrMatrix A = poisson(s.s, s.N, Space::device);
        const Hierarchy h(A.clone(), SetupParams{});
        if (fine) {
          bench_matrix(name, A);
          bench_matrix(name + " P0", h.levels()[0].P);
        } else if (h.levels().size() > 2) {
          bench_matrix(name + " P1", h.levels()[1].P);
        }
      }
    }
    if (rmat_scale > 0) {
      RmatParams rp;
      rp.scale = quick ? std::min(rmat_scale, 16) : rmat_scale;
      rp.edges = rmat_edges;
      rp.seed = 2026;
      const CsrMatrix G = rmat_matrix(rp, Space::device);
      bench_matrix(fmt::format("R-MAT 2^{} x{}", rp.scale, rp.edges), G);
      const CsrMatrix Lg = rmat_laplacian(rp, 1.0, Space::device);
      bench_matrix(fmt::format("R-MAT Laplacian 2^{} x{}", rp.scale, rp.edges), Lg);
    }
    out["spmv_table_markdown"] = table;
    out["variants_table_markdown"] = variants;
    out["vector_lanes_table_markdown"] = by_lanes;
    out["sorted_chunk_table_markdown"] = by_chunk;
    std::cout << table << variants << by_chunk << by_lanes;
    if (!units_bases.empty()) {
      out["units_table_markdown"] = by_units;
      std::cout << "\nRow blocks by base units: ms (units a block)\n" << by_units;
    }

    // ---- 1b. the fused passes of the cycle, one at a time ---------------------------------------
    // Each pass of a V(1,1) cycle over one matrix as the cycle stores it (the fine matrices in float:
    // their values are exact floats), with the default SpMV and its sliced copy prepared, against the
    // floor of its minimal bytes (the cycle floor's counts: the matrix, x gathered once, and 8 bytes a
    // row for every other vector read or written).
    std::string passes_md =
        "| matrix | pass | ms | floor ms | % of copy | / y = A x |\n|---|---|---:|---:|---:|---:|\n";
    auto bench_passes = [&](const std::string& name, const CsrMatrix& A) {
      if (!wanted(name)) return;
      const double n = A.rows(), a = static_cast<double>(A.bytes()) + 8.0 * A.cols();
      const Vector x = random_vector(A.cols(), 7, Space::device), b = random_vector(A.rows(), 8, Space::device);
      Vector w = random_vector(A.rows(), 9, Space::device);
      Vector y(A.rows(), Space::device, "pass output"), t(A.rows(), Space::device, "pass second output");
      Scalars dot(1, Space::device);
      spmv_prepare(A, std::numeric_limits<std::size_t>::max());
      struct Pass {
        const char* label;
        double bytes;
        std::function<void()> run;
      };
      const std::vector<Pass> list{
          {"y = A x", a + 8.0 * n, [&] { spmv(A, x, y); }},
          {"y = A x and x . y", a + 8.0 * n, [&] { spmv_dot(A, x, y, dot, 0); }},
          {"r = b - A x", a + 16.0 * n, [&] { spmv_residual(A, x, b, y); }},
          {"relax x_out = x + w (b - A x)", a + 24.0 * n, [&] { spmv_relax(A, x, b, w, 0.7, y); }},
          {"relax and b . x_out", a + 24.0 * n, [&] { spmv_relax(A, x, b, w, 0.7, y, &dot, 0); }},
          {"relax from zero and residual", a + 24.0 * n, [&] { spmv_relax_from_zero(A, b, w, 0.7, t, y); }}};
      double first = 0;
      for (const auto& p : list) {
        p.run();
        std::vector<double> tm;
        for (int k = 0; k < repeat; ++k) {
          fill(flush, 0.0);
          tm.push_back(device::elapsed_ms(p.run));
        }
        const double ms = median(tm), floor_ms = p.bytes / (bw * 1e9) * 1e3;
        if (first == 0) first = ms;
        nlohmann::json r;
        r["pass"] = fmt::format("{}: {}", name, p.label);
        r["ms"] = ms;
        r["floor_ms"] = floor_ms;
        out["passes"].push_back(r);
        passes_md += fmt::format("| {} | {} | {:.4f} | {:.4f} | {:.0f}% | {:.2f} |\n", name, p.label, ms, floor_ms,
                                 100.0 * floor_ms / ms, ms / first);
      }
      std::cout << "  passes " << name << std::endl;
    };
    if (!quick) {
      for (const auto& s : std::vector<Seed>{{Stencil::fd3d_7pt, 128}, {Stencil::fe3d_27pt, 128}}) {
        CsrMatrix A = poisson(s.s, s.N, Space::device);
        const Hierarchy h(A.clone(), SetupParams{});
        A.store_values_single_if_exact();
        bench_passes(fmt::format("{} N={} (float)", stencil_name(s.s), s.N), A);
        bench_passes(fmt::format("{} N={} level 1", stencil_name(s.s), s.N), h.levels()[1].A);
      }
    }
    out["passes_table_markdown"] = passes_md;
    std::cout << passes_md;

    // ---- 2. one V(1,1) cycle, 3. PCG solves -------------------------------------------------------
    // Each cycle and solve runs with dependent launches (the default, core/device.hpp) and with plain
    // stream-ordered launches: the same kernels, so the difference is the gap between them.
    std::string cycles =
        "| problem | levels | cycle ms | plain launches ms | in a graph ms | floor of its passes ms | cycle / floor | "
        "in a graph / floor | in a graph / latency-aware floor | in a graph, every sliced copy made ms (copies made, MB) |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    // "graph" solves keep the iteration's graph from one solve to the next (Solver's KrylovState);
    // "graph made per solve" releases it before each, so each solve captures its own, as before;
    // "checked every iteration" waits for the host after each iteration (check_every: 1; the
    // default 0 chooses the interval from the residual's rate).
    std::string solves_md =
        "| problem | iterations | graph: solve ms | ms / iteration | checked every iteration ms | graph made per solve "
        "ms | graph, plain launches ms | kernels: solve ms | graph speed-up |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    const bool dependent_default = device::dependent_launch();
    const std::vector<Seed> solve_cases =
        no_solves ? std::vector<Seed>{}
        : quick   ? std::vector<Seed>{{Stencil::fd3d_7pt, 32}}
              : std::vector<Seed>{{Stencil::fd2d_5pt, 512},  {Stencil::fd2d_5pt, 1024}, {Stencil::fe2d_9pt, 1024},
                                  {Stencil::fd3d_7pt, 64},   {Stencil::fd3d_7pt, 101},  {Stencil::fd3d_7pt, 128},
                                  {Stencil::fe3d_27pt, 64},  {Stencil::fe3d_27pt, 101}, {Stencil::fe3d_27pt, 128},
                                  {Stencil::fd3d_7pt, 256}};
    // The shortest pass a cycle makes: a product over a 64-row matrix (the vector
    // rows, launched as the cycle's passes are), 100 one after the other in a
    // graph. The cycle's latency-aware floor counts each pass at least this long:
    // on the small problems most passes move a few hundred KB, far under it.
    double pass_min_ms = 0;
    if (!solve_cases.empty()) {
      const auto exec = Executor::cuda();
      ExecutorScope scope(exec);
      const CsrMatrix T = poisson(Stencil::fd2d_5pt, 8, Space::device);
      const Vector tx = random_vector(T.cols(), 3, Space::device);
      Vector ty(T.rows(), Space::device, "shortest pass output");
      spmv(T, tx, ty);
      constexpr int kPasses = 100;
      device::Graph g;
      std::string why;
      if (g.capture([&] { for (int k = 0; k < kPasses; ++k) spmv(T, tx, ty); }, &why)) {
        g.launch();
        std::vector<double> t;
        for (int k = 0; k < repeat; ++k) t.push_back(device::elapsed_ms([&] { g.launch(); }) / kPasses);
        pass_min_ms = median(t);
      } else {
        std::cerr << "  the shortest pass could not be captured (" << why << ")\n";
      }
      out["shortest_pass_ms"] = pass_min_ms;
      out["coarse_size"] = coarse_size;  // of the cycle / PCG hierarchies (0: the setup's default)
    }
    for (const auto& s : solve_cases) {
      const std::string name = fmt::format("{} N={}", stencil_name(s.s), s.N);
      if (!solve_only.empty() && name.find(solve_only) == std::string::npos) continue;
      const auto exec = Executor::cuda();
      ExecutorScope scope(exec);
      const CsrMatrix A = poisson(s.s, s.N, Space::device);
      const Vector b = random_vector(A.rows(), 11, Space::device);
      nlohmann::json r;
      r["problem"] = name;
      double graph_ms = 0, check1_ms = 0, graph_per_solve_ms = 0, graph_plain_ms = 0, kernel_ms = 0;
      int iterations = 0;
      struct Run {
        const char* graph;  // the pcg component's graph option
        bool dependent;     // device::set_dependent_launch
        bool keep;          // the solver keeps the graph between solves (else released before each)
        int check_every;    // the pcg component's check_every
        const char* key;
        double* ms;         // where the table takes its solve time from
      };
      for (const Run run : {Run{"auto", true, true, 0, "graph", &graph_ms},
                            Run{"auto", true, true, 1, "graph_check_every_1", &check1_ms},
                            Run{"auto", true, false, 0, "graph_per_solve", &graph_per_solve_ms},
                            Run{"auto", false, true, 0, "graph_plain", &graph_plain_ms},
                            Run{"off", true, true, 0, "kernels", &kernel_ms}}) {
        device::set_dependent_launch(run.dependent && dependent_default);
        SolverParams sp;
        sp.type = Component("pcg", Options().set("graph", run.graph).set("check_every", run.check_every));
        AmgParams amg;
        amg.coarse_size = coarse_size;
        // Each run as a fresh process runs it: the cycle's copies are made in
        // the room under this setup's peak (MultigridCycle), not under a peak
        // that an earlier run's copies made "room or not" (below) left behind.
        // Before the sixtieth session the first run went without the copies
        // that the later runs made (2D 5-pt / 9-pt N=1024: the "graph" column
        // 3.25 / 3.47 ms, "kernels" 3.00 / 2.96).
        device::reset_peak_memory();
        Solver solver(A, amg, sp, exec);
        if (run.ms == &graph_ms || run.ms == &graph_plain_ms) {  // the cycle (kernel by kernel) against its floor
          const auto& h = solver.preconditioner().hierarchy();
          nlohmann::json passes = nlohmann::json::array();
          const double fb = cycle_floor_bytes(h, passes);
          Vector z(A.rows(), Space::device, "cycle output");
          solver.preconditioner().apply(b, z);
          if (profile_cycle && run.dependent) device::profiled([&] { solver.preconditioner().apply(b, z); });
          const std::string mode = run.dependent ? "" : "_plain";
          std::vector<double> t;
          for (int k = 0; k < repeat; ++k) t.push_back(device::elapsed_ms([&] { solver.preconditioner().apply(b, z); }));
          r["cycle_ms" + mode] = median(t);
          // The cycle as a solve runs it: inside a CUDA graph (the PCG
          // iteration's), with no host launch between its kernels. A graph of
          // kGraphCycles cycles one after the other, replayed; its time / kGraphCycles.
          constexpr int kGraphCycles = 10;
          device::Graph g;
          std::string why;
          if (g.capture([&] { for (int c = 0; c < kGraphCycles; ++c) solver.preconditioner().apply(b, z); }, &why)) {
            g.launch();
            std::vector<double> tg;
            for (int k = 0; k < repeat; ++k) tg.push_back(device::elapsed_ms([&] { g.launch(); }) / kGraphCycles);
            r["cycle_graph_ms" + mode] = median(tg);
          } else {
            std::cerr << "  " << name << ": the cycle could not be captured (" << why << ")\n";
          }
          if (run.dependent) {
            // The same cycle with every operator's sliced copy made, room or not
            // (the cycle makes them only within the room under the setup's peak:
            // MultigridCycle): what the copies it went without would give, and their
            // bytes. The copies made here are released after, so that the runs below
            // are the default's.
            std::vector<const CsrMatrix*> made;
            std::size_t made_bytes = 0;
            for (const Level& L : h.levels())
              for (const CsrMatrix* M : {&L.A, &L.R, &L.P})
                if (const std::size_t bytes = spmv_prepare(*M, std::numeric_limits<std::size_t>::max()); bytes > 0) {
                  made.push_back(M);
                  made_bytes += bytes;
                }
            r["cycle_extra_copies"] = made.size();
            r["cycle_extra_copies_mb"] = made_bytes / 1e6;
            device::Graph ga;
            if (!made.empty() &&
                ga.capture([&] { for (int c = 0; c < kGraphCycles; ++c) solver.preconditioner().apply(b, z); }, &why)) {
              ga.launch();
              std::vector<double> tg;
              for (int k = 0; k < repeat; ++k) tg.push_back(device::elapsed_ms([&] { ga.launch(); }) / kGraphCycles);
              r["cycle_graph_all_copies_ms"] = median(tg);
            }
            for (const CsrMatrix* M : made) spmv_release(*M);
          }
          r["cycle_floor_ms"] = fb / (bw * 1e9) * 1e3;
          double latency_floor_ms = 0;  // each pass at least the shortest pass
          for (const auto& p : passes)
            latency_floor_ms += std::max(p["bytes"].get<double>() / (bw * 1e9) * 1e3, pass_min_ms);
          r["cycle_latency_floor_ms"] = latency_floor_ms;
          r["cycle_passes"] = passes;
          r["levels"] = h.levels().size();
        }
        std::vector<double> t;
        SolveResult res;
        Vector x(A.rows(), Space::device, "solution");
        for (int k = 0; k < solves + 1; ++k) {  // the first one warms up (analyses, pools)
          fill(x, 0.0);
          if (!run.keep) solver.release_workspace();
          device::synchronize();
          res = solver.solve(b, x);
          if (k > 0) t.push_back(res.seconds * 1e3);
        }
        const double ms = median(t);
        r[std::string("solve_ms_") + run.key] = ms;
        r[std::string("launch_") + run.key] = res.launch;
        r[std::string("launch_note_") + run.key] = res.launch_note;
        r["iterations"] = res.iterations;
        iterations = res.iterations;
        *run.ms = ms;
      }
      device::set_dependent_launch(dependent_default);
      r["dependent_launch"] = dependent_default;
      const double cyc = r["cycle_ms"], fl = r["cycle_floor_ms"];
      const double in_graph = r.value("cycle_graph_ms", 0.0);
      const double all_copies = r.value("cycle_graph_all_copies_ms", 0.0);
      const double lfl = r["cycle_latency_floor_ms"];
      cycles += fmt::format("| {} | {} | {:.3f} | {:.3f} | {} | {:.3f} | {:.2f} | {} | {} | {} |\n", name, r["levels"].get<int>(), cyc,
                            r["cycle_ms_plain"].get<double>(), in_graph > 0 ? fmt::format("{:.3f}", in_graph) : "-", fl,
                            cyc / fl, in_graph > 0 ? fmt::format("{:.2f}", in_graph / fl) : "-",
                            in_graph > 0 && lfl > 0 ? fmt::format("{:.2f}", in_graph / lfl) : "-",
                            all_copies > 0 ? fmt::format("{:.3f} ({}, {:.0f} MB)", all_copies,
                                                         r["cycle_extra_copies"].get<std::size_t>(),
                                                         r["cycle_extra_copies_mb"].get<double>())
                                           : "- (none to make)");
      solves_md += fmt::format("| {} | {} | {:.2f} | {:.3f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f}x |\n", name,
                               iterations, graph_ms, graph_ms / std::max(1, iterations), check1_ms, graph_per_solve_ms,
                               graph_plain_ms, kernel_ms, kernel_ms / graph_ms);
      out["solves"].push_back(r);
      std::cout << "  solve " << name << std::endl;
    }
    out["cycle_table_markdown"] = cycles;
    out["solve_table_markdown"] = solves_md;
    std::ofstream(json_path) << out.dump(2) << "\n";
    const std::string head = fmt::format("GPU {}, CUDA runtime {}, copy bandwidth {:.0f} GB/s, median of {}\n\n",
                                         info.name, info.runtime_version, bw, repeat);
    if (!md_path.empty())
      std::ofstream(md_path) << head << "### SpMV (L2 flushed)\n\n"
                             << table << "\n### Binned SpMV policy variants (ms)\n\n"
                             << variants << "\n### Sorted slices by chunk (sorted_slices: on; ms)\n\n"
                             << by_chunk << "\n### Vector rows by lanes a row (sliced rows off, any size; ms)\n\n"
                             << by_lanes
                             << (units_bases.empty() ? std::string()
                                                     : "\n### Row blocks by base units: ms (units a block)\n\n" + by_units)
                             << "\n### The cycle's fused passes (L2 flushed)\n\n"
                             << passes_md << "\n### One V(1,1) cycle\n\n"
                             << cycles << "\n### PCG(AMG) to 1e-8\n\n"
                             << solves_md;
    std::cout << cycles << solves_md;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "saga-bench-spmv: " << e.what() << "\n";
    return 1;
  }
}
