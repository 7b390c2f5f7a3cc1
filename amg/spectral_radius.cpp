#include "amg/spectral_radius.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <vector>

#include "amg/functors.hpp"
#include "core/parallel_for.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga::amg {

double spectral_radius_dinv_a(const CsrMatrix& A, const Vector& dinv, int iterations) {
  const Space s = A.space();
  const std::size_t n = A.rows();
  if (n == 0) return 0.0;
  Vector dis = dinv.clone();
  parallel_for(s, n, amg_functors::SqrtInPlace{dis.data()});
  Vector v = random_vector(n, 0x5a6a, s);
  axpby(-1.0, ones(n, s), 2.0, v);  // uniform in [-1, 1)
  scale(1.0 / norm2(v), v);
  Vector v_prev = Vector::zeros(n, s, "Lanczos vector"), w(n, s, "Lanczos vector"), tmp(n, s, "Lanczos vector");
  std::vector<double> alpha, beta;
  const int m = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(iterations, 1)), n));
  for (int j = 0; j < m; ++j) {
    multiply(dis, v, tmp);
    spmv(A, tmp, w);
    multiply(dis, w, w);
    const double a = dot(w, v);
    alpha.push_back(a);
    axpby(-a, v, 1.0, w);
    if (j > 0) axpby(-beta.back(), v_prev, 1.0, w);
    const double b = norm2(w);
    SAGA_REQUIRE(std::isfinite(a) && std::isfinite(b), "spectral radius estimate: non-finite value (NaN/Inf in A?)");
    if (j == m - 1 || b < 1e-10 * std::abs(a)) break;
    beta.push_back(b);
    v_prev.swap(v);
    axpby(1.0 / b, w, 0.0, v);
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
