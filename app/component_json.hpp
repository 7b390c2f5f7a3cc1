#pragma once
// JSON of what ran: a component as {"name": resolved name, "params": every
// parameter with defaults filled in}, and parameter lists as objects. Used by
// the solve report and the setup profile.
#include <nlohmann/json.hpp>

#include "app/config.hpp"
#include "core/registry.hpp"

namespace saga {

nlohmann::json to_json(const ParamList& list);

template <class Reg>
nlohmann::json component_json(const Reg& registry, const Component& c, Space s) {
  return {{"name", registry.resolve(c, s)}, {"params", to_json(registry.values(c, s))}};
}

// The amg and solver sections of a config as they ran on `s`.
nlohmann::json amg_json(const AmgParams& p, Space s);
nlohmann::json solver_json(const SolverParams& p, Space s);
// {"type", "rhs", "seed", "params"} of the problem section.
nlohmann::json problem_json(const ProblemConfig& p, Space s);

}  // namespace saga
