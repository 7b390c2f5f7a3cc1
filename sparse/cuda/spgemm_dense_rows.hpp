#pragma once
// Rows of C = A·B too long for a CTA's hash set or sort, formed in a dense
// accumulator of B.cols() entries in shared memory (docs/spgemm.md, "Long
// rows"). The binned SpGEMM sends its long rows here when B is narrow: the
// coarse Galerkin products of graphs with hubs (Pᵀ(AP) of an R-MAT Laplacian:
// a million products per row of C, a few thousand columns), where the global
// ESC sorted every product.
#include "sparse/csr.hpp"
#include "sparse/spgemm.hpp"

namespace saga::cuda {

// Whether B's rows can be accumulated densely: 8 bytes of value and a byte of
// flag per column of B in one CTA's shared memory, within what the device lets
// a CTA opt in to (about 25k columns on the H100: 227 KB).
bool dense_rows_fit(index_t b_cols);

// C = A·B with every row of A (each a long row, gathered) cut into chunks of
// consecutive entries; a CTA per chunk adds the scaled rows of B into its
// dense accumulator in the entry order, then each row of C sums its chunks'
// partial rows in chunk order: every sum in an order fixed by the input
// (bitwise the same C run after run). Chunks are sized to fill the GPU; the
// partial rows (9 bytes per column per chunk) are made in row slices within
// opt.budget_now(). stats: slices, workspace_bytes (the largest slice's).
CsrMatrix spgemm_dense_rows(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats);

}  // namespace saga::cuda
