// saga-bench-spgemm: the SpGEMM benchmark of docs/spgemm.md. For each seed
// problem it builds the device hierarchy and times, on every level, the products
// the setup forms — P = T - ωD⁻¹(A T) (fused where the algorithm fuses), A·P
// and Pᵀ(AP) — plus A·A on the fine level and on an R-MAT power-law matrix, with
// every device SpGEMM algorithm in this process (binned, the reference ESC,
// cuSPARSE with its work estimation and buffers), and the binned numeric-only
// recomputation. Each time is set against the data-movement floor: reading A and
// B and writing C once at the measured copy bandwidth (002_…).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "amg/hierarchy.hpp"
#include "amg/tentative.hpp"
#include "benchmarks/bench_common.hpp"
#include "problems/rmat.hpp"
#include "core/device.hpp"
#include "problems/structured.hpp"
#include "sparse/coo.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/vector_ops.hpp"

using namespace saga;

namespace {
using bench::copy_bandwidth_gbs;
using bench::median;

double csr_bytes(const CsrMatrix& M) { return bench::csr_bytes(M.rows(), M.nnz()); }

// R-MAT (problems/rmat.hpp) with 2^scale rows and about edges*2^scale
// nonzeros before duplicates are summed, with the quadrant probabilities of
// this benchmark's first record (0.45, 0.22, 0.22).
CsrMatrix rmat(int scale, int edges, std::uint64_t seed) {
  RmatParams p;
  p.scale = scale;
  p.edges = edges;
  p.a = 0.45;
  p.b = 0.22;
  p.c = 0.22;
  p.seed = seed;
  return rmat_matrix(p, Space::device);
}

struct Timed {
  double ms = -1;
  SpgemmStats stats;
  std::string error;
};

// Median of `repeat` runs after one warm-up (which also gives the counts).
template <class F>
Timed time_product(int repeat, F&& run) {
  Timed t;
  try {
    run(&t.stats);
    std::vector<double> v;
    for (int k = 0; k < repeat; ++k) v.push_back(device::elapsed_ms([&] { run(nullptr); }));
    t.ms = median(v);
  } catch (const Error& e) {
    t.error = e.what();
  }
  return t;
}

struct Recorder {
  nlohmann::json rows = nlohmann::json::array();
  std::string table;
  std::vector<std::pair<std::string, Component>> algs;  // label, component
  double bw;
  int repeat;

  // One product C = A B (and E for the fused update) with every algorithm.
  void product(const std::string& problem, int level, const std::string& what, const CsrMatrix& A,
               const CsrMatrix& B, const CsrMatrix* E, const Vector* s, bool numeric) {
    nlohmann::json r;
    r["problem"] = problem;
    r["level"] = level;
    r["product"] = what;
    std::map<std::string, Timed> res;
    for (const auto& [alg, component] : algs) {
      const auto impl = spgemm_registry().create(component, Space::device);
      res[alg] = time_product(repeat, [&](SpgemmStats* st) {
        CsrMatrix C = E ? impl->multiply_scaled_add(A, B, *s, *E, st) : impl->multiply(A, B, st);
      });
      nlohmann::json a;
      a["ms"] = res[alg].ms;
      a["workspace_bytes"] = res[alg].stats.workspace_bytes;
      if (!res[alg].error.empty()) a["error"] = res[alg].error;
      r["algorithms"][alg] = a;
    }
    const Timed& b = res["binned"];
    const std::int64_t nnz_c = b.stats.nnz_c;
    const double c_bytes = 12.0 * nnz_c + 4.0 * (A.rows() + 1);
    double floor_bytes = csr_bytes(A) + csr_bytes(B) + c_bytes;
    if (E) floor_bytes += csr_bytes(*E) + 8.0 * A.rows();
    const double floor_ms = floor_bytes / (bw * 1e9) * 1e3;
    r["products"] = b.stats.products;
    r["nnz_c"] = nnz_c;
    r["long_rows"] = b.stats.long_rows;
    r["floor_ms"] = floor_ms;
    r["c_bytes"] = c_bytes;
    double numeric_ms = -1;
    if (numeric && b.ms > 0) {
      const auto impl = spgemm_registry().create({"binned"}, Space::device);
      CsrMatrix C = impl->multiply(A, B, nullptr);
      std::vector<double> v;
      impl->multiply_numeric(A, B, C, nullptr);
      for (int k = 0; k < repeat; ++k) v.push_back(device::elapsed_ms([&] { impl->multiply_numeric(A, B, C, nullptr); }));
      numeric_ms = median(v);
      r["numeric_ms"] = numeric_ms;
    }
    rows.push_back(r);
    auto ms = [&](const std::string& alg) {
      const Timed& t = res[alg];
      return t.ms > 0 ? fmt::format("{:.3f}", t.ms) : std::string("failed");
    };
    auto speedup = [&](const std::string& alg) {
      const Timed& t = res[alg];
      return t.ms > 0 && b.ms > 0 ? fmt::format("{:.2f}×", t.ms / b.ms) : std::string("n/a");
    };
    table += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {:.1f} | {:.1f}× | {} | {} | {} | {} | {} | {} | {:.2f} |\n", problem, level,
        what, b.stats.products, nnz_c, ms("binned"), b.ms > 0 ? 2.0 * b.stats.products / (b.ms * 1e6) : 0.0,
        b.ms / floor_ms, numeric_ms > 0 ? fmt::format("{:.3f} ({:.1f}×)", numeric_ms, numeric_ms / floor_ms) : "",
        ms("cusparse"), speedup("cusparse"),
        ms("binned_sort") + " / " + ms("binned_hash") + " / " + ms("binned_direct") + " / " + ms("binned_esc_long") + " / " +
            ms("binned_merge_long"),
        ms("esc"), speedup("esc"),
        b.stats.workspace_bytes / c_bytes);
    std::cout << "  " << problem << " level " << level << " " << what << ": binned " << ms("binned") << " ms, cuSPARSE "
              << ms("cusparse") << " ms" << std::endl;
  }
};

struct Case {
  Stencil s;
  index_t N;
};

// The rows of A whose row of A·B has more than 8192 products (the binned
// SpGEMM's long rows), as a matrix of their own.
CsrMatrix long_rows_of(const CsrMatrix& A, const CsrMatrix& B) {
  const CsrMatrix Ah = A.to(Space::host), Bh = B.to(Space::host);
  std::vector<offset_t> rp{0};
  std::vector<index_t> col;
  std::vector<double> val;
  for (index_t i = 0; i < Ah.rows(); ++i) {
    std::int64_t products = 0;
    for (offset_t k = Ah.row_ptr()[i]; k < Ah.row_ptr()[i + 1]; ++k)
      products += Bh.row_ptr()[Ah.col()[k] + 1] - Bh.row_ptr()[Ah.col()[k]];
    if (products <= 8192) continue;
    for (offset_t k = Ah.row_ptr()[i]; k < Ah.row_ptr()[i + 1]; ++k) {
      col.push_back(Ah.col()[k]);
      val.push_back(Ah.val()[k]);
    }
    rp.push_back(static_cast<offset_t>(col.size()));
  }
  const auto rows = static_cast<index_t>(rp.size() - 1);
  return CsrMatrix(rows, A.cols(), Array<offset_t>::from_vector(rp, Space::device),
                   Array<index_t>::from_vector(col, Space::device), Array<double>::from_vector(val, Space::device));
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saga SpGEMM benchmark (run on a GPU machine)"};
  std::string json_path = "bench_spgemm.json", md_path;
  int repeat = 5, rmat_scale = 20, rmat_edges = 10;
  bool quick = false;
  std::string only = "all";
  app.add_option("--json", json_path, "where to write the results as JSON");
  app.add_option("--markdown", md_path, "also write the table as Markdown");
  app.add_option("--repeat", repeat, "timed repetitions (median reported)");
  app.add_option("--rmat-scale", rmat_scale, "R-MAT matrix: 2^scale rows (0: skip)");
  app.add_option("--rmat-edges", rmat_edges, "R-MAT matrix: edges per row before duplicates are summed");
  app.add_flag("--quick", quick, "small sizes only (smoke run)");
  app.add_option("--only", only, "all | stencils (the seed problems' setup products) | rmat (R-MAT A·A, the R-MAT "
                 "Laplacians' Galerkin products)")
      ->check(CLI::IsMember({"all", "stencils", "rmat"}));
  CLI11_PARSE(app, argc, argv);
  try {
    if (device::count() == 0) {
      std::cerr << "saga-bench-spgemm: no GPU present; this benchmark measures the CUDA backend\n";
      return 2;
    }
    const device::Info info = device::info();
    Recorder rec;
    rec.bw = copy_bandwidth_gbs();
    rec.repeat = repeat;
    for (const std::string& name : spgemm_registry().names(Space::device)) rec.algs.emplace_back(name, Component(name));
    rec.algs.emplace_back("binned_sort", Component("binned", Options().set("rows", "sort")));
    rec.algs.emplace_back("binned_hash", Component("binned", Options().set("rows", "hash")));
    rec.algs.emplace_back("binned_direct", Component("binned", Options().set("assembly", "direct")));
    rec.algs.emplace_back("binned_esc_long", Component("binned", Options().set("long_rows", "esc")));
    rec.algs.emplace_back("binned_merge_long", Component("binned", Options().set("long_rows", "merge")));
    const std::vector<Case> cases =
        quick ? std::vector<Case>{{Stencil::fd2d_5pt, 256}, {Stencil::fd3d_7pt, 32}, {Stencil::fe3d_27pt, 24}}
              : std::vector<Case>{{Stencil::fd2d_5pt, 1024}, {Stencil::fe2d_9pt, 1024}, {Stencil::fd3d_7pt, 128},
                                  {Stencil::fe3d_27pt, 101}};
    if (quick) rmat_scale = std::min(rmat_scale, 14);
    std::cout << fmt::format("GPU {} | copy bandwidth {:.0f} GB/s | median of {}\n", info.name, rec.bw, repeat);
    for (const Case& c : only == "rmat" ? std::vector<Case>{} : cases) {
      const std::string name = fmt::format("{} N={}", stencil_name(c.s), c.N);
      SetupParams sp;
      sp.exact_single = false;  // the products read the fine matrix's values in double
      const Hierarchy h(poisson(c.s, c.N, Space::device), sp);
      const auto& levels = h.levels();
      rec.product(name, 0, "A·A", levels[0].A, levels[0].A, nullptr, nullptr, false);
      for (std::size_t l = 0; l + 1 < levels.size(); ++l) {
        const Level& L = levels[l];
        amg::Aggregates ag{L.aggregates.clone(), L.P.cols() / L.nullspace_columns, 0};
        const amg::Tentative T = amg::tentative_prolongator(ag, L.B, L.nullspace_columns);
        Vector s = L.dinv.clone();
        scale(-4.0 / (3.0 * L.rho), s);
        rec.product(name, static_cast<int>(l), "P = T − ωD⁻¹AT", L.A, T.T, &T.T, &s, false);
        const CsrMatrix AP = spgemm(L.A, L.P);
        rec.product(name, static_cast<int>(l), "A·P", L.A, L.P, nullptr, nullptr, l == 0);
        rec.product(name, static_cast<int>(l), "Pᵀ(AP)", L.R, AP, nullptr, nullptr, l == 0);
      }
    }
    if (rmat_scale > 0 && only != "stencils") {
      const CsrMatrix G = rmat(rmat_scale, rmat_edges, 2026);
      const std::string name = fmt::format("R-MAT 2^{} ({} nnz)", rmat_scale, G.nnz());
      rec.product(name, 0, "A·A", G, G, nullptr, nullptr, true);
      rec.product(name, 0, "A·A, rows > 8192 products", long_rows_of(G, G), G, nullptr, nullptr, false);
      // The Galerkin products of R-MAT Laplacians (configs/rmat_laplacian.yaml):
      // hubs give rows of 10^5-10^6 products into a few thousand coarse columns.
      for (const int scale : quick ? std::vector<int>{12} : std::vector<int>{14, 15}) {
        RmatParams p;
        p.scale = scale;
        SetupParams sp;
        sp.theta = 0.0;
        sp.exact_single = false;
        const Hierarchy h(rmat_laplacian(p, 1.0, Space::device), sp);
        const Level& L = h.levels()[0];
        const std::string lname = fmt::format("R-MAT Laplacian 2^{}", scale);
        const CsrMatrix AP = spgemm(L.A, L.P);
        rec.product(lname, 0, "A·P", L.A, L.P, nullptr, nullptr, false);
        rec.product(lname, 0, "Pᵀ(AP)", L.R, AP, nullptr, nullptr, false);
      }
    }
    const std::string header =
        "| problem | level | product | products | nnz(C) | binned ms | GFLOP/s | binned/floor | numeric ms (/floor) | "
        "cuSPARSE ms | cuSPARSE/binned | binned rows=sort / rows=hash / assembly=direct / long_rows=esc / "
        "long_rows=merge ms | "
        "ESC ms | ESC/binned | workspace/C |\n"
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    nlohmann::json out;
    out["gpu"] = info.name;
    out["cuda_runtime"] = info.runtime_version;
    out["copy_bandwidth_gbs"] = rec.bw;
    out["repeat"] = repeat;
    out["products"] = rec.rows;
    out["table_markdown"] = header + rec.table;
    std::ofstream(json_path) << out.dump(2) << "\n";
    if (!md_path.empty())
      std::ofstream(md_path) << fmt::format("GPU {}, CUDA runtime {}, copy bandwidth {:.0f} GB/s, median of {}\n\n",
                                            info.name, info.runtime_version, rec.bw, repeat)
                             << header << rec.table;
    std::cout << header << rec.table;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "saga-bench-spgemm: " << e.what() << "\n";
    return 1;
  }
}
