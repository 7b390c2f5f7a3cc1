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
  Array<index_t> coarse_weights;  // constant_tentative_prolongator: the next level's weights
};

Tentative tentative_prolongator(const Aggregates& aggregates, const Vector& B, int k);

// The same for the constant near-nullspace of a scalar problem (k = 1, B = 1
// on the fine level), without member lists or a QR. Each node of a level
// stands for w fine-level nodes (its weight: 1 on the fine level, the sum of
// its members' weights below), and B = sqrt(w) on every level; the QR of one
// column is its normalisation, so T's entry of node i in aggregate g is
// sqrt(w_i) / sqrt(W_g), W_g = sum of the weights in g, and Bc_g = sqrt(W_g).
// The sums are of integers (exact in any order: atomic additions), so two
// passes over the nodes replace the indicator's transpose and the per-
// aggregate QR. On the fine level T and Bc are those of tentative_prolongator
// bit for bit; below, B = sqrt(W) is the exact value where the QR's sum of
// squares rounds. weights: empty = 1 each (the fine level);
// aggregates.unaggregated must count the nodes left out (every aggregation
// method's does; a resetup takes it from Level::aggregates_left_out): with 0
// the rows start at i without a scan, and a node left out regardless gets a
// stored zero in column 0 (the same operator, one entry more).
Tentative constant_tentative_prolongator(const Aggregates& aggregates, const Array<index_t>& weights);

}  // namespace saga::amg
