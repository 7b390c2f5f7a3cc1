#pragma once
// Direct solvers of the coarsest level, behind the coarse-solver registry
// (amg.coarse_solver). Both factorise A_c densely and keep its inverse as a
// dense CSR matrix in the level's space, so applying it is one SpMV on either
// backend:
//   dense_cholesky  SPD (on the GPU a Gauss-Jordan inverse, amg/coarse_cholesky.hpp;
//                   on the host Eigen LLT; an eigen-decomposition pseudo-inverse
//                   on the host when A_c is only semi-definite, e.g. a pure
//                   Neumann problem);
//   dense_lu        any nonsingular A_c (Eigen partial-pivoting LU), for
//                   nonsymmetric problems.
#include "core/registry.hpp"
#include "sparse/csr.hpp"

namespace saga::amg {

struct CoarseSolver {
  CsrMatrix inverse;
  bool pseudo_inverse = false;
  std::string name;  // the component that made it
};

using CoarseSolverRegistry = Registry<CoarseSolver, const CsrMatrix&>;
const CoarseSolverRegistry& coarse_solvers();

// The coarse solver `c` of A (on A's space).
CoarseSolver factorise_coarse(const CsrMatrix& A, const Component& c = "dense_cholesky");

}  // namespace saga::amg
