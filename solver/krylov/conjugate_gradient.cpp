#include "solver/krylov/conjugate_gradient.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/device.hpp"
#include "solver/krylov/common.hpp"
#include "sparse/cg_ops.hpp"
#include "sparse/vector_ops.hpp"

namespace saga::krylov {

namespace {
// What one CG solve works in, and what a later solve of the same system may
// take over: the vectors, the scalars and the iteration's graph. The graph
// holds the device pointers of everything the iteration touches, so it is
// replayed only for the same operators, the same x (its array), the same sizes
// and launch settings.
struct CgState final : KrylovState {
  struct Key {
    const LinearOperator* A;
    const LinearOperator* M;
    const double* x;
    std::size_t n;
    Space space;
    bool flexible;
    int max_iterations;  // the history's length in S
    std::string graph;   // CgOptions::graph
    bool dependent;      // device::dependent_launch(): how the graph's kernels were launched
    bool operator==(const Key& o) const {
      return A == o.A && M == o.M && x == o.x && n == o.n && space == o.space && flexible == o.flexible &&
             max_iterations == o.max_iterations && graph == o.graph && dependent == o.dependent;
    }
  };
  explicit CgState(const Key& k)
      : key(k),
        r(k.n, k.space, "CG residual"),
        q(k.n, k.space, "CG direction"),
        // Zeroed: flexible CG's first z . Aq reads it before any A q was written
        // (its value is not used then, but compute-sanitizer initcheck flags the read).
        Aq(Vector::zeros(k.n, k.space, "CG A*direction")),
        // z = M r lives only from the preconditioner to the new direction, A q only
        // from the product to the update of r: plain CG keeps both in one vector
        // (8 B per unknown less); flexible CG reads z and the previous A q together.
        z_own(k.flexible ? Vector(k.n, k.space, "CG preconditioned residual") : Vector()),
        // Scalars and the history of ||r|| (entry 0: the initial residual) on the
        // vectors' side; the host reads them at each convergence check.
        S(cg_slot::history + static_cast<std::size_t>(k.max_iterations) + 1, k.space) {}
  Vector& z() { return key.flexible ? z_own : Aq; }
  Key key;
  Vector r, q, Aq, z_own;
  Scalars S;
  IterationGraph graph;
};
}  // namespace

int iterations_before_check(int check_every, Space space, const std::vector<double>& history, double tolerance,
                            double seconds_per_iteration) {
  if (check_every > 0) return check_every;
  if (space == Space::host || !(seconds_per_iteration < 1e-3) || history.size() < 4) return 1;
  const std::size_t m = history.size() - 1;  // iterations done
  // The faster of the last iteration's rate and the last three's: CG speeds up
  // as it goes, and a rate too slow would launch iterations past convergence
  // (each a whole iteration of GPU time; measured: the first iterations' rate
  // launched ~15 too many on 2D 9-pt).
  const double last = history[m] / history[m - 1];
  const double three = std::pow(history[m] / history[m - 3], 1.0 / 3.0);
  const double rate = std::min(last, three);
  if (!(rate > 0.0 && rate < 1.0)) return 1;
  const double need = std::log(tolerance / history[m]) / std::log(rate);
  if (!(need >= 2.0)) return 1;
  return static_cast<int>(std::min(16.0, std::floor(need / 2.0)));
}

SolveResult conjugate_gradient(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                               const SolverParams& p, bool flexible, const CgOptions& options,
                               std::unique_ptr<KrylovState>* state) {
  Run run(A, M, b, x, p);
  if (run.done()) return run.finish();
  const Space s = A.space();
  const CgState::Key key{&A,
                         M,
                         x.data(),
                         static_cast<std::size_t>(A.rows()),
                         s,
                         flexible,
                         p.max_iterations,
                         options.graph,
                         s == Space::device && device::dependent_launch()};
  std::unique_ptr<KrylovState> own;
  std::unique_ptr<KrylovState>& slot = state ? *state : own;
  auto* kept = dynamic_cast<CgState*>(slot.get());
  if (!kept || !(kept->key == key)) {
    slot.reset();  // the old vectors go before the new ones are allocated
    slot = std::make_unique<CgState>(key);
    kept = static_cast<CgState*>(slot.get());
  }
  CgState& w = *kept;
  Vector &r = w.r, &q = w.q, &Aq = w.Aq, &z = w.z();
  Scalars& S = w.S;
  if (run.start(b, x, r, Aq)) return run.finish();
  // The scalars CG starts (or restarts) from, r holding the residual the
  // history's last entry records: count 1 makes the first beta 0.
  const auto start_scalars = [&] {
    std::vector<double> head(cg_slot::history + 1, 0.0);
    head[cg_slot::count] = 1.0;
    // The device stops the updates where the host's test would stop the solve
    // (cg_step), so iterations launched before a check never pass it.
    head[cg_slot::bnorm] = run.bnorm();
    head[cg_slot::tolerance] = p.tolerance;
    head[cg_slot::history] = run.result.residual_history.back() * run.bnorm();
    S.set_head(head);
  };
  start_scalars();
  // One iteration, rotated so that it ends with the update of r (the check
  // follows it; nothing is computed past convergence).
  const auto iteration = [&] {
    precondition_dot(M, r, z, S, cg_slot::rz);  // z = M r, s[rz] = r . z (fused where M can)
    if (flexible) dot_into(z, Aq, S, cg_slot::zAq);
    cg_direction(S, z, q, flexible);
    A.apply_dot(q, Aq, S, cg_slot::qAq);
    cg_step(S, q, Aq, x, r);
  };
  const bool graph_safe = A.graph_safe() && (!M || M->graph_safe());
  IterationLauncher launcher(iteration, s, options.graph == "auto", graph_safe, &w.graph);
  SolveResult& res = run.result;
  const bool confirm =
      options.confirm == "on" || (options.confirm == "auto" && p.tolerance <= cg_confirmed_tolerance);
  int restarts = 0;
  double started_from = res.residual_history.back();  // the true residual of the last (re)start
  for (;;) {
    int recorded = 1;  // history entries the host has seen since the (re)start
    double seconds_per_iteration = 0.0;  // the last batch's, host clock (what the check interval weighs)
    while (res.iterations < p.max_iterations) {
      const int k = std::min(
          iterations_before_check(options.check_every, s, res.residual_history, p.tolerance, seconds_per_iteration),
          p.max_iterations - res.iterations);
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < k; ++i) launcher.run();
      const std::vector<double> h = S.head(cg_slot::history + recorded + k);  // the one host wait
      seconds_per_iteration = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / k;
      const int count = static_cast<int>(h[cg_slot::count]);
      std::vector<double> norms(h.begin() + cg_slot::history + recorded, h.begin() + cg_slot::history + count);
      recorded = count;
      const bool stop = run.record_batch(norms);
      if (stop) break;
      // Status 2 is set exactly where record_batch stops (the same test); this
      // only keeps a stopped device from being relaunched to max_iterations.
      if (h[cg_slot::status] == 2.0) break;
      if (h[cg_slot::status] != 0.0) {
        run.stop(fmt::format("breakdown at iteration {}: q^T A q = {:.3e} <= 0 (the matrix or the preconditioner "
                             "is not SPD)",
                             res.iterations, h[cg_slot::qAq]),
                 h[cg_slot::history + count - 1]);
        break;
      }
    }
    if (!res.converged || !confirm) break;
    // The recurrence's residual met the tolerance: b - A x must too.
    if (run.confirm(b, x, r, Aq)) break;
    if (!run.restart_gains(started_from, restarts, cg_max_restarts)) break;
    ++restarts;
    started_from = res.residual_history.back();
    start_scalars();  // CG again from r = b - A x
  }
  res.launch = launcher.mode();
  res.launch_note = launcher.note();
  SolveResult out = run.finish();
  if (restarts > 0 && out.converged)
    out.message += fmt::format(" ({} restart{} from the true residual, which the recurrence's had drifted from)",
                               restarts, restarts == 1 ? "" : "s");
  return out;
}

}  // namespace saga::krylov
