// Host CG updates (sparse/cg_ops.hpp): the plain loops the CUDA kernels are
// tested against; ||r|| uses the same blocked dot as everything else.
#include <cmath>

#include "sparse/cg_ops.hpp"
#include "sparse/host/kernels.hpp"

namespace saga::host {

void cg_direction(Scalars& s, const Vector& z, Vector& q, bool flexible) {
  double* S = s.data();
  const double beta = cg_beta(S, flexible);
  const double* zp = z.data();
  double* qp = q.data();
  const std::int64_t n = static_cast<std::int64_t>(q.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) qp[i] = beta == 0.0 ? zp[i] : zp[i] + beta * qp[i];
}

void cg_step(Scalars& s, const Vector& q, const Vector& Aq, Vector& x, Vector& r) {
  double* S = s.data();
  // The host decides before the loops (the device's step_kernel decides on
  // cg_step_allowed alone, its finish kernel on the same cg_update_ran).
  if (!cg_update_ran(S)) return;
  const double alpha = S[cg_slot::rz] / S[cg_slot::qAq];
  const double *qp = q.data(), *ap = Aq.data();
  double *xp = x.data(), *rp = r.data();
  const std::int64_t n = static_cast<std::int64_t>(q.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    xp[i] += alpha * qp[i];
    rp[i] -= alpha * ap[i];
  }
  cg_record_step(S, s.size(), std::sqrt(dot(r, r)));
}

}  // namespace saga::host
