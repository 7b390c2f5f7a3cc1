#include "amg/coarse_solver.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "amg/coarse_cholesky.hpp"
#include "core/dispatch.hpp"
#include "core/log.hpp"

namespace saga::amg {

namespace {
Eigen::MatrixXd dense(const CsrMatrix& A) {
  SAGA_REQUIRE(A.rows() == A.cols(), "coarse solver: matrix is {}x{}, not square", A.rows(), A.cols());
  const index_t n = A.rows();
  SAGA_REQUIRE(n <= 20000, "coarsest level has {} rows, too many for the dense direct solver (raise max_levels "
               "or lower coarse_size)", n);
  const HostCsr h = to_host_csr(A);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (index_t i = 0; i < n; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) M(i, h.col[k]) = h.val[k];
  return M;
}

// The dense inverse as a CSR matrix in `space`.
CsrMatrix to_csr(const Eigen::MatrixXd& inv, Space space) {
  const index_t n = static_cast<index_t>(inv.rows());
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
  return from_host_csr(out, space);
}

struct DenseCholesky {
  static constexpr const char* name = "dense_cholesky";
  static constexpr const char* summary = "dense Cholesky inverse (pseudo-inverse when semi-definite); SPD";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<CoarseSolver> make(const Params&, const CsrMatrix& A) {
    SAGA_REQUIRE(A.rows() == A.cols(), "coarse solver: matrix is {}x{}, not square", A.rows(), A.cols());
    auto cs = std::make_unique<CoarseSolver>();
    cs->name = name;
    // On the GPU: the device inverse (n launches of n^2 work each: used up to
    // 4096 rows), no host round trip of the matrix; a matrix that is not
    // positive definite goes to the host path below.
    if (A.space() == Space::device && A.rows() > 0 && A.rows() <= 4096) {
      bool done = false;
      SAGA_DEVICE_CALL(done = cuda::cholesky_inverse(A, cs->inverse));
      if (done) return cs;
    }
    const Eigen::MatrixXd M = dense(A);
    const index_t n = A.rows();
    Eigen::MatrixXd inv;
    Eigen::LLT<Eigen::MatrixXd> llt(M);
    if (llt.info() == Eigen::Success) {
      inv = llt.solve(Eigen::MatrixXd::Identity(n, n));
    } else {
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M);
      const Eigen::VectorXd ev = es.eigenvalues();
      const double tol = 1e-12 * ev.cwiseAbs().maxCoeff();
      SAGA_REQUIRE(ev.minCoeff() > -1e-8 * ev.cwiseAbs().maxCoeff(),
                   "coarsest matrix ({} rows) is indefinite (eigenvalue {:.3e}): is A symmetric positive definite? "
                   "(amg.coarse_solver: dense_lu solves nonsymmetric problems)",
                   n, ev.minCoeff());
      Eigen::VectorXd d = ev.unaryExpr([tol](double x) { return x > tol ? 1.0 / x : 0.0; });
      inv = es.eigenvectors() * d.asDiagonal() * es.eigenvectors().transpose();
      cs->pseudo_inverse = true;
      log_warning("coarsest matrix is singular; using its pseudo-inverse");
    }
    cs->inverse = to_csr(inv, A.space());
    return cs;
  }
};

struct DenseLu {
  static constexpr const char* name = "dense_lu";
  static constexpr const char* summary = "dense partial-pivoting LU inverse; any nonsingular matrix";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<CoarseSolver> make(const Params&, const CsrMatrix& A) {
    const Eigen::MatrixXd M = dense(A);
    Eigen::FullPivLU<Eigen::MatrixXd> rank_check(M);
    SAGA_REQUIRE(rank_check.isInvertible(), "coarsest matrix ({} rows) is singular (rank {}); dense_lu needs a "
                 "nonsingular coarse matrix", A.rows(), rank_check.rank());
    auto cs = std::make_unique<CoarseSolver>();
    cs->name = name;
    cs->inverse = to_csr(Eigen::PartialPivLU<Eigen::MatrixXd>(M).inverse(), A.space());
    return cs;
  }
};
}  // namespace

const CoarseSolverRegistry& coarse_solvers() {
  static const CoarseSolverRegistry r = [] {
    CoarseSolverRegistry reg("coarse solver", "amg.coarse_solver");
    reg.add<DenseCholesky>();
    reg.add<DenseLu>();
    reg.set_default("dense_cholesky");
    return reg;
  }();
  return r;
}

CoarseSolver factorise_coarse(const CsrMatrix& A, const Component& c) {
  return std::move(*coarse_solvers().create(c, A.space(), A));
}

}  // namespace saga::amg
