#pragma once
// The YAML run configuration of `saga solve` (schema: docs/config.md).
// Every field has a default; unknown keys and wrong types are InputErrors naming
// the file, line and key.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "solver/cycle_params.hpp"
#include "solver/krylov.hpp"

namespace YAML {
class Node;
class Exception;
}

namespace saga {

// InputError at the second occurrence of a key in any mapping of the document
// (file:line:col, and the line of the first).
void reject_duplicate_keys(const YAML::Node& root, const std::string& file);
// A yaml-cpp exception as a located InputError ("file:line:col: YAML syntax
// error: ..." for a parse error).
[[noreturn]] void throw_yaml_error(const YAML::Exception& e, const std::string& file);

// problem: {type: NAME, rhs, seed, ...the generator's own keys}
// (problems/problem.hpp; the generators and their keys: docs/problems.md).
struct ProblemConfig {
  Component type = "poisson";            // the generator and its options (nested keys dotted)
  std::string rhs = "random_solution";   // random_solution | ones | a Matrix Market vector path
  std::uint64_t seed = 0;                // x* for random_solution, and the generator's randomness
  std::string directory;                 // of the config file (relative paths)
};

// updates: {steps, edges, weight, seed, compare_rebuild}: after the first
// solve, `steps` times: new couplings are inserted into the matrix (held as
// DCSR), the solver is set up again, and the system solved again (docs/dcsr.md).
struct UpdatesConfig {
  int steps = 0;               // 0: no updates
  double edges = 0.01;         // new couplings per step, as a fraction of the rows
  double weight = 1.0;         // their weights, uniform in [weight/2, weight]
  std::uint64_t seed = 1;
  bool compare_rebuild = true; // also time the CSR rebuilt from scratch and set up, per step
  std::string couplings = "new";  // new: between random unknowns (the pattern grows, a full setup);
                                  // existing: on stored couplings (values only: the numeric resetup)
  // Couplings drawn per step for a matrix of `rows` rows (at least one).
  std::int64_t couplings_per_step(std::int64_t rows) const;
};

struct RunConfig {
  ProblemConfig problem;
  UpdatesConfig updates;
  AmgParams amg;
  SolverParams solver;
  std::string backend = "auto";          // auto | host | cuda
  std::string name;                      // where it came from (for messages)
};

// overrides: "KEY.PATH=VALUE" settings applied over the file (saga solve --set),
// e.g. amg.cycle=W, amg.smoother.omega=0.6, solver.type=gmres.
RunConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});
RunConfig parse_config(const std::string& yaml_text, const std::string& name,
                       const std::vector<std::string>& overrides = {});

}  // namespace saga
