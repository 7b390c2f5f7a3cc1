// Device side of DcsrMatrix (sparse/dcsr.cpp): the shared per-row functors'
// instantiations, the row order of a length-ordered defragmentation, the SpMV
// over fragmented rows and the compaction, V lanes per row.
#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <type_traits>

#include "core/parallel_for.cuh"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"
#include "sparse/dcsr_functors.hpp"

SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrFromCsr)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrBlank)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrSetCursor)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::DcsrCompactRowPtr)
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

// Rows longer than this go to a list that whole CTAs work through afterwards,
// so that a hub row of a power-law graph does not hold up its warp (and the
// grid's tail) with V lanes.
constexpr offset_t kLongRow = 4096;
constexpr int kLongThreads = 256;

// The long rows one kernel met: count and list in one device array (the list
// order does not matter: each long row is done by one CTA in a fixed order).
struct LongRows {
  Array<index_t> buf;  // [count, rows...]
  explicit LongRows(std::int64_t entries)
      : buf(Array<index_t>::zeros(static_cast<std::size_t>(2 + entries / kLongRow), Space::device, "DCSR long rows")) {}
  index_t* count() { return buf.data(); }
  index_t* list() { return buf.data() + 1; }
};

// The SpMV's rows too long for their V lanes, in two lists kept with the
// matrix between calls: long rows (over kLongRow entries, a CTA each) and
// medium rows (over kMidRow, a warp each; R-MAT's rows of a few hundred
// entries held up 1-2 lanes). Layout [long count, medium count, long rows...,
// medium rows...]; each call clears the two counts (8 bytes).
constexpr offset_t kMidRow = 64;
struct SpmvRowLists {
  index_t* buf;
  std::size_t long_cap;
  SpmvRowLists(std::int64_t entries, Array<index_t>& kept) {
    long_cap = static_cast<std::size_t>(1 + entries / kLongRow);
    const std::size_t need = 2 + long_cap + static_cast<std::size_t>(1 + entries / kMidRow);
    if (kept.size() < need) kept = Array<index_t>(need, Space::device, "DCSR SpMV row lists");
    buf = kept.data();
    SAGA_CUDA(cudaMemsetAsync(buf, 0, 2 * sizeof(index_t), ::saga::device_stream()));
  }
  __host__ __device__ index_t* long_count() const { return buf; }
  __host__ __device__ index_t* mid_count() const { return buf + 1; }
  __host__ __device__ index_t* long_list() const { return buf + 2; }
  __host__ __device__ index_t* mid_list() const { return buf + 2 + long_cap; }
};

// A (start, end) pair of the segment table, loaded as one vector of the
// offsets' width (the table's pairs are aligned to it: pitch and base are).
using OffsetPair = std::conditional_t<sizeof(offset_t) == 8, longlong2, int2>;

// The first K (start, end) pairs of row i, loaded together (independent
// loads); pairs beyond the row's segment count are empty.
template <int K>
__device__ inline void load_runs(const functors::DcsrRows& t, std::int64_t i, int ns, OffsetPair (&run)[K]) {
#pragma unroll
  for (int s = 0; s < K; ++s) run[s] = s < ns ? *reinterpret_cast<const OffsetPair*>(&t.start(i, s)) : OffsetPair{0, 0};
}

// Calls f(e, w) for the entries e of row i at logical positions w = lane,
// lane + V, ... in segment order (the first K runs unrolled).
template <int V, int K, class F>
__device__ inline void for_lane_entries(const functors::DcsrRows& t, std::int64_t i, int lane, F&& f) {
  const int ns = t.nseg[i];
  offset_t left = t.size[i], w = 0;
  OffsetPair run[K];
  load_runs<K>(t, i, ns, run);
#pragma unroll
  for (int s = 0; s < K; ++s) {
    offset_t n = run[s].y - run[s].x;
    if (n > left) n = left;
    for (offset_t q = lane; q < n; q += V) f(run[s].x + q, w + q);
    left -= n;
    w += n;
  }
  for (int s = K; s < ns && left > 0; ++s) {  // k > K segments
    offset_t n = t.end(i, s) - t.start(i, s);
    if (n > left) n = left;
    for (offset_t q = lane; q < n; q += V) f(t.start(i, s) + q, w + q);
    left -= n;
    w += n;
  }
}

__device__ inline bool take_if_long(const functors::DcsrRows& t, std::int64_t i, int lane, index_t* count,
                                    index_t* list) {
  if (count == nullptr || t.size[i] <= kLongRow) return false;
  if (lane == 0) list[atomicAdd(count, 1)] = static_cast<index_t>(i);
  return true;
}

// SpMV: a group of V lanes per row, a shuffle reduction in a fixed order
// (deterministic), y written once. Rows longer than kMidRow (and than 16 entries
// a lane) are listed for the tail kernel: a warp each, or a CTA past kLongRow.
template <int V>
__global__ void dcsr_vector_kernel(index_t rows, functors::DcsrSpmvRow f, SpmvRowLists lists) {
  const std::int64_t row = global_thread() / V;
  const int lane = threadIdx.x % V;
  if (row >= rows) return;
  const offset_t size = f.t.size[row];
  if (size > kLongRow) {
    if (lane == 0) lists.long_list()[atomicAdd(lists.long_count(), 1)] = static_cast<index_t>(row);
    return;
  }
  if (V < 32 && size > kMidRow && size > 16 * V) {
    if (lane == 0) lists.mid_list()[atomicAdd(lists.mid_count(), 1)] = static_cast<index_t>(row);
    return;
  }
  double s = 0.0;
  for_lane_entries<V, 4>(f.t, row, lane, [&](offset_t e, offset_t) { s += f.val[e] * __ldg(f.x + f.col[e]); });
  // The group's own lanes (a group leaves together: rows past the end, long rows).
  const unsigned group = V == 32 ? 0xffffffffu : ((1u << V) - 1u) << (threadIdx.x % 32 / V * V);
#pragma unroll
  for (int off = V / 2; off > 0; off /= 2) s += __shfl_down_sync(group, s, off, V);
  if (lane == 0) f.y[row] = f.beta == 0.0 ? f.alpha * s : f.alpha * s + f.beta * f.y[row];
}

// SpMV of the listed rows, in one launch (the vector kernel's tail): first the
// long rows, one CTA per row (grid-stride over the list) with a block
// reduction in a fixed order, then the medium rows, one warp per row with a
// shuffle reduction in a fixed order. Each row has one owner: the list order
// (atomics) does not change any sum.
__global__ void dcsr_tail_spmv_kernel(functors::DcsrSpmvRow f, SpmvRowLists lists) {
  using Reduce = cub::BlockReduce<double, kLongThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  const auto finish = [&](index_t row, double s) {
    f.y[row] = f.beta == 0.0 ? f.alpha * s : f.alpha * s + f.beta * f.y[row];
  };
  const index_t long_rows = *lists.long_count();
  for (index_t r = blockIdx.x; r < long_rows; r += gridDim.x) {
    const index_t row = lists.long_list()[r];
    double s = 0.0;
    for_lane_entries<kLongThreads, 4>(f.t, row, threadIdx.x,
                                      [&](offset_t e, offset_t) { s += f.val[e] * __ldg(f.x + f.col[e]); });
    s = Reduce(tmp).Sum(s);
    if (threadIdx.x == 0) finish(row, s);
    __syncthreads();  // tmp is reused by the next row
  }
  const index_t mid_rows = *lists.mid_count();
  const int lane = threadIdx.x % 32;
  const std::int64_t warps = grid_stride() / 32;
  for (std::int64_t r = global_thread() / 32; r < mid_rows; r += warps) {
    const index_t row = lists.mid_list()[r];
    double s = 0.0;
    for_lane_entries<32, 4>(f.t, row, lane, [&](offset_t e, offset_t) { s += f.val[e] * __ldg(f.x + f.col[e]); });
#pragma unroll
    for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) finish(row, s);
  }
}

// Compaction: V lanes per row copy its runs, consecutive lanes writing
// consecutive entries; long rows listed for the CTA kernel.
template <int V>
__global__ void dcsr_compact_kernel(index_t rows, functors::DcsrCompact f, index_t* count, index_t* list) {
  const std::int64_t row = global_thread() / V;
  if (row >= rows) return;
  const int lane = threadIdx.x % V;
  if (take_if_long(f.t, row, lane, count, list)) return;
  for_lane_entries<V, 4>(f.t, row, lane, [&](offset_t e, offset_t w) { f.move(row, e, f.start[row] + w); });
}

__global__ void dcsr_long_compact_kernel(functors::DcsrCompact f, const index_t* count, const index_t* list) {
  for (index_t r = blockIdx.x; r < *count; r += gridDim.x) {
    const index_t row = list[r];
    for_lane_entries<kLongThreads, 4>(f.t, row, threadIdx.x,
                                      [&](offset_t e, offset_t w) { f.move(row, e, f.start[row] + w); });
  }
}

// Lanes per row (lanes_for, launch.cuh) from the mean run length: the
// compaction takes one entry per lane (from 2 lanes), so that the lanes write
// together; the SpMV about four (from 1 lane): it is latency-bound (a row's
// table, then its entries, then x), and fewer lanes per row keep more rows in
// flight (ncu, 3D 7-pt in 2 segments: 8 lanes per row ran at 27% of DRAM
// bandwidth, 70% occupancy).

// launch(std::integral_constant<int, v>{}) for v lanes per row.
template <class Launch>
void with_lanes(int v, Launch&& launch) {
  switch (v) {
    case 1: return launch(std::integral_constant<int, 1>{});
    case 2: return launch(std::integral_constant<int, 2>{});
    case 4: return launch(std::integral_constant<int, 4>{});
    case 8: return launch(std::integral_constant<int, 8>{});
    case 16: return launch(std::integral_constant<int, 16>{});
    default: return launch(std::integral_constant<int, 32>{});
  }
}

// CTAs for the long-row kernels: the list is at most entries / kLongRow long.
unsigned long_grid(std::int64_t entries) {
  return static_cast<unsigned>(std::min<std::int64_t>(1 + entries / kLongRow, 1024));
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

void dcsr_spmv(const functors::DcsrSpmvRow& f, index_t rows, std::int64_t entries, double mean_run_length,
               Array<index_t>& row_lists) {
  if (rows == 0) return;
  const SpmvRowLists lists(entries, row_lists);
  with_lanes(lanes_for(mean_run_length, 4, 1), [&](auto v) {
    constexpr int V = decltype(v)::value;
    dcsr_vector_kernel<V><<<grid_for(static_cast<std::int64_t>(rows) * V), kThreads, 0, ::saga::device_stream()>>>(
        rows, f, lists);
    SAGA_CUDA_LAUNCH("dcsr_vector_kernel");
  });
  // Enough CTAs for the medium rows' warps too (at most entries / kMidRow rows).
  const unsigned tail = static_cast<unsigned>(
      std::min<std::int64_t>(std::max<std::int64_t>(long_grid(entries), 1 + entries / (kMidRow * (kLongThreads / 32))), 1024));
  dcsr_tail_spmv_kernel<<<tail, kLongThreads, 0, ::saga::device_stream()>>>(f, lists);
  SAGA_CUDA_LAUNCH("dcsr_tail_spmv_kernel");
}

void dcsr_compact(const functors::DcsrCompact& f, index_t rows, std::int64_t entries, double mean_run_length) {
  if (rows == 0) return;
  LongRows lr(entries);
  with_lanes(lanes_for(mean_run_length, 1, 2), [&](auto v) {
    constexpr int V = decltype(v)::value;
    dcsr_compact_kernel<V><<<grid_for(static_cast<std::int64_t>(rows) * V), kThreads, 0, ::saga::device_stream()>>>(
        rows, f, lr.count(), lr.list());
    SAGA_CUDA_LAUNCH("dcsr_compact_kernel");
  });
  dcsr_long_compact_kernel<<<long_grid(entries), kLongThreads, 0, ::saga::device_stream()>>>(f, lr.count(), lr.list());
  SAGA_CUDA_LAUNCH("dcsr_long_compact_kernel");
}

}  // namespace saga::cuda
