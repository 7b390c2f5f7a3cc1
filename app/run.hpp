#pragma once
// One `saga solve` run: build the problem of a config on a backend, set up the
// AMG hierarchy, solve, and collect everything a user needs to trust the result
// (text summary and JSON report).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/config.hpp"
#include "api/saga.hpp"

namespace saga {

struct Problem {
  CsrMatrix A;
  Vector b;
  std::optional<Vector> x_star;  // known exact solution, when there is one
  std::string description;
  std::string asymmetry;  // GeneratedMatrix::asymmetry
  std::vector<double> coordinates;  // GeneratedMatrix::coordinates (nodes x dim; empty: none)
  int dim = 0;
};

Problem build_problem(const ProblemConfig& c, Space space);
// The near-nullspace amg.nullspace asks for, with the problem's coordinates and
// the config's directory.
NearNullspace problem_nullspace(const Problem& p, const RunConfig& config, Space space);

struct RunResult {
  RunConfig config;
  Space backend = Space::host;           // where it ran
  std::string device_name;
  std::string problem;
  std::string nullspace = "constant";   // NearNullspace::description
  // Device runs: saga's device memory (its executor's pool) at its peak —
  // through the setup (problem included) and through the whole run.
  std::size_t setup_peak_bytes = 0, peak_bytes = 0;
  index_t rows = 0;
  std::int64_t nnz = 0;
  double problem_seconds = 0;
  HierarchyStats hierarchy;
  SolveResult solve;
  std::optional<double> error;  // ||x - x*|| / ||x*||
  double setup_seconds = 0, solve_seconds = 0;
  std::string executor;            // e.g. cuda:0
  std::string cycle;               // the cycle shape that ran
  std::vector<std::string> smoothers;  // the smoother of each level (coarse solver on the coarsest)
};

// Builds, sets up and solves on `exec`. Every component name and option is
// checked for that backend before any work.
RunResult run_solve(const RunConfig& config, const std::shared_ptr<const Executor>& exec);
// ... on the executor of config.backend.
RunResult run_solve(const RunConfig& config);

std::string format_summary(const RunResult& r);
nlohmann::json to_json(const RunResult& r);

}  // namespace saga
