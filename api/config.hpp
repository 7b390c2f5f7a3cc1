#pragma once
// The YAML run configuration of `saga solve` (schema: docs/config.md).
// Every field has a default; unknown keys and wrong types are InputErrors naming
// the file, line and key.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "amg/params.hpp"
#include "problems/coefficient_field.hpp"
#include "solver/solve_result.hpp"

namespace saga {

struct ProblemConfig {
  std::string type = "poisson";          // poisson | fe | matrix_market
  std::string stencil = "3d7";           // poisson: 2d5 | 2d9 | 3d7 | 3d27
  index_t N = 64;                        // poisson: grid points per direction
  Anisotropy anisotropy;                 // poisson, fe
  CoefficientField coefficient;          // poisson, fe: jumping coefficient field
  std::map<std::string, double> group_coefficients;  // fe: kappa per physical group of cells
  std::string mesh = "square";           // fe: square | box (generated) | a .msh or .geo path
  index_t cells = 64;                    // fe generated: cells per direction
  double perturbation = 0.2;             // fe generated: vertex perturbation, fraction of h
  double h = 0.05;                       // fe .geo: element size passed to gmsh
  std::vector<std::string> dirichlet;    // fe: physical groups; empty = the whole boundary
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
