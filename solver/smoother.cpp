#include "solver/smoother.hpp"

#include "amg/spectral_radius.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/vector_ops.hpp"

// The smoothers: one line each (the add_* function its file in solver/smoothers/ defines).
#define SAGA_SMOOTHER_COMPONENTS(X) \
  X(jacobi)                         \
  X(l1_jacobi)                      \
  X(chebyshev)                      \
  /* one line per smoother, above */

namespace saga {

#define SAGA_DECLARE(name) void add_##name(SmootherRegistry&);
SAGA_SMOOTHER_COMPONENTS(SAGA_DECLARE)
#undef SAGA_DECLARE

const SmootherRegistry& smoothers() {
  static const SmootherRegistry r = [] {
    SmootherRegistry reg("smoother", "amg.smoother");
#define SAGA_ADD(name) add_##name(reg);
    SAGA_SMOOTHER_COMPONENTS(SAGA_ADD)
#undef SAGA_ADD
    reg.set_default("jacobi");
    return reg;
  }();
  return r;
}

double level_rho(const SmootherLevel& L) {
  if (L.rho > 0) return L.rho;
  return amg::spectral_radius_dinv_a(L.A, L.dinv, 15);
}

void Smoother::smooth_from(const Vector& b, Vector& x_in, Vector& x_out, int sweeps, Scalars* dot, int slot) const {
  copy(x_in, x_out);
  smooth(b, x_out, sweeps, false);
  if (dot) dot_into(b, x_out, *dot, slot);
}

SmootherOperator::SmootherOperator(const CsrMatrix& A, const Component& c, int sweeps)
    : A_(A), dinv_(inverse_diagonal(A)), sweeps_(sweeps) {
  SAGA_REQUIRE(sweeps >= 1, "smoother as a preconditioner: sweeps = {} must be at least 1", sweeps);
  smoother_ = smoothers().create(c, A.space(), SmootherLevel{A, dinv_, 0.0});
}

}  // namespace saga
