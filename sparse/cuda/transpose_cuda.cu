// Device transpose: key = (column << row_bits) | row for every entry, stable
// radix sort over those bits, then decode the keys as the transpose's CSR.
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {
__global__ void transpose_keys(const offset_t* rp, const index_t* ci, index_t rows, int row_bits,
                               std::uint64_t* keys) {
  const std::int64_t warp = global_thread() / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  for (offset_t k = rp[warp] + lane; k < rp[warp + 1]; k += 32)
    keys[k] = (static_cast<std::uint64_t>(ci[k]) << row_bits) | static_cast<std::uint64_t>(warp);
}
}  // namespace

CsrMatrix transpose(const CsrMatrix& A) {
  const std::size_t n = A.nnz();
  const int row_bits = prim::bits_for(A.rows());
  const int col_bits = prim::bits_for(A.cols());
  Array<std::uint64_t> keys(n, Space::device, "transpose keys");
  if (A.rows()) {
    transpose_keys<<<grid_for(static_cast<std::int64_t>(A.rows()) * 32), kThreads, 0, ::saga::device_stream()>>>(
        A.row_ptr().data(), A.col().data(), A.rows(), row_bits, keys.data());
    SAGA_CUDA_LAUNCH("transpose_keys");
  }
  Array<std::uint64_t> sorted(n, Space::device, "transpose sorted keys");
  Array<double> val(n, Space::device, "transpose val");
  prim::sort_pairs(keys.data(), sorted.data(), A.val().data(), val.data(), n, row_bits + col_bits);
  Array<offset_t> row_ptr(static_cast<std::size_t>(A.cols()) + 1, Space::device, "transpose row_ptr");
  Array<index_t> col(n, Space::device, "transpose col");
  prim::keys_to_csr(sorted.data(), n, A.cols(), row_bits, 0, row_ptr.data(), col.data());
  return CsrMatrix(A.cols(), A.rows(), std::move(row_ptr), std::move(col), std::move(val));
}

}  // namespace saga::cuda
