#pragma once
// Right-hand sides: b = A x* with a seeded random x* (so the error is
// measurable), or b = 1 (ones() and random_vector() are in sparse/vector_ops).
#include <cstdint>

#include "sparse/csr.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

struct ManufacturedSystem {
  Vector x_star;
  Vector b;
};
// x* uniform in [0, 1) (seeded), b = A x*.
ManufacturedSystem rhs_from_random_solution(const CsrMatrix& A, std::uint64_t seed);

}  // namespace saga
