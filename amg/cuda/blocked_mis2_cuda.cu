// Blocked greedy MIS-2 on the GPU (amg/blocked_mis2.hpp): a kernel per colour,
// a warp (a CTA of 32 threads) per block of the colour.
//
// Covered flags are bits: n bits in global memory, and in the CTA's shared
// memory the bits of the block and of every node its rows reach (the block
// widened by S's span on both sides, whole 32-bit words, so that word w of
// shared memory is word hb/32 + w of global memory). Every test and every
// cover is then a shared-memory operation. At the end the CTA ORs its words
// into global memory: bits only ever go from 0 to 1, and a block of the same
// colour never reads a bit this one sets (the colouring), so the order of the
// ORs does not matter; later colours load them when they start.
//
// The warp walks the block 32 nodes (a window) at a time. The window's rows
// are one contiguous range of S's columns: staged in shared memory as local
// bit positions with coalesced loads (L1 hits: the range was prefetched while
// the previous window was decided). Every lane tests its node's closed
// neighbourhood; the lowest lane whose neighbourhood was free is a member
// (the nodes before it in the visit changed nothing it reads); the lanes split
// its row to cover it; the remaining candidates test again, and so on. That
// is the sequential visit exactly, with one parallel test per member instead
// of one test per node.
#include <algorithm>
#include <climits>

#include "amg/blocked_mis2.hpp"
#include "core/cuda_check.cuh"
#include "sparse/cuda/launch.cuh"

namespace saga::amg::cuda {

namespace {
using saga::cuda::kThreads;
constexpr unsigned kAll = 0xffffffffu;
constexpr int kStage = 4096;  // columns of a window staged in shared memory (more: read from global memory)

__global__ void identity_kernel(index_t blocks, std::int32_t* __restrict__ lo, std::int32_t* __restrict__ hi) {
  for (std::int64_t x = saga::cuda::global_thread(); x < blocks; x += saga::cuda::grid_stride())
    lo[x] = hi[x] = static_cast<std::int32_t>(x);
}

// A thread per row: the blocks of its first and last column (rows are sorted),
// the blocks it reaches (offsets from its own, as the bits of a ReachMask) and
// the span. The lanes of a warp holding rows of the same block
// combine theirs first, so that a block's hull and mask take one atomic per
// warp, not one per row (the rows of a 27-point block boundary all hit the
// same words). Minima, maxima and ORs: the same result in any order.
// span[1] = 1 where some row reaches further than kReach blocks.
__global__ void intervals_kernel(index_t n, index_t b, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                                 std::int32_t* lo, std::int32_t* hi, std::uint32_t* reach, std::int32_t* span) {
  std::int32_t widest = 0;
  bool far = false;
  const std::int64_t stride = saga::cuda::grid_stride();
  for (std::int64_t t = saga::cuda::global_thread() - threadIdx.x % 32; t < n; t += stride) {  // whole warps
    const std::int64_t i = t + threadIdx.x % 32;
    const bool row = i < n;
    std::int32_t bi = -1, mn = INT_MAX, mx = -1;
    std::uint32_t m[kReachWords] = {};
    if (row) {
      bi = static_cast<std::int32_t>(i / b);
      mn = mx = bi;
      const offset_t r0 = rp[i], r1 = rp[i + 1];
      if (r1 > r0) {
        const index_t first = ci[r0], last = ci[r1 - 1];
        widest = max(widest, max(static_cast<std::int32_t>(i - first), static_cast<std::int32_t>(last - i)));
        mn = min(mn, first / b);
        mx = max(mx, last / b);
      }
      far |= mn < bi - kReach || mx > bi + kReach;
      // Sorted columns: the blocks come in runs; one bit per run.
      std::int32_t previous = INT_MIN;
      for (offset_t a = r0; a < r1 && !far; ++a) {
        const std::int32_t d = ci[a] / b - bi;
        if (d == previous) continue;
        previous = d;
        const int k = d + kReach + 1;
#pragma unroll
        for (int w = 0; w < kReachWords; ++w)
          if (k / 32 == w) m[w] |= 1u << (k % 32);
      }
      constexpr int self = kReach + 1;
      m[self / 32] |= 1u << (self % 32);
    }
    const unsigned same = __match_any_sync(kAll, bi);
    const std::int32_t gmn = __reduce_min_sync(same, mn), gmx = __reduce_max_sync(same, mx);
    std::uint32_t gm[kReachWords];
#pragma unroll
    for (int w = 0; w < kReachWords; ++w) gm[w] = __reduce_or_sync(same, m[w]);
    if (row && (threadIdx.x % 32) == __ffs(same) - 1) {
      if (gmn < bi) atomicMin(lo + bi, gmn);
      if (gmx > bi) atomicMax(hi + bi, gmx);
#pragma unroll
      for (int w = 0; w < kReachWords; ++w)
        if (gm[w]) atomicOr(reach + static_cast<std::int64_t>(bi) * kReachWords + w, gm[w]);
    }
  }
  for (int d = 16; d > 0; d /= 2) widest = max(widest, __shfl_down_sync(kAll, widest, d));
  if (threadIdx.x % 32 == 0 && widest > 0) atomicMax(span, widest);
  if (__any_sync(kAll, far) && threadIdx.x % 32 == 0) span[1] = 1;
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
  for (int d = 16; d > 0; d /= 2) mine = max(mine, __shfl_down_sync(kAll, mine, d));
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
  for (int d = 16; d > 0; d /= 2) mine = min(mine, __shfl_down_sync(kAll, mine, d));
  if (threadIdx.x % 32 == 0 && mine < most) atomicMin(reach + 1, mine);
}

// Row i's largest forward reach within half a period, or -1 where it has more
// than one entry beyond half a period ahead or behind (not a star stencil).
__device__ inline index_t star_reach(std::int64_t i, index_t half, const offset_t* __restrict__ rp,
                                     const index_t* __restrict__ ci) {
  int ahead = 0, behind = 0;
  index_t reach = 0;
  for (offset_t a = rp[i]; a < rp[i + 1]; ++a) {
    const index_t d = static_cast<index_t>(ci[a] - i);
    if (d > half)
      ++ahead;
    else if (d < -half)
      ++behind;
    else
      reach = max(reach, d);
  }
  return ahead > 1 || behind > 1 ? -1 : reach;
}
// out[0]: 1 where some row is not a star; out[1]: the largest star reach.
__global__ void star_reach_kernel(index_t n, index_t half, const offset_t* __restrict__ rp,
                                  const index_t* __restrict__ ci, index_t* out) {
  index_t most = 0;
  bool not_star = false;
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride()) {
    const index_t r = star_reach(i, half, rp, ci);
    not_star |= r < 0;
    most = max(most, r);
  }
  for (int d = 16; d > 0; d /= 2) most = max(most, __shfl_down_sync(kAll, most, d));
  const bool any = __any_sync(kAll, not_star);
  if (threadIdx.x % 32 == 0) {
    if (any) out[0] = 1;
    if (most > 0) atomicMax(out + 1, most);
  }
}
// out[2]: the least star reach above half of out[1] (out[2] starts at out[1]).
__global__ void star_line_kernel(index_t n, index_t half, const offset_t* __restrict__ rp,
                                 const index_t* __restrict__ ci, index_t* out) {
  const index_t most = out[1];
  index_t mine = most;
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride()) {
    const index_t r = star_reach(i, half, rp, ci);
    if (2 * static_cast<std::int64_t>(r) > most) mine = min(mine, r);
  }
  for (int d = 16; d > 0; d /= 2) mine = min(mine, __shfl_down_sync(kAll, mine, d));
  if (threadIdx.x % 32 == 0 && mine < most) atomicMin(out + 2, mine);
}

__device__ inline bool bit(const unsigned* bits, int d) {
  return (static_cast<const volatile unsigned*>(bits)[d >> 5] >> (d & 31)) & 1u;
}
__device__ inline void set_bit(unsigned* bits, int d) { atomicOr(bits + (d >> 5), 1u << (d & 31)); }

// Whether the closed neighbourhood of the node at local position `self` is
// free: its row is row[0, len) minus `sub` (local positions). Every lane runs
// the same batches (maxlen: the warp's longest row), so that the warp stays
// converged for the ballots that follow; eight positions are loaded before
// their bits are tested, so that the loads overlap.
template <bool Staged>
__device__ __forceinline__ bool free_node(const unsigned* bits, int self, const index_t* row, int len, int maxlen,
                                          int sub) {
  bool hit = bit(bits, self);
  constexpr int kBatch = 8;
  for (int a = 0; a < maxlen; a += kBatch) {
    int d[kBatch];
#pragma unroll
    for (int t = 0; t < kBatch; ++t) d[t] = a + t < len ? (Staged ? row[a + t] : row[a + t] - sub) : self;
#pragma unroll
    for (int t = 0; t < kBatch; ++t) hit |= bit(bits, d[t]);
  }
  return !hit;
}

__device__ inline void prefetch_l1(const void* p) { asm volatile("prefetch.global.L1 [%0];" ::"l"(p)); }

// Decides the window's nodes: lane's node i (active: inside the block) has its
// row at row[0, len) (local positions + sub); row_at(r0) is the row that
// starts at column offset r0 (another lane's), in the same memory.
// The nodes of `nodes` (lane bits) whose closed neighbourhood is free, tested
// one after another by the whole warp (the lanes split the node's row: one
// or two loads each, one vote): cheaper than every lane walking its own row
// when only a few nodes are left to test (after a member is chosen, or where
// most of the window is covered already).
template <bool Staged, class RowAt>
__device__ __forceinline__ unsigned free_nodes_together(const unsigned* bits, unsigned nodes, int self, int len,
                                                        int sub, RowAt row_at, offset_t r0) {
  const int lane = threadIdx.x;
  unsigned still = 0;
  for (unsigned rest = nodes; rest; rest &= rest - 1) {
    const int j = __ffs(rest) - 1;
    const index_t* jrow = row_at(__shfl_sync(kAll, r0, j));
    const int jlen = __shfl_sync(kAll, len, j), jself = __shfl_sync(kAll, self, j);
    bool hit = lane == 0 && bit(bits, jself);
    for (int t = lane; t < jlen; t += 32) hit |= bit(bits, Staged ? jrow[t] : jrow[t] - sub);
    if (!__any_sync(kAll, hit)) still |= 1u << j;
  }
  return still;
}

// Whether the warp tests `nodes` together rather than each lane its own: a
// lane's walk issues about 80 instructions per batch of 8 entries of the
// warp's longest row, whoever needs it, but its loads overlap; a node tested
// together issues about 20, in a chain of dependent loads and a vote. One node
// per batch: at four per batch the coarse levels of 2D 5-point (rows of 9-20
// entries) took 1.4 -> 2.4 ms (H100).
__device__ __forceinline__ bool test_together(unsigned nodes, int maxlen) {
  return __popc(nodes) <= (maxlen + 7) / 8;
}

// Decides the window's nodes: lane's node i (active: inside the block) has its
// row at row[0, len) (local positions + sub); row_at(r0) is the row that
// starts at column offset r0 (another lane's), in the same memory.
template <bool Staged, class RowAt>
__device__ __forceinline__ void decide_window(unsigned* bits, const index_t* row, int len, int sub, int i, int hb,
                                              bool active, RowAt row_at, offset_t r0, std::int32_t* __restrict__ in) {
  const int lane = threadIdx.x;
  const int self = active ? i - hb : 0, maxlen = __reduce_max_sync(kAll, static_cast<unsigned>(len));
  // Nodes covered already are out without a walk.
  unsigned candidates = __ballot_sync(kAll, active && !bit(bits, self));
  if (test_together(candidates, maxlen)) {
    candidates = free_nodes_together<Staged>(bits, candidates, self, len, sub, row_at, r0);
  } else {
    const bool free = free_node<Staged>(bits, self, row, len, maxlen, sub);  // every lane: no divergence
    candidates &= __ballot_sync(kAll, free);
  }
  while (candidates) {
    const int c = __ffs(candidates) - 1;  // the first free node in visit order is a member
    const index_t* crow = row_at(__shfl_sync(kAll, r0, c));
    const int clen = __shfl_sync(kAll, len, c);
    if (lane == c) {
      in[i] = 1;
      set_bit(bits, i - hb);
    }
    for (int t = lane; t < clen; t += 32) set_bit(bits, Staged ? crow[t] : crow[t] - sub);
    __syncwarp();
    candidates &= ~(1u << c);
    if (test_together(candidates, maxlen)) {
      candidates = free_nodes_together<Staged>(bits, candidates, self, len, sub, row_at, r0);
    } else {
      const bool still = free_node<Staged>(bits, self, row, len, maxlen, sub);
      candidates &= __ballot_sync(kAll, still);
    }
  }
}

// Row bounds of node i, or an empty row past the block.
struct Rows {
  offset_t r0 = 0, r1 = 0;
};
__device__ inline Rows rows_of(int i, int end, const offset_t* __restrict__ rp) {
  return i < end ? Rows{rp[i], rp[i + 1]} : Rows{};
}
// The columns of the window at `base` (one range; empty past the block).
__device__ inline Rows window_of(const Rows& mine, int base, int end) {
  if (base >= end) return Rows{};
  const int last = min(31, end - 1 - base);
  return Rows{__shfl_sync(kAll, mine.r0, 0), __shfl_sync(kAll, mine.r1, last)};
}

// flag_words: shared-memory words of flags of the widest block (then the stage).
__global__ void __launch_bounds__(32) visit_kernel(int n, int b, int span, int flag_words,
                                                   const index_t* __restrict__ blocks,
                                                   const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                                                   unsigned* covered, std::int32_t* __restrict__ in) {
  extern __shared__ unsigned shared[];
  unsigned* bits = shared;
  index_t* stage = reinterpret_cast<index_t*>(shared + flag_words);
  const int lane = threadIdx.x;
  const int begin = blocks[blockIdx.x] * b;
  const int end = min(n, begin + b);
  const int hb = max(0, begin - span) & ~31;  // the first node with a bit here
  const int reached = static_cast<int>(min(static_cast<long long>(n), static_cast<long long>(end) + span));
  const int words = (reached - hb + 31) / 32;
  for (int w = lane; w < words; w += 32) bits[w] = covered[hb / 32 + w];  // flags of earlier colours
  __syncwarp();
  Rows now = rows_of(begin + lane, end, rp), next = rows_of(begin + 32 + lane, end, rp);
  for (int base = begin; base < end; base += 32) {
    const Rows after = rows_of(base + 64 + lane, end, rp);
    {  // the columns of the next window into L1, a line per lane
      const Rows w = window_of(next, base + 32, end);
      for (offset_t a = w.r0 + 32 * lane; a < w.r1; a += 32 * 32) prefetch_l1(ci + a);
    }
    const int i = base + lane;
    const bool active = i < end;
    const Rows w = window_of(now, base, end);
    const offset_t e0 = w.r0, e1 = w.r1;
    const int len = static_cast<int>(now.r1 - now.r0);
    if (e1 - e0 <= kStage) {  // the usual case: every column read from shared memory
      for (offset_t a = e0 + lane; a < e1; a += 32) stage[a - e0] = ci[a] - hb;
      __syncwarp();
      decide_window<true>(bits, active ? stage + (now.r0 - e0) : stage, len, 0, i, hb, active,
                          [&](offset_t r0) { return stage + (r0 - e0); }, now.r0, in);
    } else {
      decide_window<false>(bits, ci + now.r0, len, hb, i, hb, active, [&](offset_t r0) { return ci + r0; }, now.r0,
                           in);
    }
    __syncwarp();  // the stage is rewritten by the next window
    now = next;
    next = after;
  }
  __syncwarp();
  for (int w = lane; w < words; w += 32) {
    const unsigned v = static_cast<volatile unsigned*>(bits)[w];
    if (v) atomicOr(covered + hb / 32 + w, v);  // for later colours
  }
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

index_t star_line(const CsrMatrix& S, index_t period) {
  if (S.rows() == 0 || period < 2) return 0;
  const cudaStream_t stream = device_stream();
  Array<index_t> out = Array<index_t>::zeros(3, Space::device, "star line");
  const unsigned grid = saga::cuda::grid_capped(S.rows());
  star_reach_kernel<<<grid, kThreads, 0, stream>>>(S.rows(), period / 2, S.row_ptr().data(), S.col().data(),
                                                   out.data());
  SAGA_CUDA_LAUNCH("star reach");
  SAGA_CUDA(cudaMemcpyAsync(out.data() + 2, out.data() + 1, sizeof(index_t), cudaMemcpyDeviceToDevice, stream));
  star_line_kernel<<<grid, kThreads, 0, stream>>>(S.rows(), period / 2, S.row_ptr().data(), S.col().data(),
                                                  out.data());
  SAGA_CUDA_LAUNCH("star line");
  const std::vector<index_t> r = out.to_vector();
  return r[0] ? 0 : r[2];
}

void block_intervals(const CsrMatrix& S, index_t block_size, Array<std::int32_t>& lo, Array<std::int32_t>& hi,
                     Array<std::uint32_t>& reach, Array<std::int32_t>& span) {
  const cudaStream_t stream = device_stream();
  const index_t blocks = static_cast<index_t>(lo.size());
  SAGA_CUDA(cudaMemsetAsync(span.data(), 0, 2 * sizeof(std::int32_t), stream));
  if (blocks == 0) return;
  SAGA_CUDA(cudaMemsetAsync(reach.data(), 0, reach.size() * sizeof(std::uint32_t), stream));
  identity_kernel<<<saga::cuda::grid_capped(blocks), kThreads, 0, stream>>>(blocks, lo.data(), hi.data());
  SAGA_CUDA_LAUNCH("blocked MIS-2 intervals (identity)");
  intervals_kernel<<<saga::cuda::grid_capped(S.rows()), kThreads, 0, stream>>>(
      S.rows(), block_size, S.row_ptr().data(), S.col().data(), lo.data(), hi.data(), reach.data(), span.data());
  SAGA_CUDA_LAUNCH("blocked MIS-2 intervals");
}

void blocked_mis2(const CsrMatrix& S, const BlockSchedule& schedule, Array<std::int32_t>& in_set) {
  const index_t n = S.rows();
  if (n == 0) return;
  const cudaStream_t stream = device_stream();
  // The widest block's flags: its nodes and span on both sides, whole words, one more for the rounding.
  const std::int64_t flag_words = (schedule.block_size + 2 * std::int64_t(schedule.span)) / 32 + 2;
  const std::size_t bytes = static_cast<std::size_t>(flag_words) * 4 + kStage * sizeof(index_t);
  const std::size_t most =
      static_cast<std::size_t>(saga::cuda::device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  SAGA_REQUIRE(bytes <= most,
               "blocked MIS-2: a block of {} nodes and span {} needs {} bytes of shared memory, the device has {}",
               schedule.block_size, schedule.span, bytes, most);
  if (bytes > 48 * 1024)
    SAGA_CUDA(cudaFuncSetAttribute(visit_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  const std::size_t n_words = (static_cast<std::size_t>(n) + 31) / 32;
  Array<unsigned> covered(n_words, Space::device, "blocked MIS-2 covered bits");
  SAGA_CUDA(cudaMemsetAsync(covered.data(), 0, n_words * sizeof(unsigned), stream));
  SAGA_CUDA(cudaMemsetAsync(in_set.data(), 0, sizeof(std::int32_t) * static_cast<std::size_t>(n), stream));
  const Array<index_t> order = Array<index_t>::from_vector(schedule.order, Space::device, "blocked MIS-2 order");
  for (int c = 0; c < schedule.colours(); ++c) {
    const index_t first = schedule.colour_start[c], count = schedule.colour_start[c + 1] - first;
    visit_kernel<<<static_cast<unsigned>(count), 32, bytes, stream>>>(
        n, schedule.block_size, schedule.span, static_cast<int>(flag_words), order.data() + first,
        S.row_ptr().data(), S.col().data(), covered.data(), in_set.data());
    SAGA_CUDA_LAUNCH("blocked MIS-2 visit");
  }
}

}  // namespace saga::amg::cuda
