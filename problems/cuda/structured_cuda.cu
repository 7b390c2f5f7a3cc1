// Structured Poisson generator on the device: count each row, scan, fill.
#include "problems/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {
__global__ void count_kernel(StencilSpec s, index_t N, index_t rows, offset_t* counts) {
  for (std::int64_t i = global_thread(); i < rows; i += grid_stride())
    counts[i] = stencil_row(s, N, i, nullptr, nullptr);
}
__global__ void fill_kernel(StencilSpec s, index_t N, index_t rows, const offset_t* rp, index_t* col, double* val) {
  for (std::int64_t i = global_thread(); i < rows; i += grid_stride()) stencil_row(s, N, i, col + rp[i], val + rp[i]);
}
}  // namespace

CsrMatrix poisson(const StencilSpec& s, index_t N, index_t rows) {
  Array<offset_t> counts(rows, Space::device, "Poisson row counts");
  count_kernel<<<grid_for(rows), kThreads, 0, ::saga::device_stream()>>>(s, N, rows, counts.data());
  SAGA_CUDA_LAUNCH("poisson count");
  Array<offset_t> row_ptr(static_cast<std::size_t>(rows) + 1, Space::device, "Poisson row_ptr");
  prim::exclusive_scan_total(counts.data(), row_ptr.data(), rows);
  const offset_t nnz = row_ptr.get(rows);
  Array<index_t> col(nnz, Space::device, "Poisson col");
  Array<double> val(nnz, Space::device, "Poisson val");
  fill_kernel<<<grid_for(rows), kThreads, 0, ::saga::device_stream()>>>(s, N, rows, row_ptr.data(), col.data(), val.data());
  SAGA_CUDA_LAUNCH("poisson fill");
  return CsrMatrix(rows, rows, std::move(row_ptr), std::move(col), std::move(val));
}

}  // namespace saga::cuda
