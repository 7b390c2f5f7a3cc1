// The Chebyshev smoother against its closed form: a sweep's error propagator
// is the scaled Chebyshev polynomial T_k((theta - D^-1 A)/delta) / T_k(theta/delta).
#include "api/saga.hpp"
#include "sparse/csr_ops.hpp"
#include "tests/smoother_oracles.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("a Chebyshev sweep's error propagator is T_k((theta - D^-1 A)/delta) / T_k(theta/delta)") {
  const RandomSpdLevel L(30);
  const index_t n = L.n();
  const CsrMatrix& A = L.A;
  const Eigen::MatrixXd& M = L.M;
  const Vector& dinv = L.dinv;
  const Eigen::MatrixXd DA = M.diagonal().cwiseInverse().asDiagonal() * M;
  const double rho = DA.eigenvalues().cwiseAbs().maxCoeff();
  for (int degree : {1, 2, 3, 5}) {
    CAPTURE(degree);
    const double lo = rho / 30, hi = 1.1 * rho, theta = (hi + lo) / 2, delta = (hi - lo) / 2;
    const auto s = smoothers().create(
        Component("chebyshev", Options().set("degree", degree).set("lower", 1.0 / 30)), Space::host,
        SmootherLevel{A, dinv, rho});
    // Closed form: T_0 = I, T_1 = Y, T_{k+1} = 2 Y T_k - T_{k-1} with Y = (theta I - D^-1 A) / delta.
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n), Y = (theta * I - DA) / delta;
    Eigen::MatrixXd Tm = I, T = Y;
    double tm = 1, t = theta / delta;
    for (int k = 1; k < degree; ++k) {
      const Eigen::MatrixXd Tn = 2 * Y * T - Tm;
      Tm = T, T = Tn;
      const double tn = 2 * (theta / delta) * t - tm;
      tm = t, t = tn;
    }
    const Eigen::MatrixXd E = T / t;
    // Error propagation: smoothing A x = 0 from x = e gives E e.
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd e = Eigen::VectorXd::Random(n);
      Vector x = from(e);
      s->smooth(Vector::zeros(n, Space::host), x, 1, false);
      CHECK((vec(x) - E * e).norm() <= 1e-11 * e.norm());
    }
    // Its damping on [lo, hi] is 1 / T_k(theta/delta): the bound the literature states.
    const Eigen::VectorXcd ev = E.eigenvalues();
    for (Eigen::Index i = 0; i < ev.size(); ++i) {
      const double lam = DA.eigenvalues()(i).real();
      if (lam >= lo && lam <= hi) CHECK(std::abs(ev(i)) <= 1.0 + 1e-12);
    }
  }
}
