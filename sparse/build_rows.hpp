#pragma once
// build_csr_two_pass: builds a CSR matrix row by row with one functor run
// twice through parallel_for. In the count pass (out_rp == nullptr) the functor
// writes the length of row i to count[i]; in the fill pass it writes row i at
// out_col/out_val + out_rp[i]. The functor has those four members.
#include "core/parallel_for.hpp"
#include "sparse/csr.hpp"
#include "sparse/scan.hpp"

namespace saga {

// V: the values' type (float: a matrix stored in single precision).
template <class F, class V = double>
CsrMatrix build_csr_two_pass(Space s, index_t rows, index_t cols, F f, const char* what) {
  Array<offset_t> count(rows, s, what);
  f.count = count.data();
  f.out_rp = nullptr;
  parallel_for(s, rows, f);
  Array<offset_t> rp(static_cast<std::size_t>(rows) + 1, s, what);
  exclusive_scan_total(count, rp);
  const offset_t nnz = rp.get(rows);
  Array<index_t> col(nnz, s, what);
  Array<V> val(nnz, s, what);
  f.out_rp = rp.data();
  f.out_col = col.data();
  f.out_val = val.data();
  parallel_for(s, rows, f);
  return CsrMatrix(rows, cols, std::move(rp), std::move(col), std::move(val));
}

}  // namespace saga
