// Host Lanczos updates (sparse/lanczos_ops.hpp): plain loops, ||w|| with the
// blocked dot of the host vector operations.
#include <cmath>

#include "sparse/host/kernels.hpp"
#include "sparse/lanczos_ops.hpp"

namespace saga::host {

void lanczos_orthogonalize(Scalars& s, int alpha, int beta_prev, int beta, const Vector& d, const Vector& v,
                           const Vector& v_prev, Vector& w) {
  double* S = s.data();
  const double a = S[alpha], b = beta_prev >= 0 ? S[beta_prev] : 0.0;
  const double *dp = d.data(), *vp = v.data(), *pp = v_prev.data();
  double* wp = w.data();
  const std::int64_t n = static_cast<std::int64_t>(w.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const double wi = dp[i] * wp[i] - a * vp[i];
    wp[i] = beta_prev >= 0 ? wi - b * pp[i] : wi;
  }
  S[beta] = std::sqrt(dot(w, w));
}

void lanczos_normalize(const Scalars& s, int beta, const Vector& w, Vector& v) {
  const double inv = 1.0 / s.data()[beta];
  const double* wp = w.data();
  double* vp = v.data();
  const std::int64_t n = static_cast<std::int64_t>(w.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) vp[i] = inv * wp[i];
}

}  // namespace saga::host
