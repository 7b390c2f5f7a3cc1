// Damped Jacobi: x <- x + omega D^-1 (b - A x), omega = 4/(3 rho(D^-1 A)) by
// default (the choice of PyAMG and of the SA literature for the smoothed
// prolongator, docs/design.md).
#include "core/log.hpp"
#include "solver/smoothers/diagonal_relaxation.hpp"

namespace saga {

namespace {
struct Jacobi {
  static constexpr const char* name = "jacobi";
  static constexpr const char* summary = "damped Jacobi, omega = 4/(3 rho(D^-1 A)) unless set";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    double omega = 0;
    template <class V>
    void visit(V& v) {
      v("omega", omega, "damping weight (0 or auto: 4/(3 rho))", zero_is_auto());
    }
  };
  static std::unique_ptr<Smoother> make(const Params& p, const SmootherLevel& L) {
    const double rho = L.A.rows() > 0 ? level_rho(L) : 0.0;
    const double w = p.omega > 0 ? p.omega : rho > 0 ? 4.0 / (3.0 * rho) : 2.0 / 3.0;
    // Jacobi's error propagator I - w D^-1 A has the eigenvalue 1 - w rho:
    // below -1 the sweeps amplify the highest modes and the solve stalls.
    if (w * rho > 2.0)
      log_warning("Jacobi omega {} on a level of {} rows with rho(D^-1 A) = {:.4g}: omega * rho = {:.3g} > 2, so the "
                  "sweeps diverge on the highest modes; use omega < 2 / rho = {:.4g}, or 0 for the automatic 4/(3 rho)",
                  w, L.A.rows(), rho, w * rho, 2.0 / rho);
    return std::make_unique<DiagonalRelaxation>(L.A, L.dinv, w);
  }
};
}  // namespace

void add_jacobi(SmootherRegistry& r) { r.add<Jacobi>(); }

}  // namespace saga
