#pragma once
// Rows of C = A·B too long for a CTA, formed by a segmented merge (001_…:
// merge path, a fixed number of elements per thread, binary-tree rounds;
// docs/spgemm.md "Long rows by segmented merge"). The binned SpGEMM sends its
// long rows here where B is too wide for the dense accumulators
// (spgemm_dense_rows.hpp), and all of them with `long_rows: merge`.
#include "sparse/csr.hpp"
#include "sparse/spgemm.hpp"

namespace saga::cuda {

// C = A·B, every row of C a segment whose sub-segments are the scaled rows of
// B its entries select:
//   tiles   the segment is cut into tiles of 2048 consecutive products; a CTA
//           expands its tile and sorts it by column (CUB block radix sort,
//           stable): each tile becomes a sorted run;
//   rounds  runs of W products (W = 2048, 4096, ...) are merged in pairs into
//           runs of 2W, a thread per 16 outputs placed by a merge-path search;
//           a segment leaves the rounds once it is one run;
//   contract equal columns of a row are summed in order and written.
// The sorts and merges are stable, so equal columns are summed in the order of
// A's entries: C is bitwise the same run after run, in any row slicing. Rows
// run in slices whose 32 bytes per product fit opt.budget_now() (a row that
// alone exceeds it forms its own slice). Works for any A (tested on short rows
// too). stats: products, nnz_c, slices, budget_bytes, workspace_bytes.
CsrMatrix spgemm_merge_rows(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats);

}  // namespace saga::cuda
