#include "amg/coarse_solver.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "amg/coarse_cholesky.hpp"
#include "amg/coarse_null_space.hpp"
#include "core/dispatch.hpp"
#include "core/log.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

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

// The Cholesky factor of M is trusted where every pivot (the Schur
// complements' diagonal, L_ii²) stands clearly above rounding against its
// diagonal: a singular matrix's last pivot is rounding and may be positive,
// and Eigen's LLT reports failure only for a pivot <= 0.
bool trusted(const Eigen::LLT<Eigen::MatrixXd>& llt, const Eigen::MatrixXd& M) {
  if (llt.info() != Eigen::Success) return false;
  double ratio = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    ratio = std::min(ratio, llt.matrixLLT()(i, i) * llt.matrixLLT()(i, i) / M(i, i));
  log_info("coarse Cholesky ({} rows): smallest pivot {:.3e} of its diagonal", M.rows(), ratio);
  return ratio >= kSuspectPivot;
}
bool trusted(const cuda::DeviceInverse& d) {
  if (d.positive_definite) log_info("coarse Cholesky (device): smallest pivot {:.3e} of its diagonal", d.min_pivot_ratio);
  return d.positive_definite && d.min_pivot_ratio >= kSuspectPivot;
}

// (A + α Z Zᵀ)⁻¹ − (1/α) Z Zᵀ into `inverse`, on A's backend: the device's
// Gauss-Jordan (M null) or the host's LLT of M, A dense. Z: n x r, column-major,
// in A's space. With Z an orthonormal basis of A's null space this is A's
// pseudo-inverse (amg/coarse_null_space.hpp). False (and `inverse` left alone)
// where the shifted matrix's pivots are not trusted.
bool shifted_inverse(const CsrMatrix& A, const Eigen::MatrixXd* M, const Array<double>& Z, int r, double alpha,
                     CsrMatrix& inverse) {
  if (!M) {
    CsrMatrix shifted;
    cuda::DeviceInverse d;
    SAGA_DEVICE_CALL(d = cuda::cholesky_inverse(A, shifted, true, {Z.data(), r, alpha}));
    if (!trusted(d)) return false;
    inverse = std::move(shifted);
    return true;
  }
  const index_t n = A.rows();
  const std::vector<double> zh = Z.to_vector();  // on the host (A may live on the device)
  const Eigen::Map<const Eigen::MatrixXd> Zm(zh.data(), n, r);
  const Eigen::MatrixXd shifted = *M + alpha * Zm * Zm.transpose();
  Eigen::LLT<Eigen::MatrixXd> llt(shifted);
  if (!trusted(llt, shifted)) return false;
  inverse = to_csr(llt.solve(Eigen::MatrixXd::Identity(n, n)) - (1.0 / alpha) * Zm * Zm.transpose(), A.space());
  return true;
}

// The pseudo-inverse of a semi-definite A whose null space lies in span(B):
// the shifted inverse along the null directions null_space_in finds there.
// False where B spans no null direction or the shifted matrix is still not
// clearly positive definite (A has null directions outside span(B)).
bool shifted_pseudo_inverse(const CoarseProblem& cp, const Eigen::MatrixXd* M, CoarseSolver& cs) {
  const CsrMatrix& A = cp.A;
  const CoarseNullSpace ns = null_space_in(to_host_csr(A), cp.near_nullspace->to_vector(), cp.nullspace_columns);
  if (ns.columns() == 0) return false;
  Array<double> Z = Array<double>::from_vector(std::vector<double>(ns.Z.data(), ns.Z.data() + ns.Z.size()),
                                               A.space(), "coarse null space");
  if (!shifted_inverse(A, M, Z, ns.columns(), ns.alpha, cs.inverse)) return false;
  cs.null_space = std::move(Z);
  cs.pseudo_inverse = true;
  cs.null_space_columns = ns.columns();
  log_warning("coarsest matrix ({} rows) is singular: {} near-nullspace direction(s) span its null space; using "
              "its pseudo-inverse",
              A.rows(), ns.columns());
  return true;
}

// A resetup's shortcut: where the new A still annihilates the null directions
// the previous factorisation shifted out (zᵀAz within kNullRelative of the
// scale of A's row sums, on A's backend: a product and two reductions), A is
// shifted along them at once: one inverse, instead of a plain one that fails, a
// copy of A to the host and the search of null_space_in. False where they are
// not null any more (the caller then takes the full path).
bool reshifted_pseudo_inverse(const CoarseProblem& cp, const Eigen::MatrixXd* M, CoarseSolver& cs) {
  const CsrMatrix& A = cp.A;
  const CoarseSolver& prev = *cp.previous;
  const int r = prev.null_space_columns;
  const index_t n = A.rows();
  if (r <= 0 || n == 0 || prev.null_space.size() != static_cast<std::size_t>(n) * r ||
      prev.null_space.space() != A.space())
    return false;
  const double scale = norm2(row_abs_sums(A));  // between ‖A‖∞ and sqrt(n) ‖A‖∞
  if (!(scale > 0) || !std::isfinite(scale)) return false;
  Vector y(static_cast<std::size_t>(n), A.space(), "coarse null-space check");
  for (int c = 0; c < r; ++c) {
    const Vector z = Vector::view(const_cast<double*>(prev.null_space.data()) + static_cast<std::size_t>(c) * n,
                                  static_cast<std::size_t>(n), A.space());
    spmv(A, z, y);
    if (!(std::abs(dot(z, y)) <= kNullRelative * scale)) return false;
  }
  const double alpha = scale / std::sqrt(static_cast<double>(n));  // about a row's absolute sum
  if (!shifted_inverse(A, M, prev.null_space, r, alpha, cs.inverse)) return false;
  cs.null_space = prev.null_space.clone();
  cs.pseudo_inverse = true;
  cs.null_space_columns = r;
  cs.reused_null_space = true;
  log_info("coarsest matrix ({} rows): the {} null direction(s) of the last factorisation still null; shifted "
           "along them",
           n, r);
  return true;
}

struct DenseCholesky {
  static constexpr const char* name = "dense_cholesky";
  static constexpr const char* summary = "dense Cholesky inverse (pseudo-inverse when semi-definite); SPD";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    bool shift_null_space = true;
    template <class V>
    void visit(V& v) {
      v("shift_null_space", shift_null_space,
        "a semi-definite coarsest matrix: invert it by Cholesky shifted along the null space its near-nullspace "
        "spans (false: the host eigen-decomposition, 10-100x slower)");
    }
  };
  static std::unique_ptr<CoarseSolver> make(const Params& p, const CoarseProblem& cp) {
    const CsrMatrix& A = cp.A;
    SAGA_REQUIRE(A.rows() == A.cols(), "coarse solver: matrix is {}x{}, not square", A.rows(), A.cols());
    auto cs = std::make_unique<CoarseSolver>();
    cs->name = name;
    const index_t n = A.rows();
    // A pivot that fails, or one so small that A may be singular to rounding,
    // asks whether the near-nullspace holds null directions of A; if it does,
    // the shifted inverse is the pseudo-inverse, else the eigen-decomposition
    // decides (it also inverts a positive definite matrix that only looked
    // singular, eigenvalues above 1e-12 of the largest).
    const bool can_shift = p.shift_null_space && cp.near_nullspace && !cp.near_nullspace->empty() &&
                           cp.nullspace_columns > 0;
    const bool reshift = can_shift && cp.previous && cp.previous->null_space_columns > 0;
    std::optional<Eigen::MatrixXd> M;
    if (A.space() == Space::device && n > 0 && n <= 4096) {
      if (reshift && reshifted_pseudo_inverse(cp, nullptr, *cs)) return cs;
      // The device inverse: no host round trip of the matrix unless its pivots
      // ask for the null space.
      cuda::DeviceInverse d;
      SAGA_DEVICE_CALL(d = cuda::cholesky_inverse(A, cs->inverse));
      if (trusted(d)) return cs;
      if (can_shift && shifted_pseudo_inverse(cp, nullptr, *cs)) return cs;
      M = dense(A);
    } else {
      M = dense(A);
      if (reshift && reshifted_pseudo_inverse(cp, &*M, *cs)) return cs;
      Eigen::LLT<Eigen::MatrixXd> llt(*M);
      if (trusted(llt, *M)) {
        cs->inverse = to_csr(llt.solve(Eigen::MatrixXd::Identity(n, n)), A.space());
        return cs;
      }
      if (can_shift && shifted_pseudo_inverse(cp, &*M, *cs)) return cs;
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(*M);
    const Eigen::VectorXd ev = es.eigenvalues();
    const double tol = 1e-12 * ev.cwiseAbs().maxCoeff();
    SAGA_REQUIRE(ev.minCoeff() > -1e-8 * ev.cwiseAbs().maxCoeff(),
                 "coarsest matrix ({} rows) is indefinite (eigenvalue {:.3e}): is A symmetric positive definite? "
                 "(amg.coarse_solver: dense_lu solves nonsymmetric problems)",
                 n, ev.minCoeff());
    const bool singular = ev.minCoeff() <= tol;
    Eigen::VectorXd dinv = ev.unaryExpr([tol](double x) { return x > tol ? 1.0 / x : 0.0; });
    cs->inverse = to_csr(es.eigenvectors() * dinv.asDiagonal() * es.eigenvectors().transpose(), A.space());
    cs->pseudo_inverse = singular;
    if (singular)
      log_warning("coarsest matrix ({} rows) is singular; using its pseudo-inverse (eigen-decomposition)", n);
    return cs;
  }
};

struct DenseLu {
  static constexpr const char* name = "dense_lu";
  static constexpr const char* summary = "dense partial-pivoting LU inverse; any nonsingular matrix";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<CoarseSolver> make(const Params&, const CoarseProblem& cp) {
    const CsrMatrix& A = cp.A;
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

CoarseSolver factorise_coarse(const CsrMatrix& A, const Component& c, const Vector* B, int k,
                              const CoarseSolver* previous) {
  SAGA_REQUIRE(!B || B->empty() || (B->space() == A.space() && B->size() == static_cast<std::size_t>(A.rows()) * k),
               "coarse solver: near-nullspace of {} entries in {} space for {} rows x {} columns", B ? B->size() : 0,
               B && B->space() == Space::device ? "device" : "host", A.rows(), k);
  return std::move(*coarse_solvers().create(c, A.space(), CoarseProblem{A, B, k, previous}));
}

}  // namespace saga::amg
