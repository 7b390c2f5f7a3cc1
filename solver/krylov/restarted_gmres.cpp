#include "solver/krylov/restarted_gmres.hpp"

#include <cmath>
#include <vector>

#include "solver/krylov/common.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
// Restarts after a cycle whose estimate met the tolerance while b - A x did
// not, before GMRES reports that b - A x stagnates (Run::restart_gains), as
// the CG family does: right-preconditioned GMRES's estimate is b - A x's norm
// but for rounding, so repeated misses mean the tolerance is below what double
// precision attains. Before, such a solve restarted every few iterations until
// max_iterations (3D 7-pt N=32 at 1e-16: 3000 iterations).
constexpr int kMaxConfirmRestarts = 4;
}  // namespace

SolveResult RestartedGmres::solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                                  const SolverParams& p) const {
  using namespace krylov;
  Run run(A, M, b, x, p);
  if (run.done()) return run.finish();
  SolveResult& res = run.result;
  const Space s = A.space();
  const std::size_t n = A.rows();
  const int m = m_;
  std::vector<Vector> V, Z;
  for (int j = 0; j <= m; ++j) V.emplace_back(n, s, "GMRES basis");
  if (flexible_)
    for (int j = 0; j < m; ++j) Z.emplace_back(n, s, "FGMRES preconditioned basis");
  Vector r(n, s, "GMRES residual"), w(n, s, "GMRES work"), z(n, s, "GMRES preconditioned vector");
  std::vector<double> H(static_cast<std::size_t>(m + 1) * m), cs(m), sn(m), g(m + 1);
  auto h = [&](int i, int j) -> double& { return H[static_cast<std::size_t>(j) * (m + 1) + i]; };
  const double bnorm = run.bnorm();
  if (run.start(b, x, r, w)) return run.finish();
  double beta = norm2(r);
  int confirm_restarts = 0;
  double started_from = res.residual_history.back();  // b - A x where the last such restart began
  for (;;) {
    axpby(1.0 / beta, r, 0.0, V[0]);
    std::fill(g.begin(), g.end(), 0.0);
    g[0] = beta;
    int k = 0;  // basis vectors used in this cycle
    bool stop = false;
    bool estimate_met = false;  // the cycle ended with its estimate at the tolerance
    while (k < m && res.iterations < p.max_iterations) {
      const int j = k;
      Vector& zj = flexible_ ? Z[j] : z;
      precondition(M, V[j], zj);
      A.apply(zj, w);
      for (int i = 0; i <= j; ++i) {  // modified Gram-Schmidt
        h(i, j) = dot(w, V[i]);
        axpby(-h(i, j), V[i], 1.0, w);
      }
      h(j + 1, j) = norm2(w);
      for (int i = 0; i < j; ++i) {  // previous rotations
        const double t = cs[i] * h(i, j) + sn[i] * h(i + 1, j);
        h(i + 1, j) = -sn[i] * h(i, j) + cs[i] * h(i + 1, j);
        h(i, j) = t;
      }
      const double d = std::hypot(h(j, j), h(j + 1, j));
      const double hn = h(j + 1, j);
      cs[j] = d > 0 ? h(j, j) / d : 1.0;
      sn[j] = d > 0 ? hn / d : 0.0;
      h(j, j) = d;
      h(j + 1, j) = 0.0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      ++k;
      ++res.iterations;
      const double est = std::abs(g[j + 1]) / bnorm;
      res.residual_history.push_back(est);
      if (p.progress) p.progress(res.iterations, est, p.progress_data);
      if (!std::isfinite(est)) {
        res.message = fmt::format("diverged: residual became {} at iteration {}", est, res.iterations);
        stop = true;
        break;
      }
      estimate_met = est <= p.tolerance;
      if (estimate_met || hn <= 1e-300) break;  // converged (to be checked) or lucky breakdown
      axpby(1.0 / hn, w, 0.0, V[j + 1]);
    }
    // y = H^-1 g (upper triangular k x k), x += Z y (flexible) or M (V y).
    std::vector<double> y(k);
    for (int i = k - 1; i >= 0; --i) {
      double t = g[i];
      for (int l = i + 1; l < k; ++l) t -= h(i, l) * y[l];
      y[i] = h(i, i) != 0.0 ? t / h(i, i) : 0.0;
    }
    if (flexible_) {
      for (int i = 0; i < k; ++i) axpby(y[i], Z[i], 1.0, x);
    } else if (k > 0) {
      axpby(y[0], V[0], 0.0, w);
      for (int i = 1; i < k; ++i) axpby(y[i], V[i], 1.0, w);
      precondition(M, w, z);
      axpby(1.0, z, 1.0, x);
    }
    if (stop) break;
    // The true residual replaces the cycle's last estimate: converged only if
    // it meets the tolerance; not finite: diverged (the message written).
    if (run.confirm(b, x, r, w)) break;
    const double rel = res.residual_history.back();
    beta = run.confirmed_norm();  // the next cycle's first basis vector is r / beta
    if (estimate_met) {  // the estimate met the tolerance, b - A x did not
      if (!run.restart_gains(started_from, confirm_restarts, kMaxConfirmRestarts)) break;
      started_from = rel;
      ++confirm_restarts;
    }
    if (res.iterations >= p.max_iterations) break;
    if (beta == 0.0) break;
  }
  return run.finish();
}

}  // namespace saga
