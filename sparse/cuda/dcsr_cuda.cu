// Device side of DcsrMatrix (sparse/dcsr.cpp): the shared per-row functors'
// instantiations, the row order of a length-ordered defragmentation, the SpMV
// over fragmented rows and the compaction, V lanes per row.
#include <type_traits>

#include "core/parallel_for.cuh"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"
#include "sparse/dcsr_functors.hpp"

SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrFromCsr)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrBlank)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrInsertRow)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrEraseRow)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrSpmvRow)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrScatterStarts)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrGatherSizes)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrOneSegment)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrRowsLeft)

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

// V lanes per row copy its runs: consecutive lanes write consecutive entries.
template <int V>
__global__ void dcsr_compact_kernel(index_t rows, functors::DcsrCompact f) {
  const std::int64_t row = global_thread() / V;
  if (row < rows) f.copy(row, static_cast<int>(threadIdx.x % V), V);
}

template <int V>
void launch_compact(const functors::DcsrCompact& f, index_t rows) {
  dcsr_compact_kernel<V><<<grid_for(static_cast<std::int64_t>(rows) * V), kThreads, 0, ::saga::device_stream()>>>(rows,
                                                                                                                   f);
  SAGA_CUDA_LAUNCH("dcsr_compact_kernel");
}

// The lanes per row for rows whose runs hold `mean_run` entries on average.
template <class Launch>
void by_run_length(double mean_run, Launch&& launch) {
  if (mean_run <= 2)
    launch(std::integral_constant<int, 2>{});
  else if (mean_run <= 4)
    launch(std::integral_constant<int, 4>{});
  else if (mean_run <= 8)
    launch(std::integral_constant<int, 8>{});
  else if (mean_run <= 16)
    launch(std::integral_constant<int, 16>{});
  else
    launch(std::integral_constant<int, 32>{});
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

void dcsr_spmv(const functors::DcsrSpmvRow& f, index_t rows, double mean_run_length) {
  if (rows == 0) return;
  by_run_length(mean_run_length, [&](auto v) { launch_vector<decltype(v)::value>(f, rows); });
}

void dcsr_compact(const functors::DcsrCompact& f, index_t rows, double mean_run_length) {
  if (rows == 0) return;
  by_run_length(mean_run_length, [&](auto v) { launch_compact<decltype(v)::value>(f, rows); });
}

}  // namespace saga::cuda
