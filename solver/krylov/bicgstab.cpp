// Right-preconditioned BiCGStab (van der Vorst 1992; Saad, "Iterative Methods",
// Alg. 7.7 with right preconditioning): for nonsymmetric A, two products with A
// and two with M per iteration, short recurrences. Breakdowns (rho = 0 or
// omega = 0) are reported, not hidden. The recurrence's residual can drift from
// b - A x (by 30% near 1e-10 on convection-diffusion without a preconditioner),
// so convergence is claimed only once the true residual meets the tolerance;
// where it does not, the method restarts from the true residual, and where
// restarts stop gaining it reports the accuracy double precision attains.
#include <cmath>

#include "solver/krylov/common.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
// Restarts from b - A x before BiCGStab reports that it stagnates
// (Run::restart_gains). More than the CG family's 4: its recurrence drifts
// further (30% near 1e-10 without a preconditioner), so a restart that lands
// just above the tolerance is no sign of stagnation.
constexpr int kMaxRestarts = 10;

class Bicgstab final : public KrylovMethod {
 public:
  int workspace_vectors() const override { return 8; }  // r, r^, p, v, M p, s, M s, t
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    using krylov::precondition;
    krylov::Run run(A, M, b, x, p);
    if (run.done()) return run.finish();
    const Space s = A.space();
    const std::size_t n = A.rows();
    Vector r(n, s, "BiCGStab residual"), rhat(n, s, "BiCGStab shadow residual"), pv(n, s, "BiCGStab direction"),
        v(n, s, "BiCGStab A*M*p"), ph(n, s, "BiCGStab M*p"), sv(n, s, "BiCGStab s"), sh(n, s, "BiCGStab M*s"),
        t(n, s, "BiCGStab A*M*s");
    if (run.start(b, x, r, v)) return run.finish();
    SolveResult& res = run.result;
    double rho_old = 1.0, alpha = 1.0, omega = 1.0;
    bool restart = true;  // the shadow residual and p start from r
    int restarts = 0;
    double started_from = res.residual_history.back();  // the true residual of the last (re)start
    // The recurrence met the tolerance: converged if b - A x does too; else
    // restart from it while that gains (Run::restart_gains). True: stop.
    const auto confirmed_or_stagnated = [&] {
      if (run.confirm(b, x, r, t) || !run.restart_gains(started_from, restarts, kMaxRestarts)) return true;
      started_from = res.residual_history.back();
      restart = true;
      ++restarts;
      return false;
    };
    while (res.iterations < p.max_iterations) {
      if (restart) copy(r, rhat);
      const double rho = dot(rhat, r);
      if (rho == 0.0 || !std::isfinite(rho)) {
        res.message = fmt::format("breakdown at iteration {}: (r0, r) = {} (restart from the current x)",
                                  res.iterations, rho);
        break;
      }
      if (restart) {
        copy(r, pv);
        restart = false;
      } else {
        const double beta = (rho / rho_old) * (alpha / omega);
        axpby(-omega, v, 1.0, pv);  // p = r + beta (p - omega v)
        axpby(1.0, r, beta, pv);
      }
      precondition(M, pv, ph);
      A.apply(ph, v);
      const double rv = dot(rhat, v);
      if (rv == 0.0 || !std::isfinite(rv)) {
        res.message = fmt::format("breakdown at iteration {}: (r0, A M p) = {}", res.iterations, rv);
        break;
      }
      alpha = rho / rv;
      copy(r, sv);
      axpby(-alpha, v, 1.0, sv);  // s = r - alpha v
      const double snorm = norm2(sv);
      if (snorm <= p.tolerance * run.bnorm()) {  // the half step suffices
        axpby(alpha, ph, 1.0, x);
        copy(sv, r);
        ++res.iterations;
        run.record(snorm);
        if (confirmed_or_stagnated()) break;
        continue;
      }
      precondition(M, sv, sh);
      A.apply(sh, t);
      const double tt = dot(t, t);
      omega = tt > 0 ? dot(t, sv) / tt : 0.0;
      axpby(alpha, ph, 1.0, x);
      axpby(omega, sh, 1.0, x);
      copy(sv, r);
      axpby(-omega, t, 1.0, r);  // r = s - omega t
      ++res.iterations;
      if (run.record(norm2(r))) {
        if (!res.converged || confirmed_or_stagnated()) break;
        continue;
      }
      if (omega == 0.0) {
        res.message = fmt::format("breakdown at iteration {}: omega = 0", res.iterations);
        break;
      }
      rho_old = rho;
    }
    SolveResult out = run.finish();
    if (restarts > 0 && out.converged)
      out.message += fmt::format(" ({} restart{} from the true residual, which the recurrence's had drifted from)",
                                 restarts, restarts == 1 ? "" : "s");
    return out;
  }
};

struct BicgstabComponent {
  static constexpr const char* name = "bicgstab";
  static constexpr const char* summary = "right-preconditioned BiCGStab: nonsymmetric A, fixed M";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<KrylovMethod> make(const Params&) { return std::make_unique<Bicgstab>(); }
};
}  // namespace

void add_bicgstab(KrylovRegistry& r) { r.add<BicgstabComponent>(); }

}  // namespace saga
