#pragma once
#include "sparse/csr.hpp"

namespace saga {
// B = Aᵀ, in A's memory space, with sorted columns; its values stored as A's
// (double, or float for a matrix stored in single precision).
CsrMatrix transpose(const CsrMatrix& A);
// The same matrix, made in `blocks` blocks of its rows (A's columns): each
// block transposes only A's entries in its columns (csr_ops: row_span_of_columns,
// column_block), so the sort's workspace is a block's instead of all of A's,
// and is copied into the result (allocated once). Bitwise the whole transpose.
// The setup forms R = Pᵀ so where the Galerkin product ran in blocks.
CsrMatrix transpose_in_blocks(const CsrMatrix& A, int blocks);
}  // namespace saga
