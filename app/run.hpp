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
  // Known exact solution x* = random_vector(rows, seed), when there is one: made
  // again for the error after the solve instead of held through the setup and
  // the solve (8 B per unknown of device memory).
  std::optional<std::uint64_t> x_star_seed;
  std::string description;
  std::string asymmetry;  // GeneratedMatrix::asymmetry
  std::vector<double> coordinates;  // GeneratedMatrix::coordinates (nodes x dim; empty: none)
  int dim = 0;
};

Problem build_problem(const ProblemConfig& c, Space space);
// The near-nullspace amg.nullspace asks for, with the problem's coordinates and
// the config's directory.
// rows: of the matrix (default p.A's; give it once p.A has been moved away).
NearNullspace problem_nullspace(const Problem& p, const RunConfig& config, Space space, index_t rows = -1);

// One step of `updates:` (app/config.hpp): couplings inserted into the DCSR
// matrix, the solver set up again from it, the system solved again.
struct UpdateStep {
  std::int64_t nnz = 0;            // of the updated matrix
  std::int64_t inserted = 0, updated = 0;  // entries appended / added to existing ones
  int defragmentations = 0;
  double update_seconds = 0;       // DcsrMatrix::insert
  double to_csr_seconds = 0;       // DCSR -> the CSR the setup reads
  double setup_seconds = 0;        // AMG setup of the updated matrix
  double solve_seconds = 0;
  int iterations = 0;
  bool converged = false;
  double relative_residual = 0;
  double rebuild_seconds = -1;     // the CSR assembled from all triplets again + setup (-1: not measured)
  bool numeric = false;            // the pattern stayed: Solver::resetup on the kept aggregates
};

struct RunResult {
  RunConfig config;
  Space backend = Space::host;           // where it ran
  std::string device_name;
  std::string problem;
  std::string nullspace = "constant";   // NearNullspace::description
  // Device runs: saga's device memory (its executor's pool) at its peak —
  // through the setup (problem included) and through the whole run.
  std::size_t setup_peak_bytes = 0, peak_bytes = 0;
  // The cycle's SpMV copies after the setup (MultigridCycle::spmv_copies):
  // made within the room amg.spmv_copies gives them (by default under the
  // setup's peak), held through the solve.
  std::size_t spmv_copy_bytes = 0;
  int spmv_copy_operators = 0;
  index_t rows = 0;
  std::int64_t nnz = 0;
  double problem_seconds = 0;
  // The AMG hierarchy's statistics; empty (no levels) where the solve applies
  // no cycle (solver.preconditioner none or a smoother, or solver.type cg).
  HierarchyStats hierarchy;
  bool has_hierarchy() const { return !hierarchy.levels.empty(); }  // a hierarchy has at least one level
  SolveResult solve;
  std::optional<double> error;  // ||x - x*|| / ||x*||
  double setup_seconds = 0, solve_seconds = 0;
  std::string executor;            // e.g. cuda:0
  std::string cycle;               // the cycle shape that ran
  std::vector<std::string> smoothers;  // the smoother of each level (coarse solver on the coarsest)
  std::vector<UpdateStep> updates;     // config.updates.steps steps after the first solve
  // `saga solve --repeat R`: the setup and solve times of each of the R runs in
  // this process (the first is the run above; the others build the problem
  // again, untimed, and set up and solve it again), so that warm numbers (GPU
  // clocks up, kernels loaded, the memory pool grown) stand beside the first.
  struct RepeatRun {
    double setup_seconds = 0, solve_seconds = 0;
    int iterations = 0;
  };
  std::vector<RepeatRun> repeats;  // empty without --repeat
  // The run of `repeats` with the smallest setup + solve.
  const RepeatRun* best_repeat() const;
};

// Builds, sets up and solves on `exec`. Every component name and option is
// checked for that backend before any work.
RunResult run_solve(const RunConfig& config, const std::shared_ptr<const Executor>& exec);
// ... on the executor of config.backend.
RunResult run_solve(const RunConfig& config);
// run_solve `repeats` (>= 1) times in this process: the first run's result,
// with every run's times in RunResult::repeats when repeats > 1. The update
// steps of a config run after the first run only.
RunResult run_solve_repeated(const RunConfig& config, int repeats, std::shared_ptr<const Executor> exec = nullptr);

// The config's update steps after the first solve (run_solve calls it): D is
// the matrix as DCSR, `first` the CSR of the first setup.
class DcsrMatrix;
void run_updates(const RunConfig& config, const Problem& p, DcsrMatrix& D, Solver& first,
                 const std::shared_ptr<const Executor>& exec, RunResult& r);

std::string format_summary(const RunResult& r);
nlohmann::json to_json(const RunResult& r);

}  // namespace saga
