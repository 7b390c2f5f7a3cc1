// saga: command-line client of the library.
//   saga solve CONFIG.yaml [--backend auto|host|cuda] [--report FILE.json]
//   saga info
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "api/run.hpp"
#include "core/device.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"

using namespace saga;

namespace {
int cmd_info() {
  fmt::print("saga {}\n", SAGA_VERSION);
  fmt::print("CUDA backend compiled: {}\n", device::compiled() ? "yes" : "no");
  const int n = device::count();
  fmt::print("GPUs present: {}\n", n);
  if (n > 0) {
    const device::Info i = device::info();
    fmt::print("GPU: {} | {:.1f} GiB ({:.1f} GiB free) | {} SMs | compute capability {}.{} | L2 {} MiB | runtime {} "
               "| driver {}\n",
               i.name, i.memory_bytes / 1073741824.0, i.free_bytes / 1073741824.0, i.multiprocessors, i.cc_major,
               i.cc_minor, i.l2_bytes >> 20, i.runtime_version, i.driver_version);
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? std::string("-") : s;
  };
  fmt::print("backends: host{}\n", n > 0 ? ", cuda (auto selects cuda)" : " (auto selects host)");
  fmt::print("SpGEMM algorithms: host [{}], device [{}]\n", list(spgemm_algorithms(Space::host)),
             list(spgemm_algorithms(Space::device)));
  fmt::print("SpMV algorithms: host [{}], device [{}]\n", list(spmv_algorithms(Space::host)),
             list(spmv_algorithms(Space::device)));
  return 0;
}

void progress_line(int it, double rel, void*) {
  static double last = 0;
  const double rate = it > 0 && last > 0 ? rel / last : 0;
  spdlog::debug("  iteration {:4d}  relative residual {:.3e}  rate {:.3f}", it, rel, rate);
  last = rel;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saga: GPU smoothed-aggregation AMG"};
  app.require_subcommand(1);
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "more output (per-iteration residuals)");
  app.add_flag("-q,--quiet", quiet, "errors only");
  auto* solve = app.add_subcommand("solve", "solve the system of a YAML config with AMG");
  std::string config_path, backend_name, report_path;
  solve->add_option("config", config_path, "YAML config (see docs/config.md)")->required();
  solve->add_option("--backend", backend_name, "auto | host | cuda (overrides the config)");
  solve->add_option("--report", report_path, "write a JSON report here");
  auto* info = app.add_subcommand("info", "GPU, build configuration and available backends");
  CLI11_PARSE(app, argc, argv);

  spdlog::set_pattern("%^[%l]%$ %v");
  spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::warn);
  try {
    if (info->parsed()) return cmd_info();
    RunConfig cfg = load_config(config_path);
    if (!backend_name.empty()) cfg.backend = backend_name;
    if (verbose) cfg.solver.progress = &progress_line;
    const Backend b = resolve_backend(cfg.backend);
    const RunResult r = run_solve(cfg, b);
    if (!quiet) std::cout << format_summary(r);
    if (!report_path.empty()) {
      std::ofstream out(report_path);
      if (!out) throw InputError(fmt::format("cannot write report '{}'", report_path));
      out << to_json(r).dump(2) << "\n";
    }
    if (!r.solve.converged) {
      std::cerr << "saga: " << r.solve.message << "\n";
      return 3;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "saga: error: " << e.what() << "\n";
    return 1;
  }
}
