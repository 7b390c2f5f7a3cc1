#pragma once
// The null space of a semi-definite coarsest matrix, found inside its
// near-nullspace, so that its pseudo-inverse comes from a Cholesky inverse
// instead of an eigen-decomposition.
//
// A pure Neumann problem, a graph Laplacian without shift or a floating
// elastic body has a singular A whose null space the near-nullspace B spans
// (A B = 0). Smoothed aggregation carries that to every level: T B_c = B and
// P = (I - ω D⁻¹ A) T, so P B_c = B and A_c B_c = Pᵀ A B = 0. With Z an
// orthonormal basis of null(A_c) and any α > 0, A_c + α Z Zᵀ is positive
// definite, and
//   (A_c + α Z Zᵀ)⁻¹ = A_c⁺ + (1/α) Z Zᵀ,
// so the pseudo-inverse is a Cholesky inverse minus a rank-r correction: the
// GPU's Gauss-Jordan inverse (or Eigen's LLT) instead of the host's dense
// eigen-decomposition (0.15 s at 500 rows, 0.44 s at 800).
#include <vector>

#include <Eigen/Dense>

#include "sparse/csr.hpp"

namespace saga::amg {

// Relative size below which a direction counts as null: zᵀ A z <= this times
// ‖A‖∞ for a unit z (the threshold of the eigen-decomposition path, relative
// to the largest eigenvalue, which ‖A‖∞ bounds from above).
inline constexpr double kNullRelative = 1e-12;

// The smallest Cholesky pivot, relative to its row's diagonal, above which an
// inverse is trusted without asking whether A is singular: a singular matrix's
// last pivot is rounding and may come out positive (2D 5-pt Neumann coarsest
// matrices of 88 and 187 rows: 3.8e-13 and 4.9e-13, above the 1e-13 that the
// device's pivot test alone used to accept), while the coarse matrices of SPD
// problems keep theirs far above (1e-3..0.9 on the seed, FE and variant
// configs, 2.8e-2 with the checkerboard's 10^6 contrast; `saga -v` logs it).
// Below it, a positive definite matrix without null directions in its
// near-nullspace (a condition number past ~1e9) takes the eigen-decomposition:
// slower, the same inverse.
inline constexpr double kSuspectPivot = 1e-9;

struct CoarseNullSpace {
  Eigen::MatrixXd Z;   // n x r, orthonormal columns (r = 0: none found)
  double alpha = 0;    // the shift: A's mean diagonal (so A + α Z Zᵀ keeps A's scale)
  int columns() const { return static_cast<int>(Z.cols()); }
};

// The directions of span(B) (B: n x k, row-major) that A annihilates to
// rounding: an orthonormal basis Q of span(B) (dependent columns dropped), the
// eigenvectors V of the k x k matrix Qᵀ A Q whose eigenvalues are within
// kNullRelative ‖A‖∞ of zero, Z = Q V. An indefinite direction (a clearly
// negative eigenvalue) is not null: it stays out, and the matrix fails its
// Cholesky as before.
CoarseNullSpace null_space_in(const HostCsr& A, const std::vector<double>& B, int k);

}  // namespace saga::amg
