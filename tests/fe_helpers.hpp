#pragma once
// Coefficients of the P1 tests, host and GPU alike.
#include <cstdint>

#include "problems/fe_assembly.hpp"

namespace saga::test {

// kappa constant on each of blocks^d blocks of the unit cube, log-uniform in
// [1, contrast] (seeded).
inline FeCoefficients random_fe_coefficients(std::uint64_t seed, double contrast, int blocks) {
  FeCoefficients k;
  k.field.kind = CoefficientField::Kind::random;
  k.field.contrast = contrast;
  k.field.blocks = blocks;
  k.field.seed = seed;
  return k;
}

}  // namespace saga::test
