#pragma once
// What an iterative solve reports, and the parameters every Krylov method
// shares. Non-convergence is a result, not an exception: `converged` is false
// and `message` says why.
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/parameters.hpp"

namespace saga {

struct SolveResult {
  bool converged = false;
  int iterations = 0;
  double relative_residual = 0;            // final ||r|| / ||b||
  std::vector<double> residual_history;    // ||r_k|| / ||b||, k = 0..iterations
  double convergence_factor = 0;           // (final / initial)^(1/iterations)
  double seconds = 0;
  std::string message;
  std::string method;                      // the Krylov component that ran
  // How the iterations ran: "host", "kernels" (GPU, launched one by one) or
  // "graph" (GPU, one CUDA graph per iteration); why a graph was not used.
  std::string launch;
  std::string launch_note;
};

struct SolverParams {
  // The Krylov method (the registry of solver/krylov.hpp; `saga info
  // --components` lists them) and its own options (e.g. restart).
  Component type = "pcg";
  // amg (the multigrid cycle), none, a smoother name (one sweep of it), or a
  // Krylov method name whose options hold its tolerance / max_iterations /
  // restart (an inner solve preconditioned by the cycle: AmgX-style nesting).
  Component preconditioner = "amg";
  double tolerance = 1e-8;   // on ||r|| / ||b||
  int max_iterations = 500;
  // Called after each iteration (iteration, relative residual); may be empty.
  void (*progress)(int, double, void*) = nullptr;
  void* progress_data = nullptr;

  template <class V>
  void visit(V& v) {
    v("tolerance", tolerance, "stop when ||r|| / ||b|| is at most this", open_range(0, 1));
    v("max_iterations", max_iterations, "iteration limit (non-convergence is reported)", at_least(1));
  }
};

}  // namespace saga
