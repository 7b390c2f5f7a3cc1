// saga_solver_create_from_config (api/saga_c.h): a handle whose parameters come
// from a YAML (or JSON) config, the file format of `saga solve`
// (docs/config.md). Its `amg` and `solver` sections are flattened to the keys of
// saga_solver_set ("amg.smoother" for a component's name, "amg.smoother.omega"
// for its options), `backend` picks the executor; the sections that describe a
// problem or a run (problem, updates, output, report) are not the solver's and
// are ignored, so a `saga solve` config works as it is.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "api/saga_c.h"
#include "api/saga_c_internal.hpp"
#include "core/error.hpp"

namespace {
struct Setting {
  std::string key, value, where;  // where: file:line:col of the value
};

std::string at(const std::string& source, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.line >= 0 ? fmt::format("{}:{}:{}", source, m.line + 1, m.column + 1) : source;
}

// key = value for each scalar below `prefix`; a mapping with `name` is a
// component: prefix = name, then its options.
void flatten(const std::string& source, const std::string& prefix, const YAML::Node& n, std::vector<Setting>& out) {
  if (n.IsScalar()) {
    out.push_back({prefix, n.Scalar(), at(source, n)});
    return;
  }
  if (!n.IsMap())
    throw saga::InputError(fmt::format("{}: {}: expected a value or a mapping", at(source, n), prefix));
  std::set<std::string> seen;
  if (const YAML::Node name = n["name"]) {
    if (!name.IsScalar()) throw saga::InputError(fmt::format("{}: {}.name: expected a name", at(source, name), prefix));
    out.push_back({prefix, name.Scalar(), at(source, name)});
  }
  for (const auto& kv : n) {
    const std::string k = kv.first.as<std::string>();
    if (!seen.insert(k).second)
      throw saga::InputError(fmt::format("{}: {}.{} given twice", at(source, kv.first), prefix, k));
    if (k != "name") flatten(source, prefix + "." + k, kv.second, out);
  }
}
}  // namespace

extern "C" saga_status saga_solver_create_from_config(saga_solver* solver, const char* config, const char* backend) {
  std::vector<Setting> settings;
  std::string chosen_backend = backend ? backend : "";
  std::string source = "config", backend_at;
  try {
    if (!solver) throw saga::InputError("the handle to create is a null pointer");
    *solver = nullptr;
    if (!config) throw saga::InputError("config is a null pointer");
    std::string text = config;
    std::ifstream file(config);
    if (file && text.find('\n') == std::string::npos) {  // a path
      std::stringstream ss;
      ss << file.rdbuf();
      text = ss.str();
      source = config;
    }
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
      throw saga::InputError(fmt::format("{}:{}:{}: YAML syntax error: {}", source, e.mark.line + 1,
                                         e.mark.column + 1, e.msg));
    }
    if (!root.IsMap())
      throw saga::InputError(fmt::format("{}: expected a mapping with amg, solver and backend sections (or a path "
                                         "to a config file that exists)",
                                         source));
    std::set<std::string> seen;
    for (const auto& kv : root) {
      const std::string k = kv.first.as<std::string>();
      if (!seen.insert(k).second) throw saga::InputError(fmt::format("{}: '{}' given twice", at(source, kv.first), k));
      if (k == "amg" || k == "solver") {
        if (!kv.second.IsMap() && !kv.second.IsNull())
          throw saga::InputError(fmt::format("{}: {}: expected a mapping", at(source, kv.second), k));
        if (kv.second.IsMap())
          for (const auto& e : kv.second) flatten(source, k + "." + e.first.as<std::string>(), e.second, settings);
      } else if (k == "backend") {
        if (!kv.second.IsScalar())
          throw saga::InputError(fmt::format("{}: backend: expected host, cuda or auto", at(source, kv.second)));
        if (!backend) {
          chosen_backend = kv.second.Scalar();
          backend_at = at(source, kv.second);
        }
      } else if (k != "problem" && k != "updates" && k != "output" && k != "report") {
        throw saga::InputError(fmt::format("{}: unknown section '{}' (a solver config has amg, solver and backend)",
                                           at(source, kv.first), k));
      }
    }
  } catch (const saga::InputError& e) {
    saga::capi::set_last_error(e.what());
    return SAGA_ERROR_INPUT;
  } catch (const std::exception& e) {
    saga::capi::set_last_error(e.what());
    return SAGA_ERROR_INTERNAL;
  }
  // amg.omega (the smoother's weight) after the smoother is chosen, as `saga solve` reads it.
  std::stable_partition(settings.begin(), settings.end(), [](const Setting& x) { return x.key != "amg.omega"; });
  saga_status st = saga_solver_create(solver, chosen_backend.empty() ? "auto" : chosen_backend.c_str());
  if (st != SAGA_OK) {
    if (!backend_at.empty()) saga::capi::set_last_error(fmt::format("{}: {}", backend_at, saga_last_error()));
    return st;
  }
  for (const Setting& set : settings) {
    st = saga_solver_set(*solver, set.key.c_str(), set.value.c_str());
    if (st != SAGA_OK) {
      const std::string why = fmt::format("{}: {}", set.where, saga_last_error());
      saga_solver_destroy(*solver);
      *solver = nullptr;
      saga::capi::set_last_error(why);
      return st;
    }
  }
  return SAGA_OK;
}
