#include "amg/spectral_radius.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <vector>

#include "sparse/lanczos_ops.hpp"
#include "sparse/scalars.hpp"

namespace saga::amg {

// Lanczos on D^-1/2 A D^-1/2 with its scalars on the vectors' side: the m steps
// run without a host round trip (on the GPU in one cooperative kernel,
// sparse/lanczos_ops.hpp), and the host reads the alphas and betas once, cuts
// the recurrence where it broke down (beta_j below 1e-10 |alpha_j|: an
// invariant subspace was found) and takes the largest Ritz value of the
// tridiagonal matrix.
double spectral_radius_dinv_a(const CsrMatrix& A, const Vector& dinv, int iterations) {
  const Space s = A.space();
  const std::size_t n = A.rows();
  if (n == 0) return 0.0;
  const int m = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(iterations, 1)), n));
  Scalars S(2 * static_cast<std::size_t>(m), s);  // alpha_j in slot j, beta_j in slot m + j
  // From a random start vector uniform in [-1, 1), normalised; D^-1/2 and the start are made inside the
  // steps' kernel on the GPU.
  lanczos_steps_dinv(A, dinv, m, 0x5a6a, S);
  const std::vector<double> h = S.head(2 * static_cast<std::size_t>(m));  // the one wait for the device
  std::vector<double> alpha, beta;
  for (int j = 0; j < m; ++j) {
    const double a = h[j], b = h[m + j];
    SAGA_REQUIRE(std::isfinite(a) && std::isfinite(b), "spectral radius estimate: non-finite value (NaN/Inf in A?)");
    alpha.push_back(a);
    if (j + 1 == m || b < 1e-10 * std::abs(a)) break;  // later steps divided by ~0: ignored
    beta.push_back(b);
  }
  const int k = static_cast<int>(alpha.size());
  Eigen::MatrixXd Tm = Eigen::MatrixXd::Zero(k, k);
  for (int i = 0; i < k; ++i) {
    Tm(i, i) = alpha[i];
    if (i + 1 < k) Tm(i, i + 1) = Tm(i + 1, i) = beta[i];
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Tm, Eigen::EigenvaluesOnly);
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

}  // namespace saga::amg
