// The L1-Jacobi smoother against its closed form: one sweep is
// x + omega D_l1^-1 (b - A x) with (D_l1)_ii = sum_j |a_ij|; and it converges
// without any spectral estimate where undamped Jacobi does not.
#include "api/saga.hpp"
#include "sparse/csr_ops.hpp"
#include "tests/smoother_oracles.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("one L1-Jacobi sweep equals x + omega D_l1^-1 (b - A x)") {
  check_one_diagonal_sweep("l1_jacobi", 0.9, 0.0, [](const Eigen::MatrixXd& M) -> Eigen::VectorXd {
    return M.cwiseAbs().rowwise().sum().cwiseInverse();
  });
}

TEST_CASE("L1-Jacobi converges where undamped Jacobi diverges (closed form)") {
  // Blocks [[1, .9, .9], [.9, 1, .9], [.9, .9, 1]]: SPD (eigenvalues 2.8, 0.1,
  // 0.1), D = I, so Jacobi's error propagator I - A has eigenvalue -1.8; the
  // L1 diagonal is 2.8, so I - A / 2.8 has eigenvalues 0 and 27/28.
  const index_t blocks = 50, n = 3 * blocks;
  HostCsr h{n, n, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) {
    const index_t b0 = i - i % 3;
    for (index_t j = b0; j < b0 + 3; ++j) h.col.push_back(j), h.val.push_back(i == j ? 1.0 : 0.9);
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  const CsrMatrix A = from_host_csr(h, Space::host);
  const Vector dinv = inverse_diagonal(A);
  std::mt19937_64 rng(fresh_seed());
  const Vector e0 = random_vector(n, rng(), Space::host);
  auto error_after = [&](const char* name, double omega) {
    const auto s = smoothers().create(Component(name, Options().set("omega", omega)), Space::host,
                                      SmootherLevel{A, dinv, 2.8});
    Vector x = e0.clone();
    s->smooth(Vector::zeros(n, Space::host), x, 30, false);  // A x = 0: x is the error
    return norm2(x) / norm2(e0);
  };
  CHECK(error_after("l1_jacobi", 1.0) < std::pow(27.0 / 28.0, 30) * 1.0001);
  CHECK(error_after("jacobi", 1.0) > 1e6);  // |-1.8|^30
}
