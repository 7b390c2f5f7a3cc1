// Host transpose: count entries per column, scan, scatter rows in order (so
// the result's columns come out sorted).
#include <numeric>

#include "sparse/host/kernels.hpp"

namespace saga::host {

namespace {
// V: the values' type (float for a matrix stored in single precision).
template <class V>
CsrMatrix transpose_of(const CsrMatrix& A) {
  const offset_t* rp = A.row_ptr().data();
  const index_t* ci = A.col().data();
  const V* v = stored_values<V>(A).data();
  Array<offset_t> row_ptr = Array<offset_t>::zeros(static_cast<std::size_t>(A.cols()) + 1, Space::host, "transpose row_ptr");
  for (offset_t k = 0; k < A.nnz(); ++k) ++row_ptr[ci[k] + 1];
  std::partial_sum(row_ptr.data(), row_ptr.data() + A.cols() + 1, row_ptr.data());
  Array<index_t> col(A.nnz(), Space::host, "transpose col");
  Array<V> val(A.nnz(), Space::host, "transpose val");
  std::vector<offset_t> next(row_ptr.data(), row_ptr.data() + A.cols());
  for (index_t i = 0; i < A.rows(); ++i)
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) {
      const offset_t p = next[ci[k]]++;
      col[p] = i;
      val[p] = v[k];
    }
  return CsrMatrix(A.cols(), A.rows(), std::move(row_ptr), std::move(col), std::move(val));
}
}  // namespace

CsrMatrix transpose(const CsrMatrix& A) {
  return A.single_precision() ? transpose_of<float>(A) : transpose_of<double>(A);
}

}  // namespace saga::host
