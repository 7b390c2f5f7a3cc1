#pragma once
// The GPU's dense inverse of an SPD coarsest matrix (Gauss-Jordan, one kernel
// per pivot), used by the dense_cholesky coarse solver when the level lives on
// the device.
#include "sparse/csr.hpp"

namespace saga::amg::cuda {
// inverse = A^-1 as a dense CSR matrix on the device. Returns false (and leaves
// inverse alone) when A is not positive definite.
bool cholesky_inverse(const CsrMatrix& A, CsrMatrix& inverse);
}  // namespace saga::amg::cuda
