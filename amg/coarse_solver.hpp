#pragma once
// Direct solvers of the coarsest level, behind the coarse-solver registry
// (amg.coarse_solver). Both factorise A_c densely and keep its inverse as a
// dense CSR matrix in the level's space, so applying it is one SpMV on either
// backend:
//   dense_cholesky  SPD (on the GPU a Gauss-Jordan inverse, amg/coarse_cholesky.hpp;
//                   on the host Eigen LLT). When A_c is only semi-definite (a pure
//                   Neumann problem, a floating body) its pseudo-inverse: the
//                   same Cholesky inverse of A_c shifted along the null space
//                   that its near-nullspace spans (amg/coarse_null_space.hpp),
//                   else an eigen-decomposition on the host;
//   dense_lu        any nonsingular A_c (Eigen partial-pivoting LU), for
//                   nonsymmetric problems.
#include "core/registry.hpp"
#include "sparse/csr.hpp"

namespace saga::amg {

struct CoarseSolver {
  CsrMatrix inverse;
  bool pseudo_inverse = false;
  // The pseudo-inverse came from a Cholesky inverse shifted along this many
  // null directions of the near-nullspace (0 with pseudo_inverse: from the
  // host eigen-decomposition).
  int null_space_columns = 0;
  // Those directions (rows x null_space_columns, column-major, orthonormal, in
  // the inverse's space), for the next factorisation of a matrix with new
  // values (CoarseProblem::previous), and whether this one reused them.
  Array<double> null_space;
  bool reused_null_space = false;
  std::string name;  // the component that made it
};

// What a coarse solver factorises: the coarsest matrix and, where known, its
// near-nullspace (rows x columns, row-major, in A's space), which spans the
// null space of a semi-definite coarse matrix of smoothed aggregation.
struct CoarseProblem {
  const CsrMatrix& A;
  const Vector* near_nullspace = nullptr;
  int nullspace_columns = 0;
  // The last factorisation of this level (a resetup: the same pattern, new
  // values): null directions it shifted out are tried first.
  const CoarseSolver* previous = nullptr;
};

using CoarseSolverRegistry = Registry<CoarseSolver, const CoarseProblem&>;
const CoarseSolverRegistry& coarse_solvers();

// The coarse solver `c` of A (on A's space); B (rows x k, row-major) its
// near-nullspace where known.
CoarseSolver factorise_coarse(const CsrMatrix& A, const Component& c = "dense_cholesky", const Vector* B = nullptr,
                              int k = 0, const CoarseSolver* previous = nullptr);

}  // namespace saga::amg
