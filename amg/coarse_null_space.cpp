#include "amg/coarse_null_space.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace saga::amg {

CoarseNullSpace null_space_in(const HostCsr& A, const std::vector<double>& B, int k) {
  CoarseNullSpace out;
  const index_t n = A.rows;
  if (n == 0 || k <= 0 || B.size() != static_cast<std::size_t>(n) * k) return out;
  Eigen::MatrixXd Bm(n, k);
  for (index_t i = 0; i < n; ++i)
    for (int c = 0; c < k; ++c) Bm(i, c) = B[static_cast<std::size_t>(i) * k + c];

  // Q = B V S^(-1/2) over the eigenpairs of BᵀB that are not rounding: an
  // orthonormal basis of span(B) without its dependent columns.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> gram(Bm.transpose() * Bm);
  const Eigen::VectorXd s = gram.eigenvalues();
  const double smax = s.cwiseAbs().maxCoeff();
  if (!(smax > 0) || !std::isfinite(smax)) return out;
  std::vector<int> kept;
  for (int c = 0; c < k; ++c)
    if (s(c) > 1e-12 * smax) kept.push_back(c);
  Eigen::MatrixXd Q(n, static_cast<Eigen::Index>(kept.size()));
  for (std::size_t c = 0; c < kept.size(); ++c)
    Q.col(static_cast<Eigen::Index>(c)) = Bm * gram.eigenvectors().col(kept[c]) / std::sqrt(s(kept[c]));

  // A Q from the CSR rows, ‖A‖∞ and the mean diagonal on the way.
  Eigen::MatrixXd AQ = Eigen::MatrixXd::Zero(n, Q.cols());
  double norm_inf = 0, trace = 0;
  for (index_t i = 0; i < n; ++i) {
    double row_abs = 0;
    for (offset_t e = A.row_ptr[i]; e < A.row_ptr[i + 1]; ++e) {
      AQ.row(i) += A.val[e] * Q.row(A.col[e]);
      row_abs += std::abs(A.val[e]);
      if (A.col[e] == i) trace += A.val[e];
    }
    norm_inf = std::max(norm_inf, row_abs);
  }
  if (!(norm_inf > 0) || !std::isfinite(norm_inf) || !(trace > 0)) return out;

  Eigen::MatrixXd G = Q.transpose() * AQ;
  G = 0.5 * (G + G.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> rayleigh(G);
  std::vector<int> null;
  for (Eigen::Index c = 0; c < G.rows(); ++c)
    if (std::abs(rayleigh.eigenvalues()(c)) <= kNullRelative * norm_inf) null.push_back(static_cast<int>(c));
  out.Z.resize(n, static_cast<Eigen::Index>(null.size()));
  for (std::size_t c = 0; c < null.size(); ++c)
    out.Z.col(static_cast<Eigen::Index>(c)) = Q * rayleigh.eigenvectors().col(null[c]);
  out.alpha = trace / n;
  return out;
}

}  // namespace saga::amg
