#include "api/config.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
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

void parse_anisotropy(const Reader& r, const YAML::Node& n, Anisotropy& a) {
  r.require_map(n, "problem.anisotropy");
  r.known_keys(n, "problem.anisotropy", {"epsilon", "angle"});
  r.get(n, "problem.anisotropy", "epsilon", a.epsilon, "a number");
  r.get(n, "problem.anisotropy", "angle", a.angle_degrees, "a number (degrees)");
  if (!(a.epsilon > 0) || !std::isfinite(a.epsilon))
    r.fail(n["epsilon"] ? n["epsilon"] : n, fmt::format("problem.anisotropy.epsilon: {} must be positive", a.epsilon));
  if (!std::isfinite(a.angle_degrees)) r.fail(n["angle"], "problem.anisotropy.angle must be finite");
}

void parse_coefficient(const Reader& r, const YAML::Node& n, ProblemConfig& pc) {
  r.require_map(n, "problem.coefficient");
  r.known_keys(n, "problem.coefficient", {"type", "contrast", "blocks", "seed", "groups"});
  std::string type = "constant";
  auto& f = pc.coefficient;
  r.get(n, "problem.coefficient", "type", type, "a string");
  if (type == "constant") {
    f.kind = CoefficientField::Kind::constant;
  } else if (type == "checkerboard") {
    f.kind = CoefficientField::Kind::checkerboard;
  } else if (type == "random") {
    f.kind = CoefficientField::Kind::random;
  } else if (type == "groups") {
    f.kind = CoefficientField::Kind::constant;
  } else {
    r.fail(n["type"], fmt::format("problem.coefficient.type: '{}' (expected constant, checkerboard, random or groups)",
                                  type));
  }
  r.get(n, "problem.coefficient", "contrast", f.contrast, "a number");
  r.get(n, "problem.coefficient", "blocks", f.blocks, "an integer");
  r.get(n, "problem.coefficient", "seed", f.seed, "a non-negative integer");
  if (!(f.contrast > 0) || !std::isfinite(f.contrast))
    r.fail(n["contrast"], fmt::format("problem.coefficient.contrast: {} must be positive", f.contrast));
  if (f.blocks < 1) r.fail(n["blocks"], fmt::format("problem.coefficient.blocks: {} must be at least 1", f.blocks));
  if (const YAML::Node g = n["groups"]) {
    if (type != "groups") r.fail(g, "problem.coefficient.groups needs type: groups");
    r.require_map(g, "problem.coefficient.groups");
    for (const auto& kv : g) {
      const std::string group = kv.first.as<std::string>();
      double v = 0;
      try {
        v = kv.second.as<double>();
      } catch (const YAML::Exception&) {
        r.fail(kv.second, fmt::format("problem.coefficient.groups.{}: expected a number", group));
      }
      if (!(v > 0) || !std::isfinite(v))
        r.fail(kv.second, fmt::format("problem.coefficient.groups.{}: {} must be positive", group, v));
      pc.group_coefficients[group] = v;
    }
  } else if (type == "groups") {
    r.fail(n, "problem.coefficient: type groups needs a 'groups' map of physical group to value");
  }
}

void parse_problem(const Reader& r, const YAML::Node& p, ProblemConfig& pc, const std::string& name) {
  r.require_map(p, "problem");
  r.known_keys(p, "problem", {"type", "stencil", "N", "matrix", "rhs", "seed", "anisotropy", "coefficient", "mesh",
                              "cells", "perturbation", "h", "dirichlet"});
  r.get(p, "problem", "type", pc.type, "a string");
  r.get(p, "problem", "rhs", pc.rhs, "a string");
  r.get(p, "problem", "seed", pc.seed, "a non-negative integer");
  const auto base = std::filesystem::path(name).parent_path();
  auto resolve = [&](std::string& path) {
    if (std::filesystem::path(path).is_relative()) path = (base / path).string();
  };
  auto only_for = [&](std::initializer_list<const char*> keys, const char* types) {
    for (const char* k : keys)
      if (p[k]) r.fail(p[k], fmt::format("problem.{} applies to problem type {} only (this one is {})", k, types,
                                         pc.type));
  };
  if (pc.type == "poisson") {
    only_for({"matrix", "mesh", "cells", "perturbation", "h", "dirichlet"}, "matrix_market or fe");
    r.get(p, "problem", "stencil", pc.stencil, "a string");
    r.get(p, "problem", "N", pc.N, "an integer");
    try {
      parse_stencil(pc.stencil);
    } catch (const InputError&) {
      r.fail(p["stencil"], fmt::format("problem.stencil: '{}' (expected 2d5, 2d9, 3d7 or 3d27)", pc.stencil));
    }
    if (pc.N < 1) r.fail(p["N"], fmt::format("problem.N: {} must be at least 1", pc.N));
  } else if (pc.type == "fe") {
    only_for({"matrix", "stencil", "N"}, "matrix_market or poisson");
    r.get(p, "problem", "mesh", pc.mesh, "square, box or a .msh / .geo path");
    r.get(p, "problem", "cells", pc.cells, "an integer");
    r.get(p, "problem", "perturbation", pc.perturbation, "a number");
    r.get(p, "problem", "h", pc.h, "a number");
    const bool generated = pc.mesh == "square" || pc.mesh == "box";
    if (!generated) {
      const auto ext = std::filesystem::path(pc.mesh).extension().string();
      if (ext != ".msh" && ext != ".geo")
        r.fail(p["mesh"], fmt::format("problem.mesh: '{}' (expected square, box, or a .msh or .geo file)", pc.mesh));
      resolve(pc.mesh);
    }
    if (generated && pc.cells < 2) r.fail(p["cells"], fmt::format("problem.cells: {} must be at least 2", pc.cells));
    if (!(pc.perturbation >= 0 && pc.perturbation < 0.5))
      r.fail(p["perturbation"], fmt::format("problem.perturbation: {} must be in [0, 0.5)", pc.perturbation));
    if (!(pc.h > 0) || !std::isfinite(pc.h)) r.fail(p["h"], fmt::format("problem.h: {} must be positive", pc.h));
    if (const YAML::Node d = p["dirichlet"]) {
      if (d.IsScalar() && d.Scalar() == "boundary") {
        pc.dirichlet.clear();
      } else if (d.IsSequence() && d.size() > 0) {
        for (const auto& g : d) {
          if (!g.IsScalar()) r.fail(g, "problem.dirichlet: expected physical group names or tags");
          pc.dirichlet.push_back(g.Scalar());
        }
      } else {
        r.fail(d, "problem.dirichlet: expected 'boundary' or a list of physical groups");
      }
      if (!pc.dirichlet.empty() && generated)
        r.fail(d, "problem.dirichlet: generated meshes have no physical groups (their whole boundary is Dirichlet)");
    }
  } else if (pc.type == "matrix_market") {
    only_for({"stencil", "N", "anisotropy", "coefficient", "mesh", "cells", "perturbation", "h", "dirichlet"},
             "poisson or fe");
    r.get(p, "problem", "matrix", pc.matrix, "a path");
    if (pc.matrix.empty()) r.fail(p, "problem.matrix: a Matrix Market path is required for type matrix_market");
    resolve(pc.matrix);
  } else {
    r.fail(p["type"], fmt::format("problem.type: '{}' (expected poisson, fe or matrix_market)", pc.type));
  }
  if (pc.rhs != "ones" && pc.rhs != "random_solution") resolve(pc.rhs);  // a Matrix Market vector
  if (const YAML::Node a = p["anisotropy"]) parse_anisotropy(r, a, pc.anisotropy);
  if (const YAML::Node k = p["coefficient"]) parse_coefficient(r, k, pc);
  if (!pc.group_coefficients.empty() && pc.type != "fe")
    r.fail(p["coefficient"], "problem.coefficient: type groups needs an fe problem on a mesh with physical groups");
  if (pc.type == "poisson") {
    try {
      make_stencil_spec(parse_stencil(pc.stencil), pc.anisotropy, pc.coefficient);
    } catch (const InputError& e) {
      const std::string msg = e.what();
      r.fail(p["anisotropy"] ? p["anisotropy"] : p["coefficient"], "problem: " + msg.substr(0, msg.rfind(" [")));
    }
  }
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

  if (const YAML::Node p = root["problem"]) parse_problem(r, p, c.problem, name);
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
