#pragma once
// One `saga solve` run: build the problem of a config on a backend, set up the
// AMG hierarchy, solve, and collect everything a user needs to trust the result
// (text summary and JSON report).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/config.hpp"
#include "api/saga.hpp"

namespace saga {

struct Problem {
  CsrMatrix A;
  Vector b;
  std::optional<Vector> x_star;  // known exact solution, when there is one
  std::string description;
};

Problem build_problem(const ProblemConfig& c, Space space);

struct RunResult {
  RunConfig config;
  Backend backend = Backend::host;
  std::string device_name;
  std::string problem;
  index_t rows = 0;
  std::int64_t nnz = 0;
  double problem_seconds = 0;
  HierarchyStats hierarchy;
  SolveResult solve;
  std::optional<double> error;  // ||x - x*|| / ||x*||
  double setup_seconds = 0, solve_seconds = 0;
};

RunResult run_solve(const RunConfig& config, Backend backend);

std::string format_summary(const RunResult& r);
nlohmann::json to_json(const RunResult& r);

}  // namespace saga
