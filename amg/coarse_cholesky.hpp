#pragma once
// The GPU's dense inverse of an SPD coarsest matrix (blocked Gauss-Jordan, all
// block steps in one cooperative kernel), used by the dense_cholesky coarse
// solver when the level lives on the device.
#include "sparse/csr.hpp"

namespace saga::amg::cuda {
// inverse = A^-1 as a dense CSR matrix on the device. Returns false (and leaves
// inverse alone) when A is not positive definite. cooperative false: the
// launched block steps (the fallback where a cooperative kernel cannot run;
// the same arithmetic).
bool cholesky_inverse(const CsrMatrix& A, CsrMatrix& inverse, bool cooperative = true);
}  // namespace saga::amg::cuda
