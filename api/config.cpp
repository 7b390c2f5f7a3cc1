#include "api/config.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "problems/structured.hpp"

namespace saga {

namespace {
struct Reader {
  std::string file;
  [[noreturn]] void fail(const YAML::Node& n, const std::string& msg) const {
    const YAML::Mark m = n.Mark();
    if (m.line >= 0) throw InputError(fmt::format("{}:{}:{}: {}", file, m.line + 1, m.column + 1, msg));
    throw InputError(fmt::format("{}: {}", file, msg));
  }
  void require_map(const YAML::Node& n, const std::string& where) const {
    if (!n.IsMap()) fail(n, fmt::format("'{}' must be a mapping of keys to values", where));
  }
  void known_keys(const YAML::Node& n, const std::string& where, const std::set<std::string>& keys) const {
    for (const auto& kv : n) {
      const std::string k = kv.first.as<std::string>();
      if (!keys.count(k)) {
        std::string list;
        for (const auto& s : keys) list += (list.empty() ? "" : ", ") + s;
        fail(kv.first, fmt::format("unknown key '{}{}' (known: {})", where.empty() ? "" : where + ".", k, list));
      }
    }
  }
  template <class T>
  void get(const YAML::Node& map, const std::string& where, const char* key, T& out, const char* type) const {
    const YAML::Node n = map[key];
    if (!n) return;
    if (!n.IsScalar()) fail(n, fmt::format("{}.{}: expected {}", where, key, type));
    try {
      out = n.as<T>();
    } catch (const YAML::Exception&) {
      fail(n, fmt::format("{}.{}: expected {}, got '{}'", where, key, type, n.Scalar()));
    }
  }
};

// "auto" (or 0) for computed relaxation weights.
void get_omega(const Reader& r, const YAML::Node& map, const std::string& where, const char* key, double& out) {
  const YAML::Node n = map[key];
  if (!n) return;
  if (n.IsScalar() && n.Scalar() == "auto") {
    out = 0;
    return;
  }
  r.get(map, where, key, out, "a number or 'auto'");
}
}  // namespace

RunConfig parse_config(const std::string& text, const std::string& name) {
  Reader r{name};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(fmt::format("{}:{}:{}: YAML syntax error: {}", name, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  RunConfig c;
  c.name = name;
  if (root.IsNull()) return c;
  r.require_map(root, "the document");
  r.known_keys(root, "", {"problem", "amg", "solver", "backend"});
  r.get(root, "config", "backend", c.backend, "a string");
  if (c.backend != "auto" && c.backend != "host" && c.backend != "cuda")
    r.fail(root["backend"], fmt::format("backend: '{}' (expected auto, host or cuda)", c.backend));

  if (const YAML::Node p = root["problem"]) {
    r.require_map(p, "problem");
    r.known_keys(p, "problem", {"type", "stencil", "N", "matrix", "rhs", "seed"});
    auto& pc = c.problem;
    r.get(p, "problem", "type", pc.type, "a string");
    r.get(p, "problem", "stencil", pc.stencil, "a string");
    r.get(p, "problem", "N", pc.N, "an integer");
    r.get(p, "problem", "matrix", pc.matrix, "a path");
    r.get(p, "problem", "rhs", pc.rhs, "a string");
    r.get(p, "problem", "seed", pc.seed, "a non-negative integer");
    if (pc.type != "poisson" && pc.type != "matrix_market")
      r.fail(p["type"], fmt::format("problem.type: '{}' (expected poisson or matrix_market)", pc.type));
    if (pc.type == "poisson") {
      try {
        parse_stencil(pc.stencil);
      } catch (const InputError&) {
        r.fail(p["stencil"], fmt::format("problem.stencil: '{}' (expected 2d5, 2d9, 3d7 or 3d27)", pc.stencil));
      }
      if (pc.N < 1) r.fail(p["N"], fmt::format("problem.N: {} must be at least 1", pc.N));
    } else {
      if (pc.matrix.empty()) r.fail(p, "problem.matrix: a Matrix Market path is required for type matrix_market");
      const auto base = std::filesystem::path(name).parent_path();
      if (std::filesystem::path(pc.matrix).is_relative()) pc.matrix = (base / pc.matrix).string();
      if (pc.rhs != "ones" && pc.rhs != "random_solution" && std::filesystem::path(pc.rhs).is_relative())
        pc.rhs = (base / pc.rhs).string();
    }
  }
  if (const YAML::Node a = root["amg"]) {
    r.require_map(a, "amg");
    r.known_keys(a, "amg", {"theta", "coarse_size", "max_levels", "smoother", "pre_sweeps", "post_sweeps", "omega",
                            "prolongator_omega", "cycle", "rho_iterations", "seed", "spgemm"});
    auto& ap = c.amg;
    r.get(a, "amg", "theta", ap.theta, "a number");
    r.get(a, "amg", "coarse_size", ap.coarse_size, "an integer");
    r.get(a, "amg", "max_levels", ap.max_levels, "an integer");
    r.get(a, "amg", "smoother", ap.smoother, "a string");
    r.get(a, "amg", "pre_sweeps", ap.pre_sweeps, "an integer");
    r.get(a, "amg", "post_sweeps", ap.post_sweeps, "an integer");
    get_omega(r, a, "amg", "omega", ap.smoother_omega);
    get_omega(r, a, "amg", "prolongator_omega", ap.prolongator_omega);
    r.get(a, "amg", "cycle", ap.cycle, "a string");
    r.get(a, "amg", "rho_iterations", ap.rho_iterations, "an integer");
    r.get(a, "amg", "seed", ap.seed, "a non-negative integer");
    r.get(a, "amg", "spgemm", ap.spgemm.algorithm, "a string");
    try {
      validate(ap);
    } catch (const InputError& e) {
      const std::string msg = e.what();
      r.fail(a, msg.substr(0, msg.rfind(" [")));
    }
  }
  if (const YAML::Node s = root["solver"]) {
    r.require_map(s, "solver");
    r.known_keys(s, "solver", {"type", "tolerance", "max_iterations"});
    auto& sp = c.solver;
    r.get(s, "solver", "type", sp.type, "a string");
    r.get(s, "solver", "tolerance", sp.tolerance, "a number");
    r.get(s, "solver", "max_iterations", sp.max_iterations, "an integer");
    if (sp.type != "pcg" && sp.type != "amg" && sp.type != "cg")
      r.fail(s["type"], fmt::format("solver.type: '{}' (expected pcg, amg or cg)", sp.type));
    if (!(sp.tolerance > 0 && sp.tolerance < 1))
      r.fail(s["tolerance"], fmt::format("solver.tolerance: {} must be in (0, 1)", sp.tolerance));
    if (sp.max_iterations < 1)
      r.fail(s["max_iterations"], fmt::format("solver.max_iterations: {} must be at least 1", sp.max_iterations));
  }
  return c;
}

RunConfig load_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot open config file '{}'", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path);
}

}  // namespace saga
