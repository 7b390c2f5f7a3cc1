#include "app/component_json.hpp"

#include "amg/aggregation.hpp"
#include "amg/coarse_solver.hpp"
#include "amg/nullspace.hpp"
#include "amg/strength.hpp"
#include "problems/problem.hpp"
#include "solver/cycle.hpp"
#include "solver/smoother.hpp"
#include "sparse/spgemm.hpp"

namespace saga {

nlohmann::json to_json(const ParamList& list) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& e : list) std::visit([&](const auto& v) { j[e.key] = v; }, e.value);
  return j;
}

nlohmann::json amg_json(const AmgParams& p, Space s) {
  nlohmann::json j = to_json(list_params(static_cast<const SetupParams&>(p)));
  j.update(to_json(list_params(static_cast<const CycleParams&>(p))));
  j["cycle"] = component_json(cycles(), p.cycle, s);
  j["smoother"] = component_json(smoothers(), p.smoother, s);
  j["spgemm"] = component_json(spgemm_registry(), p.spgemm, s);
  j["coarse_solver"] = component_json(amg::coarse_solvers(), p.coarse_solver, s);
  j["strength"] = component_json(amg::strength_measures(), p.strength, s);
  j["aggregation"] = component_json(amg::aggregation_methods(), p.aggregation, s);
  j["nullspace"] = component_json(nullspace_sources(), p.nullspace, s);
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& o : p.levels) {
    nlohmann::json l = nlohmann::json::object();
    for (const auto& [k, v] : o.values()) l[k] = v.text;
    levels.push_back(l);
  }
  j["levels"] = levels;
  return j;
}

nlohmann::json problem_json(const ProblemConfig& p, Space s) {
  return {{"type", problem_generators().resolve(p.type, s)},
          {"rhs", p.rhs},
          {"seed", p.seed},
          {"params", to_json(problem_generators().values(p.type, s))}};
}

nlohmann::json solver_json(const SolverParams& p, Space s) {
  nlohmann::json j = to_json(list_params(p));
  j["type"] = component_json(krylov_methods(), p.type, s);
  const Component& pre = p.preconditioner;
  nlohmann::json params = nlohmann::json::object();
  if (smoothers().has(pre.name)) {
    Component smoother;
    const int sweeps = smoother_preconditioner_sweeps(pre, &smoother);
    params = to_json(smoothers().values(smoother, s));
    params["sweeps"] = sweeps;
  } else if (is_nested_krylov(pre)) {
    const SolverParams inner = nested_solver_params(pre);
    params = to_json(list_params(inner));
    params.update(to_json(krylov_methods().values(inner.type, s)));
  }
  j["preconditioner"] = {{"name", pre.name}, {"params", params}};
  return j;
}

}  // namespace saga
