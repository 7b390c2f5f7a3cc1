#pragma once
// What an iterative solve reports. Non-convergence is a result, not an
// exception: `converged` is false and `message` says why.
#include <string>
#include <vector>

namespace saga {

struct SolveResult {
  bool converged = false;
  int iterations = 0;
  double relative_residual = 0;            // final ||r|| / ||b||
  std::vector<double> residual_history;    // ||r_k|| / ||b||, k = 0..iterations
  double convergence_factor = 0;           // (final / initial)^(1/iterations)
  double seconds = 0;
  std::string message;
};

struct SolverParams {
  std::string type = "pcg";  // pcg | amg (stand-alone cycles)
  double tolerance = 1e-8;   // on ||r|| / ||b||
  int max_iterations = 500;
  // Called after each iteration (iteration, relative residual); may be empty.
  void (*progress)(int, double, void*) = nullptr;
  void* progress_data = nullptr;
};

}  // namespace saga
