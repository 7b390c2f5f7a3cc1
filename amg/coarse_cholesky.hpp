#pragma once
// The GPU's dense inverse of an SPD coarsest matrix (blocked Gauss-Jordan, all
// block steps in one cooperative kernel), used by the dense_cholesky coarse
// solver when the level lives on the device.
#include "sparse/csr.hpp"

namespace saga::amg::cuda {

// A + α Z Zᵀ inverted instead of A, and (1/α) Z Zᵀ subtracted from the
// inverse: with Z an orthonormal basis of a semi-definite A's null space, the
// result is A's pseudo-inverse (amg/coarse_null_space.hpp). Z column-major
// n x columns on the device; columns 0: A itself.
struct LowRankShift {
  const double* Z = nullptr;
  int columns = 0;
  double alpha = 0;
};

struct DeviceInverse {
  bool positive_definite = false;  // every pivot clearly positive: `inverse` was written
  double min_pivot_ratio = 0;      // the smallest pivot over its row's diagonal (amg::kSuspectPivot)
};

// inverse = A^-1 (or the shifted form above) as a dense CSR matrix on the
// device; left alone where a pivot is not clearly positive. cooperative false:
// the launched block steps (the fallback where a cooperative kernel cannot
// run; the same arithmetic).
DeviceInverse cholesky_inverse(const CsrMatrix& A, CsrMatrix& inverse, bool cooperative = true,
                               const LowRankShift& shift = {});
}  // namespace saga::amg::cuda
