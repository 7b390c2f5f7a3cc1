#pragma once
#include "sparse/csr.hpp"

namespace saga {
// B = Aᵀ, in A's memory space, with sorted columns.
CsrMatrix transpose(const CsrMatrix& A);
}  // namespace saga
