#pragma once
// Oracles for smoother tests: a random SPD matrix (a weighted 1D Laplacian with
// second-neighbour couplings and a positive shift) and Eigen conversions.
#include <Eigen/Dense>

#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

namespace saga::test {

// An SPD matrix with random weights: 1D Laplacian plus a random diagonal shift
// and random symmetric off-diagonal couplings two rows apart.
inline HostCsr random_spd(index_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0.5, 2.0);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (index_t i = 0; i < n; ++i) {
    if (i + 1 < n) {
      const double w = U(rng);
      M(i, i + 1) = M(i + 1, i) = -w;
      M(i, i) += w, M(i + 1, i + 1) += w;
    }
    if (i + 2 < n) {
      const double w = 0.3 * U(rng);
      M(i, i + 2) = M(i + 2, i) = -w;
      M(i, i) += w, M(i + 2, i + 2) += w;
    }
    M(i, i) += 0.1 * U(rng);
  }
  HostCsr h{n, n, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < n; ++j)
      if (M(i, j) != 0.0) h.col.push_back(j), h.val.push_back(M(i, j));
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  return h;
}
inline Eigen::MatrixXd dense(const HostCsr& h) { return Eigen::MatrixXd(to_eigen(h)); }
inline Eigen::VectorXd vec(const Vector& v) {
  const auto x = v.to_vector();
  return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
}
inline Vector from(const Eigen::VectorXd& v) {
  return Vector::from_vector(std::vector<double>(v.data(), v.data() + v.size()), Space::host);
}

}  // namespace saga::test
