#include "app/profile.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>

#include "app/run.hpp"
#include "core/device.hpp"
#include "core/file.hpp"
#include "core/log.hpp"
#include "sparse/spgemm.hpp"

namespace saga {

TimeStat time_stat(std::vector<double> s) {
  TimeStat t;
  if (s.empty()) return t;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  t.median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  t.min = s.front();
  t.max = s.back();
  return t;
}

std::vector<std::string> profile_spgemm_choices(Space backend) { return spgemm_registry().names(backend); }

SetupProfile profile_setup(const RunConfig& config, const std::shared_ptr<const Executor>& exec, int repeat,
                           const std::string& spgemm) {
  SAGA_REQUIRE(repeat >= 1, "--repeat {} must be at least 1", repeat);
  const Space space = exec->space();
  AmgParams params = config.amg;
  if (!spgemm.empty()) params.spgemm = Component(spgemm);
  validate(params, space);  // an unknown or unsupported SpGEMM fails here, before any work
  ExecutorScope scope(exec);
  Problem problem = build_problem(config.problem, space);
  SetupProfile p;
  p.config = config.name;
  p.problem = problem.description;
  p.backend = space;
  p.executor = exec->name();
  if (space == Space::device) p.device = device::info().name;
  // The registry names what runs: its default when the config says nothing.
  p.spgemm = spgemm_registry().resolve(params.spgemm, space);
  p.rows = problem.A.rows();
  p.nnz = problem.A.nnz();
  p.repeat = repeat;
  p.phases = setup_phases();

  std::vector<HierarchyStats> runs;
  for (int r = 0; r <= repeat; ++r) {
    const Hierarchy h(problem.A.clone(), params, problem_nullspace(problem, config, space), exec);
    if (r > 0) runs.push_back(h.stats());
    log_info("profile {}: setup {} of {}: {:.4f} s", config.name, r, repeat, h.stats().setup_seconds);
  }
  const HierarchyStats& last = runs.back();
  p.last = last;
  p.levels = static_cast<int>(last.levels.size());
  p.operator_complexity = last.operator_complexity;
  auto collect = [&](auto&& value) {
    std::vector<double> v;
    for (const auto& s : runs) v.push_back(value(s));
    return time_stat(v);
  };
  p.setup = collect([](const HierarchyStats& s) { return s.setup_seconds; });
  p.spgemm_total = collect([](const HierarchyStats& s) { return s.spgemm_seconds(); });
  for (const auto& phase : p.phases)
    p.phase_total.push_back(collect([&](const HierarchyStats& s) {
      const auto it = s.phase_seconds.find(phase);
      return it == s.phase_seconds.end() ? 0.0 : it->second;
    }));
  for (std::size_t l = 0; l < last.levels.size(); ++l) {
    std::vector<TimeStat> per_phase;
    for (const auto& phase : p.phases)
      per_phase.push_back(collect([&](const HierarchyStats& s) {
        const auto& m = s.levels[l].seconds;
        const auto it = m.find(phase);
        return it == m.end() ? 0.0 : it->second;
      }));
    p.phase_level.push_back(per_phase);
    for (const char* product : {"AT", "AP", "PtAP"}) {
      const auto it = last.levels[l].spgemm.find(product);
      if (it == last.levels[l].spgemm.end()) continue;
      SpgemmProfile sp;
      sp.level = static_cast<int>(l);
      sp.product = product;
      sp.products = it->second.products;
      sp.nnz = it->second.nnz_c;
      sp.seconds = collect([&](const HierarchyStats& s) { return s.levels[l].spgemm.at(product).seconds; });
      p.spgemm_products.push_back(sp);
    }
  }
  return p;
}

namespace {
nlohmann::json json_stat(const TimeStat& t) {
  return {{"median", t.median}, {"min", t.min}, {"max", t.max}, {"spread", t.spread()}};
}
}  // namespace

std::string format_profile(const SetupProfile& p) {
  std::string s;
  s += fmt::format("profile   {} on {}{}, SpGEMM {}\n", p.config, backend_name(p.backend),
                   p.device.empty() ? "" : " (" + p.device + ")", p.spgemm);
  s += fmt::format("problem   {}\n          n = {}, nnz = {}, {} levels, operator complexity {:.3f}\n", p.problem,
                   p.rows, p.nnz, p.levels, p.operator_complexity);
  s += fmt::format("setup     median {:.4f} s over {} repetitions (min {:.4f}, max {:.4f}, spread {:.1f}%)\n",
                   p.setup.median, p.repeat, p.setup.min, p.setup.max, 100 * p.setup.spread());
  s += fmt::format("  {:<24} {:>10} {:>7} {:>8}", "phase", "median s", "share", "spread");
  for (std::size_t l = 0; l < p.phase_level.size(); ++l) s += fmt::format(" {:>9}", fmt::format("L{} s", l));
  s += "\n";
  const bool memory = p.last.peak_level >= 0;  // device: the last repetition's memory peaks per phase
  if (memory) s.insert(s.size() - 1, fmt::format(" {:>10}", "peak MiB"));
  for (std::size_t k = 0; k < p.phases.size(); ++k) {
    const TimeStat& t = p.phase_total[k];
    s += fmt::format("  {:<24} {:>10.5f} {:>6.1f}% {:>7.1f}%", setup_phase_label(p.phases[k]), t.median,
                     100 * t.median / p.setup.median, 100 * t.spread());
    for (const auto& level : p.phase_level) s += fmt::format(" {:>9.5f}", level[k].median);
    if (memory) {
      std::size_t peak = 0;  // over the levels
      for (const LevelStats& L : p.last.levels)
        if (auto it = L.peak_bytes.find(p.phases[k]); it != L.peak_bytes.end()) peak = std::max(peak, it->second);
      s += peak ? fmt::format(" {:>10.1f}", peak / 1048576.0) : fmt::format(" {:>10}", "-");
    }
    s += "\n";
  }
  if (memory)
    s += fmt::format("  device memory at its peak {:.1f} MiB ({:.0f} B per row of A, problem included) in level {}, "
                     "phase {}\n",
                     p.last.peak_bytes / 1048576.0, static_cast<double>(p.last.peak_bytes) / p.rows,
                     p.last.peak_level, setup_phase_label(p.last.peak_phase));
  s += fmt::format("  SpGEMM share of setup: {:.1f}% ({:.4f} s, spread {:.1f}%)\n", 100 * p.spgemm_share(),
                   p.spgemm_total.median, 100 * p.spgemm_total.spread());
  s += fmt::format("  {:>5} {:<7} {:>12} {:>12} {:>10} {:>8}\n", "level", "product", "products", "nnz(C)", "median s",
                   "GFLOP/s");
  for (const auto& sp : p.spgemm_products)
    s += fmt::format("  {:>5} {:<7} {:>12} {:>12} {:>10.5f} {:>8.2f}\n", sp.level, sp.product, sp.products, sp.nnz,
                     sp.seconds.median, sp.gflops());
  return s;
}

nlohmann::json to_json(const SetupProfile& p) {
  using nlohmann::json;
  json phases = json::object();
  for (std::size_t k = 0; k < p.phases.size(); ++k) {
    json j = json_stat(p.phase_total[k]);
    j["share"] = p.setup.median > 0 ? p.phase_total[k].median / p.setup.median : 0.0;
    phases[p.phases[k]] = j;
  }
  json levels = json::array();
  for (std::size_t l = 0; l < p.phase_level.size(); ++l) {
    json lv = {{"rows", p.last.levels[l].rows}, {"nnz", p.last.levels[l].nnz}, {"phases", json::object()}};
    for (std::size_t k = 0; k < p.phases.size(); ++k) lv["phases"][p.phases[k]] = json_stat(p.phase_level[l][k]);
    if (p.last.peak_level >= 0) lv["peak_bytes"] = p.last.levels[l].peak_bytes;
    levels.push_back(lv);
  }
  json products = json::array();
  for (const auto& sp : p.spgemm_products)
    products.push_back({{"level", sp.level},
                        {"product", sp.product},
                        {"products", sp.products},
                        {"nnz", sp.nnz},
                        {"seconds", json_stat(sp.seconds)},
                        {"gflops", sp.gflops()}});
  return {{"saga_version", SAGA_VERSION},
          {"config", p.config},
          {"problem", {{"description", p.problem}, {"rows", p.rows}, {"nnz", p.nnz}}},
          {"backend", backend_name(p.backend)},
          {"device", p.device},
          {"spgemm", p.spgemm},
          {"repeat", p.repeat},
          {"levels", p.levels},
          {"operator_complexity", p.operator_complexity},
          {"setup", json_stat(p.setup)},
          {"phases", phases},
          {"per_level", levels},
          {"spgemm_products", products},
          {"spgemm_total", json_stat(p.spgemm_total)},
          {"spgemm_share", p.spgemm_share()}};
}

void write_profile_csv(const SetupProfile& p, std::ostream& out, bool header) {
  if (header)
    out << "config,problem,rows,nnz,backend,device,spgemm,repeat,level,phase,median_s,min_s,max_s,spread,share,"
           "setup_median_s\n";
  auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  auto row = [&](const std::string& level, const std::string& phase, const TimeStat& t) {
    out << fmt::format("{},{},{},{},{},{},{},{},{},{},{:.6e},{:.6e},{:.6e},{:.4f},{:.4f},{:.6e}\n", quote(p.config),
                       quote(p.problem), p.rows, p.nnz, backend_name(p.backend), quote(p.device), quote(p.spgemm),
                       p.repeat, level, phase, t.median, t.min, t.max, t.spread(),
                       p.setup.median > 0 ? t.median / p.setup.median : 0.0, p.setup.median);
  };
  row("all", "setup", p.setup);
  for (std::size_t k = 0; k < p.phases.size(); ++k) row("all", p.phases[k], p.phase_total[k]);
  row("all", "spgemm_total", p.spgemm_total);
  for (std::size_t l = 0; l < p.phase_level.size(); ++l)
    for (std::size_t k = 0; k < p.phases.size(); ++k) row(std::to_string(l), p.phases[k], p.phase_level[l][k]);
}

namespace {
SweepConfig load_sweep_checked(const std::string& path) {
  std::ifstream in = open_input_file(path, "sweep file");
  const YAML::Node root = YAML::Load(in);
  reject_duplicate_keys(root, path);
  auto fail = [&](const YAML::Node& n, const std::string& msg) -> void {
    throw InputError(fmt::format("{}:{}:{}: {}", path, n.Mark().line + 1, n.Mark().column + 1, msg));
  };
  SweepConfig s;
  s.name = path;
  const YAML::Node sw = root["sweep"];
  if (!root.IsMap() || !sw || !sw.IsMap()) throw InputError(fmt::format("{}: expected a 'sweep:' mapping", path));
  for (const auto& kv : root)
    if (kv.first.as<std::string>() != "sweep") fail(kv.first, fmt::format("unknown key '{}'", kv.first.as<std::string>()));
  for (const auto& kv : sw) {
    const std::string k = kv.first.as<std::string>();
    if (k != "configs" && k != "spgemm" && k != "backend" && k != "repeat")
      fail(kv.first, fmt::format("unknown key 'sweep.{}' (known: backend, configs, repeat, spgemm)", k));
  }
  const auto base = std::filesystem::path(path).parent_path();
  auto strings = [&](const char* key, std::vector<std::string>& out) {
    const YAML::Node n = sw[key];
    if (!n) return;
    if (n.IsScalar()) {
      out.push_back(n.Scalar());
      return;
    }
    if (!n.IsSequence()) fail(n, fmt::format("sweep.{}: expected a list", key));
    for (const auto& x : n) {
      if (!x.IsScalar()) fail(x, fmt::format("sweep.{}: expected strings", key));
      out.push_back(x.Scalar());
    }
  };
  strings("configs", s.configs);
  if (s.configs.empty()) fail(sw, "sweep.configs: at least one config is required");
  for (auto& c : s.configs) {
    if (std::filesystem::path(c).is_relative()) c = (base / c).lexically_normal().string();
    if (!std::filesystem::exists(c)) fail(sw["configs"], fmt::format("sweep.configs: '{}' does not exist", c));
  }
  strings("spgemm", s.spgemm);
  if (s.spgemm.empty()) s.spgemm = {"all"};
  if (const YAML::Node b = sw["backend"]) {
    s.backend = b.Scalar();
    if (s.backend != "auto" && s.backend != "host" && s.backend != "cuda")
      fail(b, fmt::format("sweep.backend: '{}' (expected auto, host or cuda)", s.backend));
  }
  if (const YAML::Node r = sw["repeat"]) {
    try {
      s.repeat = r.as<int>();
    } catch (const YAML::Exception&) {
      fail(r, "sweep.repeat: expected an integer");
    }
    if (s.repeat < 1) fail(r, "sweep.repeat: must be at least 1");
  }
  return s;
}
}  // namespace

SweepConfig load_sweep(const std::string& path) {
  try {
    return load_sweep_checked(path);
  } catch (const YAML::Exception& e) {  // syntax, or a conversion no check anticipated
    throw_yaml_error(e, path);
  }
}

}  // namespace saga
