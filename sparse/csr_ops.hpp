#pragma once
// Element-wise CSR operations the AMG setup needs, on either backend.
#include <utility>
#include <vector>

#include "sparse/csr.hpp"

namespace saga {

// The diagonal of a square matrix. With require_positive, a missing, zero,
// negative or non-finite diagonal entry is an InputError naming the row.
Vector diagonal(const CsrMatrix& A, bool require_positive, const char* name = "matrix");
// 1 / diagonal (require_positive implied).
Vector inverse_diagonal(const CsrMatrix& A, const char* name = "matrix");
// d[i] = Σ_j |a_ij|, in A's space.
Vector row_abs_sums(const CsrMatrix& A);
// A(i, :) *= d[i]
void scale_rows(CsrMatrix& A, const Vector& d);
// C = alpha A + beta B (same shape; structure is the union, entries are kept
// even when they cancel).
CsrMatrix add(double alpha, const CsrMatrix& A, double beta, const CsrMatrix& B);
// Index of the first non-zero flag, or -1.
std::int64_t first_flagged(const Array<std::int32_t>& flags);
// How many flags are non-zero (flags of 0 and 1; one scan; one value read back).
std::int64_t count_flagged(const Array<std::int32_t>& flags);
// Σ a[i] (one scan; one value read back; the sum must fit 32 bits).
std::int64_t total(const Array<std::int32_t>& a);
// First row whose pattern (row_ptr and columns) differs between A and B, or -1
// (same shape and space).
std::int64_t first_pattern_difference(const CsrMatrix& A, const CsrMatrix& B);
// A matrix's first non-finite entry as an InputError naming `what`, the row and
// the column (a host copy, on this error path only); nothing where every
// value is finite.
void require_finite(const CsrMatrix& A, const char* what);
// A resetup's new matrix A against the one set up (old): the same space, shape
// and pattern, finite values; else an InputError naming what differs, with
// `holder` (what was set up: "hierarchy", "solver") in its words.
void require_resetup_matrix(const CsrMatrix& old, const CsrMatrix& A, const char* holder);
// A matrix to set up for (a hierarchy, a solver): square, not empty, finite
// values; else an InputError saying what `who` needs.
void require_system_matrix(const CsrMatrix& A, const char* who);

// Rows [r0, r1) of A as a matrix of their own, with columns [c0, c0 + cols) of
// A as its columns 0..cols-1 (cols -1: A's columns from c0 on). Every entry of
// those rows must lie in that column range (InputError otherwise). With
// share_entries and c0 = 0, the block's columns and values are views of A's
// (only its row pointers are new): A must outlive it unchanged.
CsrMatrix row_block(const CsrMatrix& A, index_t r0, index_t r1, index_t c0 = 0, index_t cols = -1,
                    bool share_entries = false);
// The matrices one under the other (same column count and space): rows of
// blocks[0], then blocks[1], ... Each block is freed once it is copied. The
// values in the blocks' precision (all double or all single).
CsrMatrix stack_rows(std::vector<CsrMatrix> blocks);
// dst[k] = A's values, k in [0, nnz(A)) (dst in A's space).
void copy_values(const CsrMatrix& A, double* dst);
// The smallest and the largest column of rows [r0, r1) of A ({0x7fffffff, -1}
// when those rows are empty): one pass over their bounds, two values read back.
std::pair<index_t, index_t> column_span(const CsrMatrix& A, index_t r0, index_t r1);
// The first and the last row of A with an entry in columns [c0, c1) ({0x7fffffff,
// -1} when none): the column span of rows [c0, c1) of A's transpose, without it.
std::pair<index_t, index_t> row_span_of_columns(const CsrMatrix& A, index_t c0, index_t c1);
// A's entries in columns [c0, c1) as a rows(A) x (c1 - c0) matrix (columns
// shifted by -c0): with row_block and transpose, a block of A's transpose
// (rows [c0, c1) of Aᵀ) without the whole transpose.
CsrMatrix column_block(const CsrMatrix& A, index_t c0, index_t c1);

}  // namespace saga
