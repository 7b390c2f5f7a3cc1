// saga-bench: the sparse-layer benchmark of docs/results.md §3 on the seed suite.
// For each structured problem: A·A with saga's reference ESC SpGEMM and with
// cusparseSpGEMM, SpMV with saga's CSR-vector kernel and with cusparseSpMV, all
// in this process, plus the device copy bandwidth that sets the data-movement
// floor. Writes a JSON file and prints a table.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "benchmarks/bench_common.hpp"
#include "core/device.hpp"
#include "problems/rhs.hpp"
#include "problems/structured.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

using namespace saga;

namespace {
using bench::copy_bandwidth_gbs;
using bench::csr_bytes;
using bench::median;

struct Case {
  Stencil s;
  index_t N;
};
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saga sparse-layer benchmark (run on a GPU machine)"};
  std::string json_path = "bench_sparse.json", md_path;
  int repeat = 7;
  bool quick = false;
  std::size_t budget_mib = 4096;
  app.add_option("--json", json_path, "where to write the results as JSON");
  app.add_option("--markdown", md_path, "also write the table as Markdown");
  app.add_option("--repeat", repeat, "timed repetitions (median reported)");
  app.add_option("--esc-budget-mib", budget_mib, "ESC expansion memory budget per slice (MiB)");
  app.add_flag("--quick", quick, "small sizes only (smoke run)");
  CLI11_PARSE(app, argc, argv);

  try {
    if (device::count() == 0) {
      std::cerr << "saga-bench: no GPU present; this benchmark measures the CUDA backend\n";
      return 2;
    }
    const device::Info info = device::info();
    const double bw = copy_bandwidth_gbs();
    std::vector<Case> cases = quick ? std::vector<Case>{{Stencil::fd2d_5pt, 256}, {Stencil::fd3d_7pt, 32}, {Stencil::fe3d_27pt, 24}}
                                    : std::vector<Case>{{Stencil::fd2d_5pt, 512},  {Stencil::fd2d_5pt, 1024},
                                                        {Stencil::fe2d_9pt, 512},  {Stencil::fe2d_9pt, 1024},
                                                        {Stencil::fd3d_7pt, 64},   {Stencil::fd3d_7pt, 101},
                                                        {Stencil::fd3d_7pt, 128},  {Stencil::fe3d_27pt, 64},
                                                        {Stencil::fe3d_27pt, 101}, {Stencil::fe3d_27pt, 128}};
    nlohmann::json out;
    out["gpu"] = info.name;
    out["cuda_runtime"] = info.runtime_version;
    out["copy_bandwidth_gbs"] = bw;
    out["repeat"] = repeat;
    // A buffer larger than L2, rewritten before each SpMV so that it starts cold.
    Vector flush(std::max<std::size_t>(info.l2_bytes, 1) / 4, Space::device, "L2 flush buffer");

    std::cout << fmt::format("GPU {} | copy bandwidth {:.0f} GB/s (read+write) | median of {}\n", info.name, bw,
                             repeat);
    std::string table = fmt::format(
        "| problem | N | rows | nnz | A·A products | nnz(C) | ESC ms | cuSPARSE ms | ESC/cuSPARSE | ESC/floor | "
        "cuSPARSE/floor | SpMV GB/s | cuSPARSE SpMV GB/s | SpMV/cuSPARSE |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
        "---:|---:|---:|---:|---:|\n");
    for (const Case& c : cases) {
      const CsrMatrix A = poisson(c.s, c.N, Space::device);
      nlohmann::json r;
      r["problem"] = stencil_name(c.s);
      r["N"] = c.N;
      r["rows"] = A.rows();
      r["nnz"] = A.nnz();
      const Component esc("esc", Options().set("memory_budget_mib", budget_mib));
      const Component cus("cusparse");
      SpgemmStats st;
      {
        CsrMatrix C = spgemm(A, A, esc, &st);  // warm-up, and the counts
      }
      const double floor_ms = (2 * csr_bytes(A.rows(), A.nnz()) + csr_bytes(A.rows(), st.nnz_c)) / (bw * 1e9) * 1e3;
      std::vector<double> te, tc;
      for (int k = 0; k < repeat; ++k) te.push_back(device::elapsed_ms([&] { CsrMatrix C = spgemm(A, A, esc); }));
      double cus_ms = -1;
      std::string cus_err;
      try {
        { CsrMatrix C = spgemm(A, A, cus); }
        for (int k = 0; k < repeat; ++k) tc.push_back(device::elapsed_ms([&] { CsrMatrix C = spgemm(A, A, cus); }));
        cus_ms = median(tc);
      } catch (const DeviceError& e) {
        cus_err = e.what();
      }
      const double esc_ms = median(te);
      r["products"] = st.products;
      r["nnz_c"] = st.nnz_c;
      r["esc_slices"] = st.slices;
      r["esc_ms"] = esc_ms;
      r["esc_gflops"] = 2.0 * st.products / (esc_ms * 1e6);
      r["cusparse_spgemm_ms"] = cus_ms;
      if (!cus_err.empty()) r["cusparse_spgemm_error"] = cus_err;
      r["spgemm_floor_ms"] = floor_ms;

      // SpMV, L2 flushed before each call.
      const Vector x = random_vector(A.cols(), 7, Space::device);
      Vector y(A.rows(), Space::device, "SpMV y");
      const double spmv_bytes = csr_bytes(A.rows(), A.nnz()) + 8.0 * A.cols() + 8.0 * A.rows();
      auto time_spmv = [&](const std::string& alg) {
        spmv(1.0, A, x, 0.0, y, alg);
        std::vector<double> t;
        for (int k = 0; k < 3 * repeat; ++k) {
          fill(flush, 0.0);
          t.push_back(device::elapsed_ms([&] { spmv(1.0, A, x, 0.0, y, alg); }));
        }
        return median(t);
      };
      const double sv = time_spmv("csr_vector"), sc = time_spmv("cusparse");
      r["spmv_ms"] = sv;
      r["cusparse_spmv_ms"] = sc;
      r["spmv_floor_ms"] = spmv_bytes / (bw * 1e9) * 1e3;
      r["spmv_gbs"] = spmv_bytes / (sv * 1e6);
      r["cusparse_spmv_gbs"] = spmv_bytes / (sc * 1e6);
      out["cases"].push_back(r);
      auto ratio = [](double a, double b) { return b > 0 ? fmt::format("{:.2f}", a / b) : std::string("n/a"); };
      table += fmt::format("| {} | {} | {} | {} | {} | {} | {:.2f} | {} | {} | {:.1f}× | {} | {:.0f} | {:.0f} | {:.2f} |\n",
                           stencil_name(c.s), c.N, A.rows(), A.nnz(), st.products, st.nnz_c, esc_ms,
                           cus_ms > 0 ? fmt::format("{:.2f}", cus_ms) : std::string("failed"), ratio(esc_ms, cus_ms),
                           esc_ms / floor_ms, cus_ms > 0 ? fmt::format("{:.1f}×", cus_ms / floor_ms) : std::string("n/a"),
                           spmv_bytes / (sv * 1e6), spmv_bytes / (sc * 1e6), sc / sv);
      std::cout << "  done " << stencil_name(c.s) << " N=" << c.N << std::endl;
    }
    out["table_markdown"] = table;
    std::ofstream(json_path) << out.dump(2) << "\n";
    if (!md_path.empty())
      std::ofstream(md_path) << fmt::format("GPU {}, CUDA runtime {}, copy bandwidth {:.0f} GB/s\n\n", info.name,
                                            info.runtime_version, bw)
                             << table;
    std::cout << table;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "saga-bench: " << e.what() << "\n";
    return 1;
  }
}
