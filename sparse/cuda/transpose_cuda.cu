// Device transpose: a stable radix sort of the entries by column alone (32-bit
// keys over the bits the column count needs, the entry's position as the
// value). The entries arrive in row order, so stability leaves each column's
// entries in row order: the transpose's rows come out sorted, deterministically.
// The rows and values are then gathered through the permutation. (The earlier
// (column, row) 64-bit key sort moved 4x the bytes: docs/spgemm.md.)
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {
// `lanes` threads per row (about the mean row length, a power of two <= 32):
// the row of every entry, and the entry's own position. (A warp per row left
// 28 of 32 lanes idle on a prolongator's rows of 3-4 entries: 180 us for the
// 7M entries of P at 3D 7-pt N=128 on the H100.)
__global__ void entry_rows(const offset_t* rp, index_t rows, int lanes, index_t* row_of, std::int32_t* position) {
  const std::int64_t row = global_thread() / lanes;
  const int lane = threadIdx.x % lanes;
  if (row >= rows) return;
  for (offset_t k = rp[row] + lane; k < rp[row + 1]; k += lanes) {
    row_of[k] = static_cast<index_t>(row);
    position[k] = k;
  }
}

// Row pointers of the transpose from its sorted row indices (= A's columns),
// and the gathered columns (= A's rows) and values.
// (V: the values' type, float for a matrix stored in single precision.)
template <class V>
__global__ void assemble(const std::uint32_t* sorted_col, const std::int32_t* perm, std::int64_t n, index_t cols,
                         const index_t* row_of, const V* val_in, offset_t* row_ptr, index_t* col_out,
                         V* val_out) {
  for (std::int64_t p = global_thread(); p <= n; p += grid_stride()) {
    const std::int64_t c = p < n ? static_cast<std::int64_t>(sorted_col[p]) : cols;
    const std::int64_t prev = p == 0 ? -1 : static_cast<std::int64_t>(sorted_col[p - 1]);
    for (std::int64_t r = prev + 1; r <= c; ++r) row_ptr[r] = static_cast<offset_t>(p);
    if (p < n) {
      col_out[p] = row_of[perm[p]];
      val_out[p] = val_in[perm[p]];
    }
  }
}
}  // namespace

CsrMatrix transpose(const CsrMatrix& A) {
  const std::size_t n = A.nnz();
  Array<index_t> row_of(n, Space::device, "transpose entry rows");
  Array<std::int32_t> position(n, Space::device, "transpose entry positions");
  if (A.rows()) {
    const int lanes = lanes_for(static_cast<double>(n) / A.rows(), 1);
    entry_rows<<<grid_for(static_cast<std::int64_t>(A.rows()) * lanes), kThreads, 0, ::saga::device_stream()>>>(
        A.row_ptr().data(), A.rows(), lanes, row_of.data(), position.data());
    SAGA_CUDA_LAUNCH("transpose entry rows");
  }
  Array<std::uint32_t> sorted_col(n, Space::device, "transpose sorted columns");
  Array<std::int32_t> perm(n, Space::device, "transpose permutation");
  // Column indices are non-negative: their bits read as unsigned are the same.
  prim::sort_pairs(reinterpret_cast<const std::uint32_t*>(A.col().data()), sorted_col.data(), position.data(),
                   perm.data(), n, prim::bits_for(A.cols()));
  Array<offset_t> row_ptr(static_cast<std::size_t>(A.cols()) + 1, Space::device, "transpose row_ptr");
  Array<index_t> col(n, Space::device, "transpose col");
  auto finish = [&](auto value) {  // the values in A's storage
    using V = decltype(value);
    Array<V> val(n, Space::device, "transpose val");
    assemble<V><<<grid_for(static_cast<std::int64_t>(n) + 1), kThreads, 0, ::saga::device_stream()>>>(
        sorted_col.data(), perm.data(), static_cast<std::int64_t>(n), A.cols(), row_of.data(),
        stored_values<V>(A).data(), row_ptr.data(), col.data(), val.data());
    SAGA_CUDA_LAUNCH("transpose assemble");
    return CsrMatrix(A.cols(), A.rows(), std::move(row_ptr), std::move(col), std::move(val));
  };
  return A.single_precision() ? finish(float()) : finish(double());
}

}  // namespace saga::cuda
