// saga: command-line client of the library.
//   saga solve CONFIG.yaml [--backend auto|host|cuda] [--set KEY.PATH=VALUE]... [--report FILE.json] [--progress]
//              [--repeat R]
//   saga profile-setup CONFIG.yaml [--repeat R] [--spgemm NAME|all] [--backend ...] [--json F] [--csv F]
//   saga sweep SWEEP.yaml [--repeat R] [--backend ...] [--json F] [--csv F]
//   saga info [--components] [--names KIND]
// Exit status (README "Exit status"): 0 success, 1 an error (bad input, a
// failed step), 2 a bad command line, 3 a solve that did not converge.
#include <cstdlib>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <omp.h>

#include <chrono>
#include <new>
#include <regex>
#include <fstream>
#include <sstream>
#include <iostream>

#include "app/profile.hpp"
#include "app/run.hpp"
#include "amg/aggregation.hpp"
#include "amg/coarse_solver.hpp"
#include "amg/nullspace.hpp"
#include "amg/strength.hpp"
#include "core/device.hpp"
#include "core/file.hpp"
#include "core/log.hpp"
#include "solver/cycle.hpp"
#include "solver/krylov.hpp"
#include "problems/problem.hpp"
#include "solver/smoother.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"

using namespace saga;

namespace {
enum ExitStatus { kSuccess = 0, kError = 1, kUsage = 2, kNotConverged = 3 };

// The "[file.cpp:123]" of a check's location is for developers: kept with
// --verbose, dropped otherwise.
std::string user_message(const std::string& what, bool verbose) {
  if (verbose) return what;
  static const std::regex location(R"( \[[^\]\[]*\.(cpp|cu|cuh|hpp):[0-9]+\])");
  return std::regex_replace(what, location, "");
}

// Every registry: its components, where they run, the default, and (with
// --components) each component's parameters.
template <class Reg>
void print_registry(const Reg& r, bool details) {
  const std::string dh = r.default_name(Space::host), dd = r.default_name(Space::device);
  fmt::print("{} ({}): default {}\n", r.kind(), r.key(),
             dh == dd || dd.empty() ? dh : fmt::format("{} on host, {} on cuda", dh, dd));
  for (const auto& e : r.entries()) {
    fmt::print("  {:<16} [{}{}{}] {}\n", e.name, e.host ? "host" : "", e.host && e.device ? ", " : "",
               e.device ? "cuda" : "", e.summary);
    if (!details) continue;
    for (const auto& d : e.docs())
      fmt::print("      {:<20} {:<8} default {:<10} {} — {}\n", d.key, d.type, d.default_value, d.range, d.doc);
  }
}

// `saga info --names KIND`: one name per line (for scripts).
int print_names(const std::string& kind) {
  auto out = [](const std::vector<std::string>& v) {
    for (const auto& n : v) fmt::print("{}\n", n);
    return 0;
  };
  const Space s = device::compiled() && device::count() > 0 ? Space::device : Space::host;
  if (kind == "spgemm") return out(spgemm_registry().names(s));
  if (kind == "spmv") return out(spmv_registry().names(s));
  if (kind == "coarse_solver") return out(amg::coarse_solvers().names());
  if (kind == "strength") return out(amg::strength_measures().names());
  if (kind == "aggregation") return out(amg::aggregation_methods().names());
  if (kind == "nullspace") return out(nullspace_sources().names());
  if (kind == "cycle") return out(cycles().names());
  if (kind == "smoother") return out(smoothers().names());
  if (kind == "solver") return out(krylov_methods().names());
  if (kind == "problem") return out(problem_generators().names());
  throw InputError(fmt::format("saga info --names {}: expected spgemm, spmv, strength, aggregation, nullspace, "
                               "coarse_solver, "
                               "cycle, smoother, solver or problem",
                               kind));
}

void print_components(bool details) {
  print_registry(spgemm_registry(), details);
  print_registry(spmv_registry(), details);
  print_registry(amg::strength_measures(), details);
  print_registry(amg::aggregation_methods(), details);
  print_registry(nullspace_sources(), details);
  print_registry(amg::coarse_solvers(), details);
  print_registry(cycles(), details);
  print_registry(smoothers(), details);
  print_registry(krylov_methods(), details);
  print_registry(problem_generators(), details);
}

int cmd_info(bool components) {
  fmt::print("saga {}\n", SAGA_VERSION);
  fmt::print("build: {} | {} | CUDA {} | OpenMP {} threads | {}-bit offsets\n", SAGA_BUILD_TYPE, SAGA_CXX_COMPILER,
             SAGA_CUDA_INFO, omp_get_max_threads(), 8 * sizeof(offset_t));
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
  fmt::print("backends: host{}\n", n > 0 ? ", cuda (auto selects cuda)" : " (auto selects host)");
  print_components(components);
  return 0;
}

// Progress of a long solve on stderr: every iteration once the solve has run
// for a second (at most 5 lines a second), or every iteration with --progress.
struct Progress {
  std::chrono::steady_clock::time_point start, last_line;
  double last = 0;
  bool every = false, started = false;
};

void progress_line(int it, double rel, void* data) {
  auto& p = *static_cast<Progress*>(data);
  const auto now = std::chrono::steady_clock::now();
  if (!p.started) p.start = now, p.started = true;  // the solve's clock starts at its first iteration
  const double rate = it > 0 && p.last > 0 ? rel / p.last : 0;
  p.last = rel;
  const bool long_solve = now - p.start > std::chrono::seconds(1);
  if (p.every || (long_solve && now - p.last_line > std::chrono::milliseconds(200))) {
    fmt::print(stderr, "  iteration {:5d}  relative residual {:.3e}  rate {:.3f}\n", it, rel, rate);
    p.last_line = now;
  }
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  if (!out) throw InputError(fmt::format("cannot write '{}'", path));
  out << text;
}

int cmd_profile(const std::vector<RunConfig>& configs, const std::vector<std::string>& spgemm, int repeat,
                const std::string& json_path, const std::string& csv_path, bool quiet) {
  nlohmann::json all = nlohmann::json::array();
  std::ostringstream csv;
  bool header = true;
  for (const RunConfig& cfg : configs) {
    const auto exec = Executor::from_name(cfg.backend);
    std::vector<std::string> names;
    for (const auto& n : spgemm)
      if (n == "all") {
        for (const auto& x : profile_spgemm_choices(exec->space())) names.push_back(x);
      } else {
        names.push_back(n);
      }
    if (names.empty()) names.push_back("");  // the config's own choice
    for (const auto& name : names) {
      const SetupProfile p = profile_setup(cfg, exec, repeat, name);
      if (!quiet) std::cout << format_profile(p) << "\n";
      all.push_back(to_json(p));
      write_profile_csv(p, csv, header);
      header = false;
    }
  }
  if (!json_path.empty()) write_file(json_path, all.dump(2) + "\n");
  if (!csv_path.empty()) write_file(csv_path, csv.str());
  return 0;
}
}  // namespace

// Asks CUDA to load the GPU kernels when its context is made rather than at
// their first launch (its default is lazy), so that the first setup of the
// process is not charged ~5 ms of loading (3D 7-pt N=128 on the H100: setup
// 20-22 ms lazy, 15.7-16.2 eager, 15.0-15.5 warm; the process's wall time the
// same). Not when the run uses cuSPARSE: loading all of that library costs
// ~0.45 s at its first use. A value the user set is kept. Must run before
// the first CUDA call.
void prefer_eager_loading(const std::vector<RunConfig>& configs, const std::vector<std::string>& spgemms) {
  bool cusparse = false;
  for (const RunConfig& c : configs) cusparse = cusparse || c.amg.spgemm.name == "cusparse";
  for (const std::string& s : spgemms) cusparse = cusparse || s == "cusparse" || s == "all";
  if (!cusparse) setenv("CUDA_MODULE_LOADING", "EAGER", 0);
}

int main(int argc, char** argv) {
  CLI::App app{"saga: GPU smoothed-aggregation AMG"};
  app.require_subcommand(1);
  app.fallthrough();  // -v / -q also after the subcommand
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "more output (per-iteration residuals)");
  app.add_flag("-q,--quiet", quiet, "errors only");
  auto* solve = app.add_subcommand("solve", "solve the system of a YAML config with AMG");
  std::string config_path, backend_name, report_path;
  solve->add_option("config", config_path, "YAML config (see docs/config.md)")->required();
  solve->add_option("--backend", backend_name, "auto | host | cuda (overrides the config)");
  solve->add_option("--report", report_path, "write a JSON report here (schema: docs/report.schema.json)");
  std::vector<std::string> overrides;
  solve->add_option("--set", overrides, "KEY.PATH=VALUE over the config, e.g. amg.cycle=W (repeatable)");
  bool every_iteration = false;
  solve->add_flag("--progress", every_iteration, "a progress line every iteration (default: only on long solves)");
  int solve_repeat = 1;
  solve->add_option("--repeat", solve_repeat,
                    "set up and solve R times in this process (the problem built again, untimed, each time) and "
                    "report each run's times beside the first's (default 1)")
      ->check(CLI::Range(1, 1000));

  auto* profile = app.add_subcommand("profile-setup", "time the AMG setup phase by phase, R times");
  std::string json_path, csv_path, spgemm_name;
  int repeat = 5;
  profile->add_option("config", config_path, "YAML config")->required();
  profile->add_option("--repeat", repeat, "timed setups after one warm-up (default 5)");
  profile->add_option("--spgemm", spgemm_name, "SpGEMM implementation, or 'all' (default: the config's)");
  profile->add_option("--backend", backend_name, "auto | host | cuda (overrides the config)");
  profile->add_option("--json", json_path, "write the profiles as JSON");
  profile->add_option("--set", overrides, "KEY.PATH=VALUE over the config (repeatable)");
  profile->add_option("--csv", csv_path, "write one CSV row per phase (and per level)");

  auto* sweep = app.add_subcommand("sweep", "profile-setup over the configs of a sweep file (docs/config.md)");
  std::string sweep_path;
  int sweep_repeat = 0;
  sweep->add_option("sweep", sweep_path, "sweep YAML")->required();
  sweep->add_option("--repeat", sweep_repeat, "override the sweep's repeat count");
  sweep->add_option("--backend", backend_name, "auto | host | cuda (overrides the sweep)");
  sweep->add_option("--json", json_path, "write the profiles as JSON");
  sweep->add_option("--csv", csv_path, "write one CSV row per problem, SpGEMM and phase (and level)");
  auto* info = app.add_subcommand("info", "GPU, build configuration, backends and every component");
  bool components = false;
  info->add_flag("--components", components, "also list each component's parameters (key, type, default, range)");
  std::string names_of;
  info->add_option("--names", names_of, "print the component names of one kind, one per line");
  // A mistyped command would otherwise read as "a subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    std::string known;  // the subcommands defined above, in their order
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      found = found || sub->get_name() == argv[1];
    }
    if (!found) {
      std::cerr << "saga: unknown command '" << argv[1] << "' (expected " << known << "; saga --help)\n";
      return kUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the help or the message
    return code == 0 ? kSuccess : kUsage;
  }

  spdlog::set_pattern("%^[%l]%$ %v");
  set_log_sink([](LogLevel level, const std::string& msg) {
    if (level == LogLevel::warning)
      spdlog::warn("{}", msg);
    else
      spdlog::info("{}", msg);
  });
  spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::warn);
  try {
    if (info->parsed()) return names_of.empty() ? cmd_info(components) : print_names(names_of);
    // Output paths are checked before the work that writes them.
    if (!report_path.empty()) check_output_path(report_path, "report");
    if (!json_path.empty()) check_output_path(json_path, "JSON output");
    if (!csv_path.empty()) check_output_path(csv_path, "CSV output");
    if (profile->parsed()) {
      RunConfig cfg = load_config(config_path, overrides);
      if (!backend_name.empty()) cfg.backend = backend_name;
      prefer_eager_loading({cfg}, {spgemm_name});
      return cmd_profile({cfg}, spgemm_name.empty() ? std::vector<std::string>{} : std::vector<std::string>{spgemm_name},
                         repeat, json_path, csv_path, quiet);
    }
    if (sweep->parsed()) {
      const SweepConfig sw = load_sweep(sweep_path);
      std::vector<RunConfig> configs;
      for (const auto& path : sw.configs) {
        configs.push_back(load_config(path));
        configs.back().backend = backend_name.empty() ? sw.backend : backend_name;
      }
      prefer_eager_loading(configs, sw.spgemm);
      return cmd_profile(configs, sw.spgemm, sweep_repeat > 0 ? sweep_repeat : sw.repeat, json_path, csv_path, quiet);
    }
    RunConfig cfg = load_config(config_path, overrides);
    if (!backend_name.empty()) cfg.backend = backend_name;
    prefer_eager_loading({cfg}, {});
    Progress progress;
    progress.every = every_iteration || verbose;
    if (!quiet) {
      cfg.solver.progress = &progress_line;
      cfg.solver.progress_data = &progress;
    }
    const RunResult r = run_solve_repeated(cfg, solve_repeat);
    if (!quiet) std::cout << format_summary(r);
    if (!report_path.empty()) {
      std::ofstream out(report_path);
      if (!out) throw InputError(fmt::format("cannot write report '{}'", report_path));
      out << to_json(r).dump(2) << "\n";
    }
    if (!r.solve.converged) {
      std::cerr << "saga: " << r.solve.message << "\n";
      return kNotConverged;
    }
    return kSuccess;
  } catch (const std::bad_alloc&) {
    std::cerr << "saga: error: out of host memory (a problem, matrix or hierarchy larger than this machine holds)\n";
    return kError;
  } catch (const std::exception& e) {
    std::cerr << "saga: error: " << user_message(e.what(), verbose) << "\n";
    return kError;
  }
}
