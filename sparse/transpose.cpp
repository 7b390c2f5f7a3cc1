#include "sparse/transpose.hpp"

#include <algorithm>

#include "core/dispatch.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

namespace saga {

CsrMatrix transpose(const CsrMatrix& A) {
  if (A.space() == Space::host) return host::transpose(A);
  SAGA_DEVICE_CALL(return cuda::transpose(A));
}

namespace {
// V: the values' type (a single-precision matrix's transpose is too).
template <class V>
CsrMatrix transpose_blocks(const CsrMatrix& A, int blocks) {
  const Space s = A.space();
  const index_t n = A.cols();  // the transpose's rows
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, s, "transpose row pointers");
  Array<index_t> col(A.nnz(), s, "transpose columns");
  Array<V> val(A.nnz(), s, "transpose values");
  offset_t done = 0;  // entries written
  for (int b = 0; b < blocks; ++b) {
    const index_t c0 = static_cast<index_t>(static_cast<std::int64_t>(n) * b / blocks);
    const index_t c1 = static_cast<index_t>(static_cast<std::int64_t>(n) * (b + 1) / blocks);
    const auto [f0, f1] = row_span_of_columns(A, c0, c1);
    // Rows [c0, c1) of the transpose, their columns counted from f0 (none: all empty).
    const CsrMatrix T = f1 < f0 ? CsrMatrix::zeros(c1 - c0, 1, s)
                                : transpose(column_block(row_block(A, f0, f1 + 1, 0, -1, true), c0, c1));
    parallel_for(s, static_cast<std::int64_t>(c1 - c0) + 1,
                 functors::RebaseRowPtr{T.row_ptr().data(), rp.data() + c0, done});
    if (T.nnz() > 0) {
      parallel_for(s, T.nnz(), functors::ShiftColumns{T.col().data(), col.data() + done, -f0});
      parallel_for(s, T.nnz(), functors::CopyValuesOf<V>{stored_values<V>(T).data(), val.data() + done});
    }
    done += T.nnz();
  }
  return CsrMatrix(n, A.rows(), std::move(rp), std::move(col), std::move(val));
}
}  // namespace

CsrMatrix transpose_in_blocks(const CsrMatrix& A, int blocks) {
  if (blocks <= 1 || A.cols() < 2) return transpose(A);
  blocks = std::min<index_t>(blocks, A.cols());
  return A.single_precision() ? transpose_blocks<float>(A, blocks) : transpose_blocks<double>(A, blocks);
}

}  // namespace saga
