#include "solver/krylov/common.hpp"

#include <algorithm>
#include <cmath>

#include "core/device.hpp"
#include "sparse/vector_ops.hpp"

namespace saga::krylov {

Run::Run(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x, const SolverParams& p)
    : A_(A), p_(p), device_(A.space() == Space::device) {
  SAGA_REQUIRE(A.rows() == A.cols(), "solve: operator is {}x{}, not square", A.rows(), A.cols());
  SAGA_REQUIRE(b.size() == static_cast<std::size_t>(A.rows()), "solve: b has {} entries, A has {} rows", b.size(),
               A.rows());
  SAGA_REQUIRE(x.size() == static_cast<std::size_t>(A.rows()), "solve: x has {} entries, A has {} rows", x.size(),
               A.rows());
  SAGA_REQUIRE(b.space() == A.space() && x.space() == A.space(), "solve: A, b and x must live in the same space");
  if (M)
    SAGA_REQUIRE(M->rows() == A.rows() && M->space() == A.space(),
                 "solve: the preconditioner is {}x{} on the {}, the system {}x{} on the {}", M->rows(), M->cols(),
                 to_string(M->space()), A.rows(), A.cols(), to_string(A.space()));
  SAGA_REQUIRE(all_finite(b), "solve: the right-hand side has NaN or Inf entries");
  SAGA_REQUIRE(all_finite(x), "solve: the initial guess has NaN or Inf entries");
  bnorm_ = norm2(b);
  if (bnorm_ == 0.0) {  // the solution is x = 0, reached at iteration 0
    fill(x, 0.0);
    result.residual_history.push_back(0.0);
    result.converged = true;
    done_ = true;
  }
}

bool Run::start(const Vector& b, const Vector& x, Vector& r, Vector& w) {
  A_.residual(b, x, r, w);
  return record(norm2(r));
}

bool Run::record(double rnorm) {
  const double rel = rnorm / bnorm_;
  result.residual_history.push_back(rel);
  if (p_.progress) p_.progress(result.iterations, rel, p_.progress_data);
  if (!std::isfinite(rel)) {
    result.message = fmt::format("diverged: residual became {} at iteration {}", rel, result.iterations);
    return true;
  }
  if (rel <= p_.tolerance) {
    result.converged = true;
    return true;
  }
  return false;
}

bool Run::record_batch(const std::vector<double>& rnorms) {
  for (double rn : rnorms) {
    ++result.iterations;
    record(rn);
    if (!std::isfinite(result.residual_history.back())) {  // diverged: record() wrote the message
      result.converged = false;
      return true;
    }
  }
  // Converged means the last iterate (the x the caller gets) meets the tolerance.
  result.converged = !result.residual_history.empty() && result.residual_history.back() <= p_.tolerance;
  return result.converged;
}

bool Run::confirm(const Vector& b, const Vector& x, Vector& r, Vector& w) {
  A_.residual(b, x, r, w);
  confirmed_norm_ = norm2(r);
  const double rel = confirmed_norm_ / bnorm_;
  claimed_ = result.residual_history.back();
  result.residual_history.back() = rel;
  result.converged = rel <= p_.tolerance;
  if (!std::isfinite(rel)) {
    result.message = fmt::format("diverged: residual became {} at iteration {}", rel, result.iterations);
    return true;
  }
  return result.converged;
}

bool Run::restart_gains(double started_from, int restarts, int max_restarts) {
  const double actual = result.residual_history.back();
  if (!std::isfinite(actual)) return false;  // confirm() wrote the divergence
  const char* why = result.iterations >= p_.max_iterations ? "no iterations left"
                    : restarts >= max_restarts             ? "the most restarts"
                    : !(actual < 0.9 * started_from)       ? "it stopped falling"
                                                           : nullptr;
  if (!why) return true;
  result.message = fmt::format(
      "did NOT converge: the recurrence's residual reached {:.3e} but b - A x is {:.3e} > tolerance {:.1e} after {} "
      "restart{} from it ({}); about the accuracy double precision attains on this system",
      claimed_, actual, p_.tolerance, restarts, restarts == 1 ? "" : "s", why);
  return false;
}

bool stagnated(const std::vector<double>& history, int window, double below) {
  const std::size_t n = history.size(), w = static_cast<std::size_t>(window);
  if (window < 1 || n <= w || !(history.back() <= below)) return false;
  const double before = *std::min_element(history.begin(), history.end() - window);
  const double last = *std::min_element(history.end() - window, history.end());
  return !(last < 0.9 * before);
}

void Run::stop(const std::string& why, double rnorm) {
  result.message = why;
  result.residual_history.push_back(rnorm / bnorm_);
}

SolveResult Run::finish() {
  if (device_) device::synchronize();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  result.relative_residual = result.residual_history.back();
  if (result.iterations > 0 && result.residual_history.front() > 0)
    result.convergence_factor =
        std::pow(result.relative_residual / result.residual_history.front(), 1.0 / result.iterations);
  if (result.converged)
    result.message = fmt::format("converged in {} iteration{} to relative residual {:.3e}", result.iterations,
                                 result.iterations == 1 ? "" : "s", result.relative_residual);
  else if (result.message.empty())
    result.message = fmt::format("did NOT converge: {} iteration{} reached, relative residual {:.3e} > tolerance {:.1e}",
                                 result.iterations, result.iterations == 1 ? "" : "s", result.relative_residual,
                                 p_.tolerance);
  return std::move(result);
}

IterationLauncher::IterationLauncher(std::function<void()> body, Space space, bool graph, bool graph_safe,
                                     IterationGraph* kept)
    : body_(std::move(body)),
      space_(space),
      try_graph_(space == Space::device && graph && graph_safe),
      graph_(kept ? kept : &own_) {
  if (space == Space::device && !graph) note_ = "graph: off";
  if (space == Space::device && graph && !graph_safe)
    note_ = "no graph: the operator or the preconditioner is not graph-safe (it waits for the host)";
  if (try_graph_ && !graph_->failure.empty()) {
    try_graph_ = false;
    note_ = "no graph: capture failed (" + graph_->failure + ")";
  }
  if (try_graph_ && graph_->graph.ready()) note_ = "graph kept from an earlier solve";
}

void IterationLauncher::run() {
  if (!try_graph_) {
    body_();
    return;
  }
  if (graph_->graph.ready()) {
    graph_->graph.launch();
    return;
  }
  // The first call runs the iteration kernel by kernel (analyses and scratch
  // are made there, outside any capture), then captures and instantiates the
  // graph while the GPU is still busy with that iteration, so the capture
  // costs no GPU time; later calls replay it.
  body_();
  std::string why;
  if (!graph_->graph.capture(body_, &why)) {
    try_graph_ = false;
    graph_->failure = why;
    note_ = "no graph: capture failed (" + why + ")";
  }
}

std::string IterationLauncher::mode() const {
  if (space_ == Space::host) return "host";
  return try_graph_ && graph_->graph.ready() ? "graph" : "kernels";
}

void precondition(const LinearOperator* M, const Vector& r, Vector& z) {
  if (M)
    M->apply(r, z);
  else
    copy(r, z);
}

void precondition_dot(const LinearOperator* M, const Vector& r, Vector& z, Scalars& s, int slot) {
  if (M) {
    M->apply_dot(r, z, s, slot);
  } else {
    copy(r, z);
    dot_into(r, z, s, slot);
  }
}

}  // namespace saga::krylov
