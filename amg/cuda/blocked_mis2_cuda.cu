// Blocked greedy MIS-2 on the GPU (amg/blocked_mis2.hpp): a kernel per colour,
// a warp per block of the colour. The warp keeps its block's covered flags in
// shared memory and walks the block 32 nodes at a time: every lane tests its
// node's closed neighbourhood at once; the lowest lane whose neighbourhood was
// free is a member (the nodes before it in the visit changed nothing it reads),
// the warp covers its neighbourhood, the remaining candidates test again, and
// so on. That is the sequential visit exactly, with one parallel test per
// member instead of one sequential test per node. Flags of nodes outside the
// block live in global memory: another block of the same colour never reads or
// writes them (the colouring), later colours load them when they start.
#include <algorithm>

#include "amg/blocked_mis2.hpp"
#include "core/cuda_check.cuh"
#include "sparse/cuda/launch.cuh"

namespace saga::amg::cuda {

namespace {
using saga::cuda::kThreads;

__global__ void identity_kernel(index_t blocks, std::int32_t* __restrict__ lo, std::int32_t* __restrict__ hi) {
  for (std::int64_t x = saga::cuda::global_thread(); x < blocks; x += saga::cuda::grid_stride())
    lo[x] = hi[x] = static_cast<std::int32_t>(x);
}

// A thread per row: the row's own reach, then the reverse direction entry by
// entry (only where an entry leaves the block: boundary rows). Minima and
// maxima: the same result in any order.
__global__ void intervals_kernel(index_t n, index_t b, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                                 std::int32_t* lo, std::int32_t* hi) {
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride()) {
    const std::int32_t bi = static_cast<std::int32_t>(i / b);
    std::int32_t mn = bi, mx = bi;
    for (offset_t a = rp[i]; a < rp[i + 1]; ++a) {
      const std::int32_t bj = ci[a] / b;
      if (bj == bi) continue;
      mn = min(mn, bj);
      mx = max(mx, bj);
      atomicMin(lo + bj, bi);
      atomicMax(hi + bj, bi);
    }
    if (mn < bi) atomicMin(lo + bi, mn);
    if (mx > bi) atomicMax(hi + bi, mx);
  }
}

__device__ inline index_t reach_of(std::int64_t i, const offset_t* __restrict__ rp, const index_t* __restrict__ ci) {
  return rp[i + 1] > rp[i] ? static_cast<index_t>(ci[rp[i + 1] - 1] - i) : 0;  // sorted rows
}

// reach[0]: the largest reach; then reach[1]: the least of those above half of it.
__global__ void most_reach_kernel(index_t n, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                                  index_t* reach) {
  index_t mine = 0;
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride())
    mine = max(mine, reach_of(i, rp, ci));
  for (int d = 16; d > 0; d /= 2) mine = max(mine, __shfl_down_sync(0xffffffffu, mine, d));
  if (threadIdx.x % 32 == 0 && mine > 0) atomicMax(reach, mine);
}
__global__ void period_kernel(index_t n, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                              index_t* reach) {
  const index_t most = reach[0];
  index_t mine = most;
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride()) {
    const index_t r = reach_of(i, rp, ci);
    if (2 * static_cast<std::int64_t>(r) > most) mine = min(mine, r);
  }
  for (int d = 16; d > 0; d /= 2) mine = min(mine, __shfl_down_sync(0xffffffffu, mine, d));
  if (threadIdx.x % 32 == 0 && mine < most) atomicMin(reach + 1, mine);
}

// Covered flags: the block's as bits in shared memory (several lanes may set
// bits of one word: atomicOr), every other node's as bytes in global memory.
struct BlockFlags {
  unsigned* local;
  volatile unsigned char* global;
  std::int64_t begin, end;
  __device__ bool local_bit(std::int64_t k) const {
    return (static_cast<volatile unsigned*>(local)[(k - begin) / 32] >> ((k - begin) % 32)) & 1u;
  }
  __device__ bool covered(index_t k) const { return k >= begin && k < end ? local_bit(k) : global[k] != 0; }
  __device__ void cover(index_t k) const {
    if (k >= begin && k < end)
      atomicOr(local + (k - begin) / 32, 1u << ((k - begin) % 32));
    else
      global[k] = 1;
  }
};

// Whether node i's closed neighbourhood (its row: [r0, r1) of ci) is free of
// covered nodes. Columns are loaded eight at a time before their flags are
// tested, so that the loads overlap (a row of 27 entries: 4 round trips to L1
// instead of 27).
__device__ inline bool free_node(const BlockFlags& f, std::int64_t i, offset_t r0, offset_t r1,
                                 const index_t* __restrict__ ci) {
  if (f.local_bit(i)) return false;
  constexpr int kBatch = 8;
  for (offset_t a = r0; a < r1; a += kBatch) {
    index_t k[kBatch];
#pragma unroll
    for (int t = 0; t < kBatch; ++t) k[t] = a + t < r1 ? ci[a + t] : -1;
    bool hit = false;
#pragma unroll
    for (int t = 0; t < kBatch; ++t) hit |= k[t] >= 0 && f.covered(k[t]);
    if (hit) return false;
  }
  return true;
}

__device__ inline void prefetch_l1(const void* p) { asm volatile("prefetch.global.L1 [%0];" ::"l"(p)); }

// Row bounds of node i, or an empty row past the block.
struct Rows {
  offset_t r0 = 0, r1 = 0;
};
__device__ inline Rows rows_of(std::int64_t i, std::int64_t end, const offset_t* __restrict__ rp) {
  return i < end ? Rows{rp[i], rp[i + 1]} : Rows{};
}

// The block is walked 32 nodes (a window) at a time. Nothing waits on memory
// but the tests themselves: the row bounds of window w + 2 are loaded, and the
// columns of window w + 1 prefetched into L1, while window w is decided.
__global__ void __launch_bounds__(32) visit_kernel(index_t n, index_t b, const index_t* __restrict__ blocks,
                                                   const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                                                   unsigned char* covered, std::int32_t* __restrict__ in) {
  extern __shared__ unsigned local[];
  constexpr unsigned kAll = 0xffffffffu;
  const int lane = threadIdx.x;
  const std::int64_t begin = static_cast<std::int64_t>(blocks[blockIdx.x]) * b;
  const std::int64_t end = begin + b < n ? begin + b : n;
  const BlockFlags f{local, covered, begin, end};
  for (std::int64_t w = begin; w < end; w += 32)  // flags set by earlier colours
    local[(w - begin) / 32] = __ballot_sync(kAll, w + lane < end && covered[w + lane] != 0);
  __syncwarp();
  Rows now = rows_of(begin + lane, end, rp), next = rows_of(begin + 32 + lane, end, rp);
  for (std::int64_t base = begin; base < end; base += 32) {
    if (next.r1 > next.r0) {
      prefetch_l1(ci + next.r0);
      prefetch_l1(ci + next.r1 - 1);
    }
    const Rows after = rows_of(base + 64 + lane, end, rp);
    const std::int64_t i = base + lane;
    const bool active = i < end;
    unsigned candidates = __ballot_sync(kAll, active && free_node(f, i, now.r0, now.r1, ci));
    while (candidates) {
      const int c = __ffs(candidates) - 1;  // the first free node in visit order is a member
      const std::int64_t root = base + c;
      const offset_t c0 = __shfl_sync(kAll, now.r0, c), c1 = __shfl_sync(kAll, now.r1, c);
      if (lane == c) {
        in[root] = 1;
        f.cover(root);
      }
      for (offset_t a = c0 + lane; a < c1; a += 32) f.cover(ci[a]);
      __syncwarp();
      candidates &= ~(1u << c);
      const bool still = (candidates >> lane & 1u) && free_node(f, i, now.r0, now.r1, ci);
      candidates = __ballot_sync(kAll, still);
    }
    now = next;
    next = after;
  }
  __syncwarp();
  for (std::int64_t k = begin + lane; k < end; k += 32) covered[k] = f.local_bit(k);  // for later colours
}
}  // namespace

index_t row_period(const CsrMatrix& S) {
  if (S.rows() == 0) return 0;
  const cudaStream_t stream = device_stream();
  Array<index_t> reach = Array<index_t>::zeros(2, Space::device, "row period");
  const unsigned grid = saga::cuda::grid_capped(S.rows());
  most_reach_kernel<<<grid, kThreads, 0, stream>>>(S.rows(), S.row_ptr().data(), S.col().data(), reach.data());
  SAGA_CUDA_LAUNCH("row reach");
  SAGA_CUDA(cudaMemcpyAsync(reach.data() + 1, reach.data(), sizeof(index_t), cudaMemcpyDeviceToDevice, stream));
  period_kernel<<<grid, kThreads, 0, stream>>>(S.rows(), S.row_ptr().data(), S.col().data(), reach.data());
  SAGA_CUDA_LAUNCH("row period");
  return reach.get(1);
}

void block_intervals(const CsrMatrix& S, index_t block_size, Array<std::int32_t>& lo, Array<std::int32_t>& hi) {
  const cudaStream_t stream = device_stream();
  const index_t blocks = static_cast<index_t>(lo.size());
  if (blocks == 0) return;
  identity_kernel<<<saga::cuda::grid_capped(blocks), kThreads, 0, stream>>>(blocks, lo.data(), hi.data());
  SAGA_CUDA_LAUNCH("blocked MIS-2 intervals (identity)");
  intervals_kernel<<<saga::cuda::grid_capped(S.rows()), kThreads, 0, stream>>>(
      S.rows(), block_size, S.row_ptr().data(), S.col().data(), lo.data(), hi.data());
  SAGA_CUDA_LAUNCH("blocked MIS-2 intervals");
}

void blocked_mis2(const CsrMatrix& S, const BlockSchedule& schedule, Array<std::int32_t>& in_set) {
  const index_t n = S.rows();
  if (n == 0) return;
  const cudaStream_t stream = device_stream();
  const std::size_t flag_bytes = (static_cast<std::size_t>(schedule.block_size) + 31) / 32 * 4;
  const std::size_t most = static_cast<std::size_t>(saga::cuda::device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  SAGA_REQUIRE(flag_bytes <= most, "blocked MIS-2 block size {} exceeds the {} flags a CTA's shared memory holds",
               schedule.block_size, most * 8);
  if (flag_bytes > 48 * 1024)
    SAGA_CUDA(cudaFuncSetAttribute(visit_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(flag_bytes)));
  Array<unsigned char> covered(n, Space::device, "blocked MIS-2 covered flags");
  SAGA_CUDA(cudaMemsetAsync(covered.data(), 0, static_cast<std::size_t>(n), stream));
  SAGA_CUDA(cudaMemsetAsync(in_set.data(), 0, sizeof(std::int32_t) * static_cast<std::size_t>(n), stream));
  const Array<index_t> order = Array<index_t>::from_vector(schedule.order, Space::device, "blocked MIS-2 order");
  for (int c = 0; c < schedule.colours(); ++c) {
    const index_t first = schedule.colour_start[c], count = schedule.colour_start[c + 1] - first;
    visit_kernel<<<static_cast<unsigned>(count), 32, flag_bytes, stream>>>(
        n, schedule.block_size, order.data() + first, S.row_ptr().data(), S.col().data(), covered.data(),
        in_set.data());
    SAGA_CUDA_LAUNCH("blocked MIS-2 visit");
  }
}

}  // namespace saga::amg::cuda
