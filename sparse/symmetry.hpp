#pragma once
// How far a matrix is from symmetric: the CG family needs A = Aᵀ, and a user's
// file may not be (a general-storage file of a nonsymmetric operator). Checked
// where a matrix of unknown symmetry enters (a Matrix Market file), on a host
// copy: one pass over the entries with a binary search for each transpose.
#include <string>

#include "sparse/csr.hpp"

namespace saga {

struct SymmetryReport {
  bool symmetric = true;
  double max_difference = 0;  // max |a_ij - a_ji| (a missing entry counts as 0)
  double max_entry = 0;       // max |a_ij|
  index_t row = -1, col = -1; // where the largest difference is
  double a_ij = 0, a_ji = 0;
  std::string describe() const;  // "a(3, 7) = -2.5 but a(7, 3) = -1 (...)"
};

// Symmetric when every |a_ij - a_ji| <= rel_tol * max |a|: rounding-level
// asymmetry (from assembly in another order) passes. A must be square.
SymmetryReport check_symmetry(const CsrMatrix& A, double rel_tol = 1e-10);

}  // namespace saga
