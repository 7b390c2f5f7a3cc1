#pragma once
// What every Krylov method in solver/krylov/ shares: the bookkeeping of one
// solve (input checks, the clock, ||b||, the residual history with progress,
// divergence and convergence, the final message) and applying a preconditioner
// that may be absent.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "core/device.hpp"

#include "solver/krylov.hpp"

namespace saga::krylov {

class Run {
 public:
  // Checks the system. A zero right-hand side finishes the solve at once with
  // x = 0 (done() is true).
  Run(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x, const SolverParams& p);
  bool done() const { return done_; }
  double bnorm() const { return bnorm_; }
  // r = b - A x (w is scratch for A x), recorded as the first residual; true
  // when the solve is over already (x0 meets the tolerance, or r is not finite).
  bool start(const Vector& b, const Vector& x, Vector& r, Vector& w);
  // Records ||r|| / ||b|| for ||r|| = rnorm; true when the solve must stop
  // (converged, or the residual is not finite).
  bool record(double rnorm);
  // Records the ||r|| of several iterations read at one convergence check (one
  // iteration each); true when the solve must stop: the last one meets the
  // tolerance, or one is not finite.
  bool record_batch(const std::vector<double>& rnorms);
  // For methods whose residual is a recurrence (BiCGStab, the CG family), called once it
  // meets the tolerance: r = b - A x (w is scratch), recorded in place of the
  // recurrence's last residual. True when the true residual meets the
  // tolerance too; false when the recurrence drifted from it: converged is
  // cleared and the method goes on from r.
  bool confirm(const Vector& b, const Vector& x, Vector& r, Vector& w);
  // ||b - A x|| as the last confirm() computed it (not divided by ||b||).
  double confirmed_norm() const { return confirmed_norm_; }
  // After confirm() returned false: whether restarting from r = b - A x can
  // still gain. It can while b - A x is finite (else confirm() wrote the
  // divergence), fewer than max_restarts were made, iterations are left and
  // b - A x fell by at least 10% from `started_from` (the true residual the
  // method last started from). Else b - A x is what double precision attains
  // on this system, not what more iterations reach: false, and the message
  // says so.
  bool restart_gains(double started_from, int restarts, int max_restarts);
  // Ends the solve without convergence, for a reason (a breakdown).
  void stop(const std::string& why, double rnorm);
  // Seconds, final residual, convergence factor and message.
  SolveResult finish();

  SolveResult result;

 private:
  const LinearOperator& A_;
  const SolverParams& p_;
  bool device_;
  bool done_ = false;
  double claimed_ = 0.0;  // the recurrence's residual the last confirm() replaced
  double confirmed_norm_ = 0.0;  // ||b - A x|| of the last confirm()
  double bnorm_ = 0;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// A method whose every recorded residual is b - A x (the stationary
// iteration) stagnates where the last `window` residuals' smallest is not 10%
// below the smallest before them, once the residual is at most `below`: there
// b - A x is what rounding attains, not what more iterations reach. Above
// `below` (a slowly converging iteration far from double precision's limit)
// it never stagnates: the solve runs to its tolerance or max_iterations.
bool stagnated(const std::vector<double>& history, int window, double below);

// A captured iteration and why capture failed, if it did: what an
// IterationLauncher fills, kept between solves by a KrylovState.
struct IterationGraph {
  device::Graph graph;
  std::string failure;  // non-empty: capture failed once; not tried again
};

// Launches one iteration's work. On the GPU with `graph` and graph-safe
// operators: the first call runs it kernel by kernel (it builds the lazily made
// analyses and scratch buffers) and captures it as a CUDA graph while the GPU
// runs it, and every later call replays the graph; where capture is impossible (the legacy default
// stream, an operator that waits for the host) it stays kernel by kernel and
// note() says why. With `kept` (a graph captured by an earlier solve of the
// same operators and vectors, its caller checked that), every call replays it,
// the first included.
class IterationLauncher {
 public:
  IterationLauncher(std::function<void()> body, Space space, bool graph, bool graph_safe,
                    IterationGraph* kept = nullptr);
  void run();
  // "host", "kernels" or "graph" (what ran last).
  std::string mode() const;
  const std::string& note() const { return note_; }

 private:
  std::function<void()> body_;
  Space space_;
  bool try_graph_;
  IterationGraph own_;
  IterationGraph* graph_;  // kept or &own_
  std::string note_;
};

// z = M r (or z = r without M).
void precondition(const LinearOperator* M, const Vector& r, Vector& z);
// ... and s[slot] = r . z.
void precondition_dot(const LinearOperator* M, const Vector& r, Vector& z, Scalars& s, int slot);

}  // namespace saga::krylov
