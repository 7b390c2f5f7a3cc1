// COO <-> CSR on the device: pack (row, col) into one key, radix sort over the
// bits the indices need, sum duplicates with reduce-by-key, decode keys to CSR.
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {
__global__ void pack_keys(const index_t* r, const index_t* c, std::int64_t n, int col_bits, index_t rows,
                          index_t cols, std::uint64_t* keys, int* bad) {
  for (std::int64_t k = global_thread(); k < n; k += grid_stride()) {
    if (r[k] < 0 || r[k] >= rows || c[k] < 0 || c[k] >= cols) {
      atomicMin(bad, static_cast<int>(k < 0x7fffffff ? k : 0x7fffffff));
      keys[k] = 0;
    } else {
      keys[k] = (static_cast<std::uint64_t>(r[k]) << col_bits) | static_cast<std::uint64_t>(c[k]);
    }
  }
}

__global__ void expand_rows(const offset_t* rp, index_t rows, index_t* out) {
  // One warp per row writes the row index of each of its entries.
  const std::int64_t warp = global_thread() / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  for (offset_t k = rp[warp] + lane; k < rp[warp + 1]; k += 32) out[k] = static_cast<index_t>(warp);
}
}  // namespace

CsrMatrix coo_to_csr(const CooMatrix& coo) {
  const std::size_t n = coo.entries();
  const int col_bits = prim::bits_for(coo.cols);
  const int row_bits = prim::bits_for(coo.rows);
  Array<std::uint64_t> keys(n, Space::device, "COO keys");
  Array<int> bad = Array<int>::from_vector({0x7fffffff}, Space::device, "COO check flag");
  if (n) {
    pack_keys<<<grid_for(n), kThreads, 0, ::saga::device_stream()>>>(coo.row.data(), coo.col.data(), n, col_bits, coo.rows, coo.cols, keys.data(),
                                         bad.data());
    SAGA_CUDA_LAUNCH("pack_keys");
  }
  const int first_bad = bad.get(0);
  if (first_bad != 0x7fffffff) {
    const index_t r = coo.row.get(first_bad), c = coo.col.get(first_bad);
    SAGA_REQUIRE(false, "COO entry {} = ({}, {}) outside the {}x{} matrix", first_bad, r, c, coo.rows, coo.cols);
  }
  Array<std::uint64_t> sorted_keys(n, Space::device, "COO sorted keys");
  Array<double> sorted_vals(n, Space::device, "COO sorted values");
  prim::sort_pairs(keys.data(), sorted_keys.data(), coo.val.data(), sorted_vals.data(), n, row_bits + col_bits);
  // Reuse the input-key buffer and a fresh value buffer for the unique entries.
  Array<double> uvals(n, Space::device, "COO unique values");
  const std::size_t u = prim::reduce_by_key(sorted_keys.data(), sorted_vals.data(), keys.data(), uvals.data(), n);
  Array<offset_t> row_ptr(static_cast<std::size_t>(coo.rows) + 1, Space::device, "CSR row_ptr");
  Array<index_t> col(checked_offset(static_cast<std::int64_t>(u), "COO to CSR result"), Space::device, "CSR col");
  Array<double> val(u, Space::device, "CSR val");
  prim::keys_to_csr(keys.data(), u, coo.rows, col_bits, 0, row_ptr.data(), col.data());
  if (u) SAGA_CUDA(cudaMemcpyAsync(val.data(), uvals.data(), u * sizeof(double), cudaMemcpyDeviceToDevice, ::saga::device_stream()));
  return CsrMatrix(coo.rows, coo.cols, std::move(row_ptr), std::move(col), std::move(val));
}

CooMatrix csr_to_coo(const CsrMatrix& A) {
  CooMatrix coo;
  coo.rows = A.rows();
  coo.cols = A.cols();
  coo.row = Array<index_t>(A.nnz(), Space::device, "COO rows");
  coo.col = A.col().clone();
  coo.val = A.val().clone();
  if (A.rows()) {
    expand_rows<<<grid_for(static_cast<std::int64_t>(A.rows()) * 32), kThreads, 0, ::saga::device_stream()>>>(A.row_ptr().data(), A.rows(),
                                                                                     coo.row.data());
    SAGA_CUDA_LAUNCH("expand_rows");
  }
  return coo;
}

}  // namespace saga::cuda
