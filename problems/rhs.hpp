#pragma once
// Right-hand sides: b = A x* with a seeded random x* (so the error is
// measurable), or b = 1.
#include <cstdint>

#include "sparse/csr.hpp"

namespace saga {

// x* uniform in [0, 1), from a fixed generator (the same on every platform and
// backend for the same seed), in `space`.
Vector random_vector(std::size_t n, std::uint64_t seed, Space space);
Vector ones(std::size_t n, Space space);

struct ManufacturedSystem {
  Vector x_star;
  Vector b;
};
// x* random (seeded), b = A x*.
ManufacturedSystem rhs_from_random_solution(const CsrMatrix& A, std::uint64_t seed);

}  // namespace saga
