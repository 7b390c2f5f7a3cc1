#pragma once
// The YAML run configuration of `saga solve` (schema: docs/config.md).
// Every field has a default; unknown keys and wrong types are InputErrors naming
// the file, line and key.
#include <cstdint>
#include <string>

#include "amg/params.hpp"
#include "solver/solve_result.hpp"

namespace saga {

struct ProblemConfig {
  std::string type = "poisson";          // poisson | matrix_market
  std::string stencil = "3d7";           // poisson: 2d5 | 2d9 | 3d7 | 3d27
  index_t N = 64;                        // poisson: grid points per direction
  std::string matrix;                    // matrix_market: path (relative to the config file)
  std::string rhs = "random_solution";   // random_solution | ones | a Matrix Market vector path
  std::uint64_t seed = 0;                // x* for random_solution
};

struct RunConfig {
  ProblemConfig problem;
  AmgParams amg;
  SolverParams solver;
  std::string backend = "auto";          // auto | host | cuda
  std::string name;                      // where it came from (for messages)
};

RunConfig load_config(const std::string& path);
RunConfig parse_config(const std::string& yaml_text, const std::string& name);

}  // namespace saga
