// Device side of DcsrMatrix (sparse/dcsr.cpp): the shared per-row functors'
// instantiations, the row order of a length-ordered defragmentation, and the
// SpMV over fragmented rows.
#include "core/parallel_for.cuh"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"
#include "sparse/dcsr_functors.hpp"

SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrFromCsr)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrBlank)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrCompact)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrInsertRow)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrEraseRow)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrSpmvRow)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrScatterStarts)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrGatherSizes)

namespace saga::cuda {

namespace {
// Sort key of a row: longest first = smallest complement.
__global__ void length_keys_kernel(index_t n, const offset_t* __restrict__ size, std::uint32_t* key, std::int32_t* id) {
  const std::int64_t i = global_thread();
  if (i >= n) return;
  key[i] = 0xffffffffu - static_cast<std::uint32_t>(size[i]);
  id[i] = static_cast<std::int32_t>(i);
}

// A group of V lanes per row walks the row's segments; a shuffle reduction in a
// fixed order (deterministic), y written once.
template <int V>
__global__ void dcsr_vector_kernel(index_t rows, functors::DcsrSpmvRow f) {
  const std::int64_t row = global_thread() / V;
  const int lane = threadIdx.x % V;
  if (row >= rows) return;
  double s = 0.0;
  f.t.for_each_run(row, [&](offset_t a, offset_t n) {
    for (offset_t e = a + lane; e < a + n; e += V) s += f.val[e] * __ldg(f.x + f.col[e]);
    return true;
  });
#pragma unroll
  for (int off = V / 2; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off, V);
  if (lane == 0) f.y[row] = f.beta == 0.0 ? f.alpha * s : f.alpha * s + f.beta * f.y[row];
}

template <int V>
void launch_vector(const functors::DcsrSpmvRow& f, index_t rows) {
  dcsr_vector_kernel<V><<<grid_for(static_cast<std::int64_t>(rows) * V), kThreads, 0, ::saga::device_stream()>>>(rows,
                                                                                                                  f);
  SAGA_CUDA_LAUNCH("dcsr_vector_kernel");
}
}  // namespace

Array<index_t> dcsr_rows_by_length(const Array<offset_t>& size) {
  const index_t n = static_cast<index_t>(size.size());
  Array<std::uint32_t> key(n, Space::device, "DCSR length keys"), key_sorted(n, Space::device, "DCSR length keys");
  Array<std::int32_t> id(n, Space::device, "DCSR row ids");
  Array<index_t> order(n, Space::device, "DCSR row order");
  if (n == 0) return order;
  length_keys_kernel<<<grid_for(n), kThreads, 0, ::saga::device_stream()>>>(n, size.data(), key.data(), id.data());
  SAGA_CUDA_LAUNCH("dcsr length keys");
  prim::sort_pairs(key.data(), key_sorted.data(), id.data(), order.data(), n, 32);
  return order;
}

void dcsr_spmv(const functors::DcsrSpmvRow& f, index_t rows, double mean_row_length) {
  if (rows == 0) return;
  if (mean_row_length <= 2)
    launch_vector<2>(f, rows);
  else if (mean_row_length <= 4)
    launch_vector<4>(f, rows);
  else if (mean_row_length <= 8)
    launch_vector<8>(f, rows);
  else if (mean_row_length <= 16)
    launch_vector<16>(f, rows);
  else
    launch_vector<32>(f, rows);
}

}  // namespace saga::cuda
