#pragma once
// The conjugate-gradient recurrence shared by cg, pcg and fcg. With a fixed SPD
// preconditioner beta = (r_k, z_k) / (r_{k-1}, z_{k-1}) (Hestenes-Stiefel /
// Fletcher-Reeves form); `flexible` uses the Polak-Ribiere form
// beta = (z_k, r_k - r_{k-1}) / (z_{k-1}, r_{k-1}) = -alpha (z_k, A p) / (z_{k-1}, r_{k-1})
// (Notay 2000, FCG(1)), which stays a good method when M changes between
// iterations. A breakdown (p^T A p <= 0: A or M not SPD) is reported.
//
// The iteration keeps its scalars where the vectors live (sparse/cg_ops.hpp):
// on the GPU it queues kernels only, so the host waits for it once per
// convergence check, and when both operators are graph-safe it is captured
// once as a CUDA graph and replayed (one launch per iteration).
#include "solver/krylov.hpp"

namespace saga::krylov {

// The options of pcg, cg and fcg: how the iterations are launched, and
// whether convergence is confirmed from the true residual.
struct CgOptions {
  std::string graph = "auto";  // auto: replay a CUDA graph where possible; off: launch kernel by kernel
  // Iterations between two reads of the residual history (0: chosen per check,
  // iterations_before_check). The device stops updating at convergence, so
  // this moves host waits, never the iterates or the history.
  int check_every = 0;
  // Where the recurrence's residual meets the tolerance, b - A x is computed
  // (one product with A) and convergence is claimed only if it meets it too;
  // else CG restarts from it (cg_confirmed_tolerance: auto's bound).
  std::string confirm = "auto";

  template <class V>
  void visit(V& v) {
    v("graph", graph, "CUDA-graph replay of the iteration on the GPU (auto | off)", one_of({"auto", "off"}));
    v("check_every", check_every,
      "iterations between convergence checks, each a host wait (0: chosen from the residual's rate where an "
      "iteration is short); iterations launched past convergence change nothing",
      at_least(0));
    v("confirm", confirm,
      "convergence confirmed from the true residual b - A x (one more product with A), CG restarted from it where "
      "the recurrence's residual had drifted below it (auto: for tolerances of at most 1e-10, where the drift can "
      "reach the tolerance; on: always; off: never, the recurrence's residual is reported)",
      one_of({"auto", "on", "off"}));
  }
};

// The vectors a solve allocates (CgState, conjugate_gradient.cpp): r, the
// direction q and A q, which also holds z = M r; the flexible form keeps z
// apart (one more).
constexpr int kCgVectors = 3;

// auto confirms convergence where the tolerance is at most this: above it the
// recurrence's residual stayed within 1e-4 (relative) of b - A x in the host
// tests; near double precision's attainable accuracy it does not (3D 7-pt
// N=64 with PCG(AMG) at 1e-16: the recurrence reached 5.6e-17 where b - A x
// was 2.8e-16).
constexpr double cg_confirmed_tolerance = 1e-10;
// Restarts from the true residual before CG reports that it stagnates.
constexpr int cg_max_restarts = 4;

// Iterations to launch before the next convergence check: check_every where
// it is > 0; else (auto) 1 on the host, where an iteration takes 1 ms or more
// (a host wait is then under 2% of it) or before 3 iterations; else half the
// iterations the faster of the last one's and the last three's rates predicts
// the solve still needs to reach `tolerance` (iterations launched past
// convergence cost their GPU time), 1 to 16. history: ||r|| / ||b|| so far
// (entry 0 the initial one).
int iterations_before_check(int check_every, Space space, const std::vector<double>& history, double tolerance,
                            double seconds_per_iteration);

// With `state`, the vectors, the scalars and the iteration's graph are kept
// there for the next solve of the same operators and x (KrylovState), and
// taken from there where an earlier solve left them.
SolveResult conjugate_gradient(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                               const SolverParams& p, bool flexible, const CgOptions& options = {},
                               std::unique_ptr<KrylovState>* state = nullptr);

}  // namespace saga::krylov
