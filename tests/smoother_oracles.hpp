#pragma once
// Oracles for smoother tests: a random SPD matrix (a weighted 1D Laplacian with
// second-neighbour couplings and a positive shift), Eigen conversions, and the
// closed form of one diagonal-relaxation sweep.
#include <Eigen/Dense>

#include "solver/smoother.hpp"
#include "sparse/csr_ops.hpp"
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

// A smoother's level over a fresh random SPD matrix (a printed seed): the
// matrix as saga's CSR and as Eigen's dense matrix, and its inverse diagonal.
struct RandomSpdLevel {
  explicit RandomSpdLevel(index_t n) : rng(fresh_seed()), h(random_spd(n, rng)) {}
  std::mt19937_64 rng;
  HostCsr h;
  CsrMatrix A = from_host_csr(h, Space::host);
  Eigen::MatrixXd M = dense(h);
  Vector dinv = inverse_diagonal(A);
  index_t n() const { return h.rows; }
};
inline Eigen::VectorXd vec(const Vector& v) {
  const auto x = v.to_vector();
  return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
}
inline Vector from(const Eigen::VectorXd& v) {
  return Vector::from_vector(std::vector<double>(v.data(), v.data() + v.size()), Space::host);
}

// The closed form of a diagonal relaxation (jacobi, l1_jacobi) with weight
// omega and diagonal weights w: one sweep is x + omega W (b - A x), and a sweep
// from zero is omega W b, whatever x held. rho is the level's rho(D^-1 A).
inline void check_one_diagonal_sweep(const char* name, double omega, double rho,
                                     Eigen::VectorXd (*weights)(const Eigen::MatrixXd&)) {
  const RandomSpdLevel L(40);
  const index_t n = L.n();
  const CsrMatrix& A = L.A;
  const Eigen::MatrixXd& M = L.M;
  const Vector& dinv = L.dinv;
  const Eigen::VectorXd b = Eigen::VectorXd::Random(n), x0 = Eigen::VectorXd::Random(n);
  const Eigen::VectorXd w = weights(M);
  const auto s = smoothers().create(Component(name, Options().set("omega", omega)), Space::host,
                                    SmootherLevel{A, dinv, rho});
  Vector x = from(x0);
  s->smooth(from(b), x, 1, false);
  const Eigen::VectorXd want = x0 + omega * w.cwiseProduct(b - M * x0);
  CHECK((vec(x) - want).norm() <= 1e-13 * want.norm());
  Vector z = from(Eigen::VectorXd::Constant(n, std::nan("")));
  s->smooth(from(b), z, 1, true);
  CHECK((vec(z) - omega * w.cwiseProduct(b)).norm() <= 1e-13 * b.norm());
}

}  // namespace saga::test
