#pragma once
// Tentative prolongator from the aggregates and the near-nullspace B (n x k,
// row-major; default the constant vector): B restricted to each aggregate is
// orthonormalised by a small QR; Q gives T (n x aggregates*k, orthonormal
// columns), R gives the coarse near-nullspace Bc, so that T Bc = B.
#include "amg/aggregation.hpp"

namespace saga::amg {

struct Tentative {
  CsrMatrix T;
  Vector Bc;  // (aggregates*k) x k, row-major
};

Tentative tentative_prolongator(const Aggregates& aggregates, const Vector& B, int k);

}  // namespace saga::amg
