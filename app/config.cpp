#include "app/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "core/file.hpp"
#include "problems/problem.hpp"
#include "solver/smoother.hpp"

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

// YAML allows a key twice in one mapping and yaml-cpp keeps both; saga does
// not guess which was meant.
void reject_duplicates(const Reader& r, const YAML::Node& n) {
  if (n.IsSequence())
    for (const auto& e : n) reject_duplicates(r, e);
  if (!n.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (const auto& kv : n) {
    // YAML allows any node as a key ("? - a"); saga's keys are names.
    if (!kv.first.IsScalar()) r.fail(kv.first, "a key must be a plain name, not a list or mapping");
    const std::string k = kv.first.Scalar();
    const auto it = seen.find(k);
    if (it != seen.end())
      r.fail(kv.first, fmt::format("duplicate key '{}' (first given on line {}): remove one of them", k,
                                   it->second.line + 1));
    seen.emplace(k, kv.first.Mark());
    reject_duplicates(r, kv.second);
  }
}
}  // namespace

void reject_duplicate_keys(const YAML::Node& n, const std::string& file) { reject_duplicates(Reader{file}, n); }

[[noreturn]] void throw_yaml_error(const YAML::Exception& e, const std::string& file) {
  if (dynamic_cast<const YAML::ParserException*>(&e))
    throw InputError(fmt::format("{}:{}:{}: YAML syntax error: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg));
  if (e.mark.is_null()) throw InputError(fmt::format("{}: {}", file, e.msg));
  throw InputError(fmt::format("{}:{}:{}: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg));
}

namespace {

std::string where(const Reader& r, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.line >= 0 ? fmt::format("{}:{}:{}", r.file, m.line + 1, m.column + 1) : r.file + " (--set)";
}

// Scalar entries of a mapping as Options (each with its file:line:col); keys in
// `skip` are left out.
Options scalar_options(const Reader& r, const YAML::Node& map, const std::string& what,
                       const std::set<std::string>& skip = {}) {
  Options o;
  for (const auto& kv : map) {
    const std::string k = kv.first.as<std::string>();
    if (skip.count(k)) continue;
    if (!kv.second.IsScalar()) r.fail(kv.second, fmt::format("{}.{}: expected a single value", what, k));
    o.set(k, kv.second.Scalar(), where(r, kv.second));
  }
  return o;
}

// A (name, options) stage: `smoother: jacobi` or
// `smoother: {name: jacobi, omega: 0.6}`.
Component parse_component(const Reader& r, const YAML::Node& n, const std::string& what) {
  if (n.IsScalar()) {
    Component c(n.Scalar());
    c.where = where(r, n);
    return c;
  }
  if (!n.IsMap() || !n["name"] || !n["name"].IsScalar())
    r.fail(n, fmt::format("{}: expected a name, or a mapping with 'name' and the component's options", what));
  Component c(n["name"].Scalar(), scalar_options(r, n, what, {"name"}));
  c.where = where(r, n["name"]);
  return c;
}

// Nested mappings become dotted keys, lists comma-separated text.
void flatten(const Reader& r, const YAML::Node& map, const std::string& prefix, Options& out,
             const std::set<std::string>& skip = {}) {
  for (const auto& kv : map) {
    if (skip.count(kv.first.as<std::string>())) continue;
    const std::string k = prefix + kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    if (v.IsMap()) {
      flatten(r, v, k + ".", out);
    } else if (v.IsSequence()) {
      std::string text;
      for (const auto& e : v) {
        if (!e.IsScalar()) r.fail(e, fmt::format("{}: expected a list of single values", k));
        text += (text.empty() ? "" : ",") + e.Scalar();
      }
      out.set(k, text, where(r, v));
    } else {
      out.set(k, v.Scalar(), where(r, v));
    }
  }
}

void parse_amg(const Reader& r, const YAML::Node& a, AmgParams& ap) {
  r.require_map(a, "amg");
  const std::set<std::string> components{"cycle",       "smoother", "spgemm", "coarse_solver", "strength",
                                         "aggregation", "levels",   "omega",  "nullspace"};
  const Options scalars = scalar_options(r, a, "amg", components);
  std::set<std::string> for_setup = param_keys<CycleParams>(), for_cycle = param_keys<SetupParams>();
  for_setup.insert(components.begin(), components.end());
  for_cycle.insert(components.begin(), components.end());
  read_params(static_cast<SetupParams&>(ap), scalars, "amg", for_setup);
  read_params(static_cast<CycleParams&>(ap), scalars, "amg", for_cycle);
  if (const YAML::Node n = a["cycle"]) ap.cycle = parse_component(r, n, "amg.cycle");
  if (const YAML::Node n = a["smoother"]) ap.smoother = parse_component(r, n, "amg.smoother");
  if (const YAML::Node n = a["spgemm"]) ap.spgemm = parse_component(r, n, "amg.spgemm");
  if (const YAML::Node n = a["coarse_solver"]) ap.coarse_solver = parse_component(r, n, "amg.coarse_solver");
  if (const YAML::Node n = a["strength"]) ap.strength = parse_component(r, n, "amg.strength");
  if (const YAML::Node n = a["aggregation"]) ap.aggregation = parse_component(r, n, "amg.aggregation");
  if (const YAML::Node n = a["nullspace"]) ap.nullspace = parse_component(r, n, "amg.nullspace");
  if (const YAML::Node n = a["omega"]) {
    // Kept from the first configs: the smoother's damping weight. 'auto' means
    // "computed", which every smoother does; a number needs a smoother with a
    // weight.
    if (!n.IsScalar()) r.fail(n, "amg.omega: expected a number or 'auto'");
    bool has_omega = false;
    if (smoothers().has(ap.smoother.name))
      for (const auto& d : smoothers().entry(ap.smoother, std::nullopt).docs()) has_omega |= d.key == "omega";
    if (n.Scalar() == "auto" || n.Scalar() == "0")
      ;  // the smoother's own default
    else if (has_omega)
      ap.smoother.options.set("omega", n.Scalar(), where(r, n));
    else
      r.fail(n, fmt::format("amg.omega applies to smoothers with a weight 'omega'; for '{}' write "
                            "amg.smoother: {{name: {}, ...}} with its own options (saga info --components)",
                            ap.smoother.name, ap.smoother.name));
  }
  if (const YAML::Node n = a["levels"]) {
    if (!n.IsSequence()) r.fail(n, "amg.levels: expected a list with one mapping of settings per level");
    for (std::size_t l = 0; l < n.size(); ++l) {
      const std::string what = fmt::format("amg.levels[{}]", l);
      if (n[l].IsNull()) {
        ap.levels.emplace_back();
        continue;
      }
      r.require_map(n[l], what);
      Options o;  // nested mappings become dotted keys: {smoother: {name: chebyshev, degree: 3}}
      flatten(r, n[l], "", o);
      ap.levels.push_back(o);
    }
  }
}

void parse_solver(const Reader& r, const YAML::Node& s, SolverParams& sp) {
  r.require_map(s, "solver");
  const std::set<std::string> own = param_keys<SolverParams>();
  Options scalars, method;
  for (const auto& kv : s) {
    const std::string k = kv.first.as<std::string>();
    if (k == "type" || k == "preconditioner") continue;
    if (!kv.second.IsScalar()) r.fail(kv.second, fmt::format("solver.{}: expected a single value", k));
    (own.count(k) ? scalars : method).set(k, kv.second.Scalar(), where(r, kv.second));
  }
  read_params(sp, scalars, "solver");
  if (const YAML::Node n = s["type"]) sp.type = parse_component(r, n, "solver.type");
  // Method options may also sit directly under solver (solver: {type: gmres, restart: 20}).
  for (const auto& [k, o] : method.values()) sp.type.options.set(k, o.text, o.where);
  if (const YAML::Node n = s["preconditioner"]) sp.preconditioner = parse_component(r, n, "solver.preconditioner");
}

void parse_problem(const Reader& r, const YAML::Node& p, ProblemConfig& pc) {
  r.require_map(p, "problem");
  Options located;
  flatten(r, p, "", located, {"type", "rhs", "seed"});
  r.get(p, "problem", "rhs", pc.rhs, "a string");
  r.get(p, "problem", "seed", pc.seed, "a non-negative integer");
  std::string type = pc.type.name;
  r.get(p, "problem", "type", type, "a string");
  pc.type = Component(type, located);
  pc.type.where = p["type"] ? where(r, p["type"]) : where(r, p);
  if (pc.rhs != "ones" && pc.rhs != "random_solution") pc.rhs = ProblemContext{pc.directory, 0}.resolve(pc.rhs);
  problem_generators().validate(pc.type);
}

}  // namespace

namespace {
// A copy without source marks, so that messages about overridden values say
// "(--set)" instead of a line of the file.
YAML::Node without_marks(const YAML::Node& n) {
  if (n.IsScalar()) return YAML::Node(n.Scalar());
  YAML::Node out(n.IsSequence() ? YAML::NodeType::Sequence : YAML::NodeType::Map);
  if (n.IsSequence())
    for (const auto& e : n) out.push_back(without_marks(e));
  else if (n.IsMap())
    for (const auto& kv : n) out[kv.first.Scalar()] = without_marks(kv.second);
  return out;
}

// KEY.PATH=VALUE: sets one value (VALUE is YAML: a scalar, a list, a mapping)
// in the document, creating mappings on the way; a plain name becomes
// {name: NAME} when a key below it is set (amg.smoother.degree=3).
void apply_override(YAML::Node& root, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(fmt::format("--set '{}': expected KEY.PATH=VALUE (e.g. amg.cycle=W)", text));
  std::vector<std::string> path;
  std::string key;
  for (char ch : text.substr(0, eq) + ".") {
    if (ch != '.') {
      key += ch;
      continue;
    }
    if (key.empty()) throw InputError(fmt::format("--set '{}': empty key in the path", text));
    path.push_back(key);
    key.clear();
  }
  YAML::Node value;
  try {
    value = without_marks(YAML::Load(text.substr(eq + 1)));
  } catch (const YAML::ParserException& e) {
    throw InputError(fmt::format("--set '{}': YAML syntax error in the value: {}", text, e.msg));
  }
  if (!root.IsMap()) root = YAML::Node(YAML::NodeType::Map);
  std::vector<YAML::Node> nodes{root};
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    YAML::Node child = nodes.back()[path[i]];
    if (child.IsScalar()) {  // a plain component name gains options
      YAML::Node m(YAML::NodeType::Map);
      m["name"] = child.Scalar();
      nodes.back()[path[i]] = m;
      child = nodes.back()[path[i]];
    } else if (!child.IsMap()) {
      nodes.back()[path[i]] = YAML::Node(YAML::NodeType::Map);
      child = nodes.back()[path[i]];
    }
    nodes.push_back(child);
  }
  YAML::Node last = nodes.back();
  if (last[path.back()].IsMap() && value.IsScalar()) {
    last[path.back()]["name"] = value;  // amg.smoother=jacobi keeps the options already there
  } else {
    last[path.back()] = value;
  }
}

void parse_updates(const Reader& r, const YAML::Node& u, UpdatesConfig& uc) {
  r.require_map(u, "updates");
  r.known_keys(u, "updates", {"steps", "edges", "weight", "seed", "compare_rebuild", "couplings"});
  r.get(u, "updates", "couplings", uc.couplings, "new or existing");
  if (uc.couplings != "new" && uc.couplings != "existing")
    r.fail(u["couplings"], fmt::format("updates.couplings: '{}' (expected new or existing)", uc.couplings));
  r.get(u, "updates", "steps", uc.steps, "an integer");
  r.get(u, "updates", "edges", uc.edges, "a number");
  r.get(u, "updates", "weight", uc.weight, "a number");
  r.get(u, "updates", "seed", uc.seed, "a non-negative integer");
  r.get(u, "updates", "compare_rebuild", uc.compare_rebuild, "true or false");
  if (uc.steps < 1 || uc.steps > 100000)
    r.fail(u["steps"] ? u["steps"] : u, fmt::format("updates.steps: {} (expected 1 to 100000)", uc.steps));
  if (!(uc.edges > 0 && uc.edges <= 10)) r.fail(u["edges"], fmt::format("updates.edges: {} (expected > 0, at most 10 per row)", uc.edges));
  if (!(uc.weight > 0 && uc.weight < 1e300))
    r.fail(u["weight"], fmt::format("updates.weight: {} (expected a positive number)", uc.weight));
}

RunConfig parse_config_checked(const std::string& text, const std::string& name,
                               const std::vector<std::string>& overrides) {
  Reader r{name};
  YAML::Node root = YAML::Load(text);
  reject_duplicates(r, root);
  for (const auto& o : overrides) apply_override(root, o);
  RunConfig c;
  c.name = name;
  if (root.IsNull()) return c;
  r.require_map(root, "the document");
  r.known_keys(root, "", {"problem", "amg", "solver", "backend", "updates"});
  r.get(root, "config", "backend", c.backend, "a string");
  if (c.backend != "auto" && c.backend != "host" && c.backend != "cuda")
    r.fail(root["backend"], fmt::format("backend: '{}' (expected auto, host or cuda)", c.backend));

  c.problem.directory = std::filesystem::path(name).parent_path().string();
  if (const YAML::Node p = root["problem"]) parse_problem(r, p, c.problem);
  if (const YAML::Node a = root["amg"]) parse_amg(r, a, c.amg);
  if (const YAML::Node s = root["solver"]) parse_solver(r, s, c.solver);
  if (const YAML::Node u = root["updates"]) parse_updates(r, u, c.updates);
  // Backend support is checked here when the backend is named (else when it is resolved).
  std::optional<Space> space;
  if (c.backend == "host") space = Space::host;
  if (c.backend == "cuda") space = Space::device;
  validate(c.amg, space);
  validate(c.solver, space);
  return c;
}
}  // namespace

RunConfig parse_config(const std::string& text, const std::string& name, const std::vector<std::string>& overrides) {
  // Every check names its key; a syntax error, or a conversion yaml-cpp
  // refuses where no check anticipated it (found by fuzzing), still becomes a
  // located InputError.
  try {
    return parse_config_checked(text, name, overrides);
  } catch (const YAML::Exception& e) {
    throw_yaml_error(e, name);
  }
}

RunConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in = open_input_file(path, "config file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path, overrides);
}

std::int64_t UpdatesConfig::couplings_per_step(std::int64_t rows) const {
  return std::max<std::int64_t>(1, std::llround(edges * static_cast<double>(rows)));
}

}  // namespace saga
