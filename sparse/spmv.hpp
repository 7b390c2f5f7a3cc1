#pragma once
// Sparse matrix-vector product y = alpha A x + beta y, behind a registry of
// algorithms per memory space so that new kernels (the adaptive-binned SpMV) plug
// in without touching callers. beta = 0 ignores the old contents of y (even NaN).
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace saga {

using SpmvFn = void (*)(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);

// The algorithm used by spmv() in `space` ("" = the default).
void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y,
          const std::string& algorithm = "");
// y = A x
inline void spmv(const CsrMatrix& A, const Vector& x, Vector& y) { spmv(1.0, A, x, 0.0, y); }

void register_spmv(const std::string& name, Space space, SpmvFn fn);
std::vector<std::string> spmv_algorithms(Space space);

}  // namespace saga
