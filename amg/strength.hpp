#pragma once
// Strength of connection (symmetric): S keeps a_ij when i == j or
// |a_ij| >= theta * sqrt(|a_ii a_jj|), with A's values.
#include "sparse/csr.hpp"

namespace saga::amg {
CsrMatrix symmetric_strength(const CsrMatrix& A, const Vector& diag, double theta);
}
