#pragma once
// Direct solver of the coarsest level: A_c is factorised densely on the host
// (Eigen Cholesky; an eigen-decomposition pseudo-inverse when A_c is only
// semi-definite) and its inverse is kept as a dense CSR matrix in the level's
// space, so applying it is one SpMV on either backend.
#include "sparse/csr.hpp"

namespace saga::amg {

struct CoarseSolver {
  CsrMatrix inverse;
  bool pseudo_inverse = false;
};

CoarseSolver factorise_coarse(const CsrMatrix& A);

}  // namespace saga::amg
