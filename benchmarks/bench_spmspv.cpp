// saga-bench-spmspv: the SpMSpV of sparse/spmspv.hpp and the frontier MIS-2
// rounds built on it, in one process (docs/spmspv.md):
//  1. y = Aᵀ ⊗ x for random frontiers of 0.1% .. 100% of the rows: sort and
//     dense algorithms, plus_times and or_and, against the dense-vector SpMV
//     (binned) of the same matrix — the paper's comparison — and against the
//     floor of the rows it gathers (products x 12 B + the frontier + output).
//  2. MIS-2 of the seed matrices (theta = 0: S = A) and 3D 7-pt N = 256 / 512
//     with full sweeps only (frontier_ratio 0) and with frontier rounds from
//     several undecided shares on: time, rounds, and the same set checked
//     (launched rounds: the cooperative kernel is switched off).
// Writes JSON and Markdown (benchmarks/results/spmspv_<gpu>.*).
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "amg/mis2.hpp"
#include "benchmarks/bench_common.hpp"
#include "core/device.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/spmspv.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

using namespace saga;

namespace {
using bench::median;

SparseVector random_frontier(index_t rows, double share, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<index_t> idx;
  std::vector<double> val;
  for (index_t i = 0; i < rows; ++i)
    if (U(rng) < share) {
      idx.push_back(i);
      val.push_back(U(rng));
    }
  SparseVector x;
  x.size = rows;
  x.index = Array<index_t>::from_vector(idx, Space::device);
  x.value = Array<double>::from_vector(val, Space::device);
  return x;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saga SpMSpV and frontier MIS-2 benchmark (run on a GPU machine)"};
  std::string json_path = "bench_spmspv.json", md_path;
  int repeat = 7, max_n = 512;
  app.add_option("--json", json_path, "where to write the results as JSON");
  app.add_option("--markdown", md_path, "also write the tables as Markdown");
  app.add_option("--repeat", repeat, "timed repetitions (median reported)");
  app.add_option("--max-n", max_n, "largest 3D 7-pt N for the MIS-2 part (256 or 512; 0: skip)");
  CLI11_PARSE(app, argc, argv);
  try {
    std::optional<bench::Session> session = bench::start_session("saga-bench-spmspv", repeat);
    if (!session) return 2;
    const auto& info = session->info;
    const double bw = session->bandwidth_gbs;
    nlohmann::json& out = session->out;
    auto time = [&](const std::function<void()>& f) { return session->time(f); };

    // ---- 1. SpMSpV against SpMV ---------------------------------------------------------------
    std::string t1 =
        "| matrix | frontier | products | floor ms | plus sort ms | or sort ms | or dense ms | or mark ms | SpMV ms | "
        "best sparse / SpMV |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    RmatParams rp;
    rp.scale = 20;
    rp.edges = 16;
    std::vector<std::pair<std::string, CsrMatrix>> mats;
    mats.emplace_back("3D 7-pt N=128", poisson(Stencil::fd3d_7pt, 128, Space::device));
    mats.emplace_back("3D 27-pt N=101", poisson(Stencil::fe3d_27pt, 101, Space::device));
    mats.emplace_back("2D 5-pt N=1024", poisson(Stencil::fd2d_5pt, 1024, Space::device));
    mats.emplace_back("R-MAT Laplacian scale 20", rmat_laplacian(rp, 1.0, Space::device));
    for (const auto& entry : mats) {  // (no structured binding: lambdas below use A; clang 14)
      const std::string& name = entry.first;
      const CsrMatrix& A = entry.second;
      const Vector xd = random_vector(A.cols(), 3, Space::device);
      Vector y(A.rows(), Space::device, "SpMV y");
      const double spmv_ms = time([&] { spmv(1.0, A, xd, 0.0, y); });
      for (double share : {0.001, 0.01, 0.05, 0.2, 0.5, 1.0}) {
        const SparseVector x = random_frontier(A.rows(), share, 11);
        SparseVector pattern;
        pattern.size = x.size;
        pattern.index = x.index.clone();
        const SparseVector probe = spmspv(A, x, Semiring::plus_times, SpmspvAlgorithm::sort);
        // Products = the lengths of the gathered rows.
        const auto rowp = A.row_ptr().to_vector();
        const auto xi = x.index.to_vector();
        std::int64_t products = 0;
        for (index_t i : xi) products += rowp[i + 1] - rowp[i];
        const double floor_ms =
            (12.0 * products + 12.0 * x.nnz() + 12.0 * probe.nnz() + 8.0 * x.nnz()) / (bw * 1e9) * 1e3;
        const double plus_sort = time([&] { spmspv(A, x, Semiring::plus_times, SpmspvAlgorithm::sort); });
        const double or_sort = time([&] { spmspv(A, pattern, Semiring::or_and, SpmspvAlgorithm::sort); });
        const double or_dense = time([&] { spmspv(A, pattern, Semiring::or_and, SpmspvAlgorithm::dense); });
        Array<std::int32_t> stamp = Array<std::int32_t>::zeros(static_cast<std::size_t>(A.cols()), Space::device);
        int tag = 0;
        const double or_mark =
            time([&] { spmspv_mark(A, pattern.index, static_cast<index_t>(pattern.nnz()), stamp, ++tag); });
        nlohmann::json r{{"matrix", name},       {"rows", A.rows()},         {"nnz", A.nnz()},
                         {"frontier", x.nnz()},  {"share", share},           {"products", products},
                         {"reached", probe.nnz()}, {"floor_ms", floor_ms},   {"plus_times_sort_ms", plus_sort},
                         {"or_and_sort_ms", or_sort}, {"or_and_dense_ms", or_dense}, {"or_and_mark_ms", or_mark}, {"spmv_ms", spmv_ms},
                         {"automatic", to_string(spmspv_choice(Semiring::or_and, products, A.cols()))}};
        out["spmspv"].push_back(r);
        const double best = std::min(or_sort, or_dense);
        t1 += fmt::format("| {} | {:.1f}% ({}) | {} | {:.3f} | {:.3f} | {:.3f} | {:.3f} | {:.3f} | {:.3f} | {:.2f} |\n",
                          name, 100 * share, x.nnz(), products, floor_ms, plus_sort, or_sort, or_dense, or_mark, spmv_ms,
                          best / spmv_ms);
      }
    }
    mats.clear();
    std::cout << "\n## SpMSpV y = A^T x against the dense-vector SpMV\n\n" << t1;

    // ---- 2. MIS-2: full sweeps against frontier rounds --------------------------------------------
    std::string t2 = "| graph | rows | full sweeps ms (rounds) | frontier 0.05 ms | 0.1 ms | 0.25 ms | 0.5 ms | 1.0 ms | "
                     "frontier rounds at 0.25 | default ms (frontier rounds) | default / full |\n"
                     "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    std::vector<std::pair<std::string, std::function<CsrMatrix()>>> graphs{
        {"2D 5-pt N=1024", [] { return poisson(Stencil::fd2d_5pt, 1024, Space::device); }},
        {"2D 9-pt N=1024", [] { return poisson(Stencil::fe2d_9pt, 1024, Space::device); }},
        {"3D 7-pt N=128", [] { return poisson(Stencil::fd3d_7pt, 128, Space::device); }},
        {"3D 27-pt N=101", [] { return poisson(Stencil::fe3d_27pt, 101, Space::device); }},
        {"R-MAT Laplacian scale 20", [&] { return rmat_laplacian(rp, 1.0, Space::device); }}};
    if (max_n >= 256) graphs.emplace_back("3D 7-pt N=256", [] { return poisson(Stencil::fd3d_7pt, 256, Space::device); });
    if (max_n >= 512) graphs.emplace_back("3D 7-pt N=512", [] { return poisson(Stencil::fd3d_7pt, 512, Space::device); });
    for (const auto& graph : graphs) {
      const std::string& name = graph.first;
      const auto& make = graph.second;
      const CsrMatrix S = make();
      const amg::Mis2Result full = amg::mis2(S, 1, amg::Mis2Options{0.0, 0, 0});
      const auto want = full.in_set.to_vector();
      const double full_ms = time([&] { amg::mis2(S, 1, amg::Mis2Options{0.0, 0, 0}); });
      nlohmann::json r{{"graph", name}, {"rows", S.rows()}, {"nnz", S.nnz()}, {"rounds", full.rounds},
                       {"full_ms", full_ms}};
      std::string row = fmt::format("| {} | {} | {:.3f} ({}) |", name, S.rows(), full_ms, full.rounds);
      int frontier_rounds_025 = 0;
      for (double ratio : {0.05, 0.1, 0.25, 0.5, 1.0}) {
        const amg::Mis2Result fr = amg::mis2(S, 1, amg::Mis2Options{ratio, 0, 0});
        if (fr.in_set.to_vector() != want) throw Error(fmt::format("{}: frontier ratio {} changed the set", name, ratio));
        if (ratio == 0.25) frontier_rounds_025 = fr.frontier_rounds;
        const double ms = time([&] { amg::mis2(S, 1, amg::Mis2Options{ratio, 0, 0}); });
        r["frontier"].push_back({{"ratio", ratio}, {"ms", ms}, {"frontier_rounds", fr.frontier_rounds}});
        row += fmt::format(" {:.3f} |", ms);
      }
      // The default options: frontier rounds from the default share, when a full round is slow enough.
      const amg::Mis2Result def = amg::mis2(S, 1);
      if (def.in_set.to_vector() != want) throw Error(fmt::format("{}: the default options changed the set", name));
      const double def_ms = time([&] { amg::mis2(S, 1); });
      r["default"] = {{"ms", def_ms}, {"frontier_rounds", def.frontier_rounds}};
      row += fmt::format(" {} | {:.3f} ({}) | {:.2f} |\n", frontier_rounds_025, def_ms, def.frontier_rounds,
                         def_ms / full_ms);
      t2 += row;
      out["mis2"].push_back(r);
      std::cout << row << std::flush;
    }
    std::cout << "\n## MIS-2: full sweeps against frontier rounds (same sets)\n\n" << t2;
    out["spmspv_table_markdown"] = t1;
    out["mis2_table_markdown"] = t2;
    std::ofstream(json_path) << out.dump(2) << "\n";
    if (!md_path.empty())
      std::ofstream(md_path) << fmt::format("# SpMSpV and frontier MIS-2 — {} (CUDA runtime {}), copy {:.0f} GB/s\n\n",
                                            info.name, info.runtime_version, bw)
                             << "## SpMSpV y = A^T x against the dense-vector SpMV\n\n" << t1
                             << "\n## MIS-2: full sweeps against frontier rounds (same sets)\n\n" << t2;
  } catch (const std::exception& e) {
    std::cerr << "saga-bench-spmspv: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
