#include "amg/coarse_solver.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <spdlog/spdlog.h>

namespace saga::amg {

CoarseSolver factorise_coarse(const CsrMatrix& A) {
  SAGA_REQUIRE(A.rows() == A.cols(), "coarse solver: matrix is {}x{}, not square", A.rows(), A.cols());
  const index_t n = A.rows();
  SAGA_REQUIRE(n <= 20000, "coarsest level has {} rows, too many for the dense direct solver (raise max_levels "
               "or lower coarse_size)", n);
  const HostCsr h = to_host_csr(A);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (index_t i = 0; i < n; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) M(i, h.col[k]) = h.val[k];
  CoarseSolver cs;
  Eigen::MatrixXd inv;
  Eigen::LLT<Eigen::MatrixXd> llt(M);
  if (llt.info() == Eigen::Success) {
    inv = llt.solve(Eigen::MatrixXd::Identity(n, n));
  } else {
    // Semi-definite (e.g. a pure Neumann problem): pseudo-inverse.
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M);
    const Eigen::VectorXd ev = es.eigenvalues();
    const double tol = 1e-12 * ev.cwiseAbs().maxCoeff();
    SAGA_REQUIRE(ev.minCoeff() > -1e-8 * ev.cwiseAbs().maxCoeff(),
                 "coarsest matrix ({} rows) is indefinite (eigenvalue {:.3e}): is A symmetric positive definite?", n,
                 ev.minCoeff());
    Eigen::VectorXd d = ev.unaryExpr([tol](double x) { return x > tol ? 1.0 / x : 0.0; });
    inv = es.eigenvectors() * d.asDiagonal() * es.eigenvectors().transpose();
    cs.pseudo_inverse = true;
    spdlog::warn("coarsest matrix is singular; using its pseudo-inverse");
  }
  HostCsr out{n, n, std::vector<offset_t>(static_cast<std::size_t>(n) + 1), {}, {}};
  out.col.resize(static_cast<std::size_t>(n) * n);
  out.val.resize(static_cast<std::size_t>(n) * n);
  for (index_t i = 0; i < n; ++i) {
    out.row_ptr[i + 1] = static_cast<offset_t>((i + 1) * static_cast<std::int64_t>(n));
    for (index_t j = 0; j < n; ++j) {
      out.col[static_cast<std::size_t>(i) * n + j] = j;
      out.val[static_cast<std::size_t>(i) * n + j] = inv(i, j);
    }
  }
  cs.inverse = from_host_csr(out, A.space());
  return cs;
}

}  // namespace saga::amg
