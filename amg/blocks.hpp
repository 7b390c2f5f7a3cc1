#pragma once
// Blocks of unknowns that aggregation keeps together (the dim displacements of
// an elasticity node; on coarse levels the columns of one aggregate). The
// strength graph is built on nodes: entry (I, J) of the node matrix is the
// Frobenius norm of A's block (I, J) (PyAMG's amalgamation of a BSR matrix),
// the nodes are aggregated, and each unknown joins its node's aggregate.
#include "amg/aggregation.hpp"
#include "sparse/spgemm.hpp"

namespace saga::amg {

// Node of each unknown for interleaved blocks of b (node i/b).
Array<index_t> interleaved_nodes(index_t rows, int b, Space s);
// Indicator matrix (rows = of.size(), cols): row i has a 1 in column of[i], or
// no entry where of[i] < 0.
CsrMatrix indicator_matrix(const Array<index_t>& of, index_t cols);
// C (nodes x nodes), c_IJ = sqrt(sum of a_ij^2 over i in I, j in J) =
// sqrt(N^T (A.^2) N) with N the unknown-to-node indicator: two products.
CsrMatrix node_matrix(const CsrMatrix& A, const Array<index_t>& node_of, index_t nodes,
                      const SpgemmAlgorithm& product);
// Aggregates of the unknowns from those of the nodes.
Aggregates unknowns_aggregates(const Aggregates& of_nodes, const Array<index_t>& node_of);

}  // namespace saga::amg
