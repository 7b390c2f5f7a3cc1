#pragma once
// The lexicographically first distance-2 maximal independent set of a graph:
// node i is in the set iff no node j < i within distance 2 is. These are
// exactly the roots greedy aggregation picks when it visits nodes in order
// (PyAMG's "standard" aggregation), so the set is unique: the host computes it
// in one sequential sweep, the GPU by a dataflow kernel in which each node
// waits for the lower-numbered nodes around it (amg/cuda/lexicographic_mis2_cuda.cu).
// Its depth is the longest chain of such waits: a few thousand steps on the
// seed problems (2D 5-point N = 1024: 2217; 3D 7-point N = 128: 593), much
// more on a long 1D chain numbered in order.
#include <cstdint>

#include "sparse/csr.hpp"

namespace saga::amg {

// 1 for members, 0 otherwise; the graph must be symmetric.
Array<std::int32_t> lexicographic_mis2(const CsrMatrix& S);

namespace cuda {
void lexicographic_mis2(const CsrMatrix& S, Array<std::int32_t>& in_set);
}

}  // namespace saga::amg
