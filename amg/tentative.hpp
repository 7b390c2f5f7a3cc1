#pragma once
// Tentative prolongator from the aggregates and the near-nullspace B (n x k,
// row-major; default the constant vector): B restricted to each aggregate is
// orthonormalised by a small QR; Q gives T (n x aggregates*k, orthonormal
// columns), R gives the coarse near-nullspace Bc, so that T Bc = B. Columns that
// B cannot span on an aggregate (6 rigid-body modes on two nodes) are dropped,
// so aggregates may have fewer than k coarse unknowns.
#include "amg/aggregation.hpp"

namespace saga::amg {

struct Tentative {
  CsrMatrix T;
  Vector Bc;  // (coarse unknowns) x k, row-major
  Array<index_t> coarse_node;  // k > 1: aggregate of each coarse unknown (the next level's blocks)
  index_t dropped = 0;         // dependent columns left out
};

Tentative tentative_prolongator(const Aggregates& aggregates, const Vector& B, int k);

}  // namespace saga::amg
