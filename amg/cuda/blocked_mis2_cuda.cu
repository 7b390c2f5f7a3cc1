// Blocked greedy MIS-2 on the GPU (amg/blocked_mis2.hpp): a kernel per colour,
// a CTA per block of the colour: one warp, or a wavefront of warps over the
// block's grid lines (visit_kernel, line_lags_kernel below).
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
// A warp walks its block (or its lines) 32 nodes (a window) at a time. The window's rows
// are one contiguous range of S's columns: staged in shared memory as local
// bit positions with coalesced loads (L1 hits: the range was prefetched while
// the previous window was decided). Every lane tests its node's closed
// neighbourhood; the lowest lane whose neighbourhood was free is a member
// (the nodes before it in the visit changed nothing it reads); the lanes split
// its row to cover it; the remaining candidates test again, and so on. That
// is the sequential visit exactly, with one parallel test per member instead
// of one test per node. Where the warp's rows have at most 16 entries, each
// lane holds its row in registers as (flag word, bit) pairs for the window, so
// that a test is a shared load and an AND an entry (decide_window_held).
#include <algorithm>
#include <climits>
#include <cmath>

#include "amg/blocked_mis2.hpp"
#include "core/cuda_check.cuh"
#include "core/parallel_for.cuh"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/cuda/launch.cuh"

namespace saga::amg::cuda {

namespace {
using saga::cuda::kThreads;
constexpr unsigned kAll = 0xffffffffu;
constexpr int kStage = 4096;  // columns of a window staged in shared memory (more: read from global memory)

// The largest of every thread's v (at least 0) and whether any thread's flag
// is set, valid in thread 0 of the CTA (kThreads threads; every thread calls
// it, once a kernel): one global atomic a CTA instead of one a warp. A warp's
// atomic on one word, from the 32k warps of a million rows, serialised at the
// L2: 32 us of level 0's period rule on 2D 5-pt N = 1024 (H100), where the
// pass itself reads in 8.
struct CtaMax {
  unsigned value;
  bool flag;
};
__device__ inline CtaMax cta_max(unsigned v, bool flag) {
  __shared__ unsigned warp_max[kThreads / 32];
  flag = __syncthreads_or(flag);
  v = __reduce_max_sync(kAll, v);
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) v = __reduce_max_sync(kAll, threadIdx.x < kThreads / 32 ? warp_max[threadIdx.x] : 0u);
  return {v, flag};
}

// With size_at, the blocks are those of *size_at nodes (at most `blocks`):
// the shape decided on the device (shape_and_intervals).
__global__ void identity_kernel(index_t blocks, std::int32_t* __restrict__ lo, std::int32_t* __restrict__ hi,
                                index_t n, const index_t* size_at) {
  if (size_at) blocks = min(blocks, n == 0 ? 0 : (n - 1) / *size_at + 1);
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
                                 std::int32_t* lo, std::int32_t* hi, std::uint32_t* reach, std::int32_t* span,
                                 const index_t* size_at) {
  if (size_at) b = *size_at;  // the shape decided on the device (shape_and_intervals)
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
  const CtaMax cta = cta_max(static_cast<unsigned>(widest), far);
  if (threadIdx.x == 0) {
    if (cta.value > 0) atomicMax(span, static_cast<std::int32_t>(cta.value));
    if (cta.flag) span[1] = 1;
  }
}

// The period rule over one value per row (row_period: the reach; plane
// lines: the reach within half a period), as in amg/blocked_mis2.cpp:
// period_rule returns {1 where a row raises the value's flag, the largest
// value, the least value above half of it (the largest itself where none is
// below it)}, from two kernels and one read at the end.
struct RowReach {  // last column - row, at least 0 (sorted rows)
  const offset_t* rp;
  const index_t* ci;
  __device__ index_t operator()(std::int64_t i, bool&) const {
    return rp[i + 1] > rp[i] ? max(index_t(0), static_cast<index_t>(ci[rp[i + 1] - 1] - i)) : 0;
  }
};
struct ReachWithinHalf {  // the largest forward reach within half a period; flag: not a star row
  const offset_t* rp;
  const index_t* ci;
  index_t half;
  __device__ index_t operator()(std::int64_t i, bool& not_star) const {
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
    not_star |= ahead > 1 || behind > 1;
    return reach;
  }
};
// ReachWithinHalf of the period the row period rule left at rule[0, 3) (its
// largest value minus rule[2]), where that period holds min_size nodes (and
// at least 2); else 0 for every row, without reading them: plane_lines as
// block_shape_for calls it, with the period never read back.
struct ReachWithinHalfOfPeriod {
  const offset_t* rp;
  const index_t* ci;
  const index_t* rule;
  index_t min_size;
  __device__ index_t operator()(std::int64_t i, bool& not_star) const {
    const index_t period = rule[1] - rule[2];
    if (period < min_size || period < 2) return 0;
    return ReachWithinHalf{rp, ci, period / 2}(i, not_star);
  }
};

template <class Value>
__global__ void largest_value_kernel(index_t n, Value value, index_t* out) {
  index_t most = 0;
  bool flag = false;
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride())
    most = max(most, value(i, flag));
  const CtaMax cta = cta_max(static_cast<unsigned>(most), flag);
  if (threadIdx.x == 0) {
    if (cta.flag) out[0] = 1;
    if (cta.value > 0) atomicMax(out + 1, static_cast<index_t>(cta.value));
  }
}
// out[2] = out[1] - (the least value above half of out[1]): a maximum from 0,
// so that out needs no initial value but zeros (no copy between the kernels).
template <class Value>
__global__ void least_above_half_kernel(index_t n, Value value, index_t* out) {
  const index_t most = out[1];
  index_t mine = most;
  bool flag = false;
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride()) {
    const index_t r = value(i, flag);
    if (2 * static_cast<std::int64_t>(r) > most) mine = min(mine, r);
  }
  const CtaMax cta = cta_max(static_cast<unsigned>(most - mine), false);
  if (threadIdx.x == 0 && cta.value > 0) atomicMax(out + 2, static_cast<index_t>(cta.value));
}
// One thread: block_shape_for's rule from the two period rules at w[0, 6)
// (shape_of_rules), into w[6] (size) and w[7] (line).
__global__ void shape_kernel(index_t n, index_t min_size, int align, index_t max_size, index_t star_size,
                             index_t* w) {
  const BlockShape shape = shape_of_rules(w, n, min_size, align, max_size, star_size);
  w[6] = shape.size;
  w[7] = shape.line;
}

// The two kernels of a period rule into out[0, 3) (no read).
template <class Value>
void launch_period_rule(index_t n, Value value, index_t* out, cudaStream_t stream) {
  const unsigned grid = saga::cuda::grid_capped(n);
  largest_value_kernel<<<grid, kThreads, 0, stream>>>(n, value, out);
  SAGA_CUDA_LAUNCH("period rule: largest value");
  least_above_half_kernel<<<grid, kThreads, 0, stream>>>(n, value, out);
  SAGA_CUDA_LAUNCH("period rule: least value above half");
}

template <class Value>
std::vector<index_t> period_rule(const CsrMatrix& S, Value value) {
  const cudaStream_t stream = device_stream();
  Array<index_t> out = Array<index_t>::zeros(3, Space::device, "period rule");
  launch_period_rule(S.rows(), value, out.data(), stream);
  std::vector<index_t> r = out.to_vector();
  r[2] = r[1] - r[2];
  return r;
}

// The wavefront's dependencies between lines (BlockSchedule::line). With
// block-relative lines, node j lies on global line gl(j) = (j / b) * lines +
// (j % b) / q at position pos(j) = (j % b) % q. Node m on an earlier line of
// i's block can change what i reads only if N[m] and N[i] meet at some k, so
// m - i = (k - i) - (k - m) in (line, position) offsets of two entries of S:
// a pair of entries whose line offsets d1 and d2 = d1 + e differ by the e
// lines between i and m. Per line offset modulo M (a power of two, at least
// 4 lines; entries into the next plane meet in a slot with those of the
// block's own lines) the least and the largest position offset of S's
// entries and the diagonal's (0, 0); then lag[e] = max over slots c of
// hi[c] - lo[(c + e) mod M] bounds how far along line L - e the nodes that
// line L's node at position x depends on reach: x + lag[e]. The slots hold
// every pair with d2 = d1 + e and some more: a bound, never too small.
constexpr int kNoLag = INT_MIN;      // lag: no dependency on that line
// The wavefront runs where its windows in sequence (one line's, then the
// delay for every further line, or one walker's lines, whichever is more) are
// below kWaveShare of one warp's walk; else one warp walks the block.
constexpr double kWaveShare = 0.7;
__host__ __device__ inline bool wave_pays(int q, int lines, int walkers, double per_line_delay) {
  const double per_line = (q + 31) / 32;
  const double wave = fmax(per_line + (lines - 1) * per_line_delay, ceil(double(lines) / walkers) * per_line);
  return wave < kWaveShare * lines * per_line;
}

int offset_slots(int lines) {
  int m = 256;
  while (m < 4 * lines) m *= 2;
  return m;
}
constexpr int kMaxOffsetSlots = 4 * kMaxWaveLines;

// A thread per row, the warp in step over its rows' entries: lanes with the
// same slot combine first (one shared atomic per slot and warp), CTAs
// combine in shared memory, one global atomic per slot and CTA.
__global__ void line_offsets_kernel(index_t n, int b, int q, int lines, int slots, const offset_t* __restrict__ rp,
                                    const index_t* __restrict__ ci, int* lo, int* hi) {
  extern __shared__ int shared_slots[];
  int* slo = shared_slots;
  int* shi = shared_slots + slots;
  for (int d = threadIdx.x; d < slots; d += blockDim.x) slo[d] = INT_MAX, shi[d] = INT_MIN;
  __syncthreads();
  // In 32 bits (nodes are index_t): four 64-bit divisions an entry took most
  // of the pass (30 us on 2D 5-pt N = 1024's level 0, H100). Line numbers
  // are taken modulo 2^32, and the slots (a power of two) modulo fewer bits.
  const unsigned ub = static_cast<unsigned>(b), uq = static_cast<unsigned>(q), ul = static_cast<unsigned>(lines);
  const auto line_of = [&](unsigned j) { return (j / ub) * ul + (j % ub) / uq; };
  for (std::int64_t t = saga::cuda::global_thread() - threadIdx.x % 32; t < n; t += saga::cuda::grid_stride()) {
    const std::int64_t i = t + threadIdx.x % 32;
    offset_t r0 = 0, r1 = 0;
    unsigned li = 0;
    int pi = 0;
    if (i < n) {
      const unsigned ui = static_cast<unsigned>(i);
      r0 = rp[i], r1 = rp[i + 1], li = line_of(ui), pi = static_cast<int>((ui % ub) % uq);
    }
    const int len = static_cast<int>(r1 - r0);
    const int most = static_cast<int>(__reduce_max_sync(kAll, static_cast<unsigned>(len)));
    for (int a = 0; a < most; ++a) {
      int key = -1, p = 0;
      if (a < len) {
        const unsigned c = static_cast<unsigned>(ci[r0 + a]);
        key = static_cast<int>((line_of(c) - li) & static_cast<unsigned>(slots - 1));
        p = static_cast<int>((c % ub) % uq) - pi;
      }
      const unsigned same = __match_any_sync(kAll, key);
      const int mn = __reduce_min_sync(same, p), mx = __reduce_max_sync(same, p);
      if (key >= 0 && (threadIdx.x % 32) == __ffs(same) - 1) {
        atomicMin(slo + key, mn);
        atomicMax(shi + key, mx);
      }
    }
  }
  __syncthreads();
  for (int d = threadIdx.x; d < slots; d += blockDim.x)
    if (slo[d] != INT_MAX) {
      atomicMin(lo + d, slo[d]);
      atomicMax(hi + d, shi[d]);
    }
}

// One CTA (lines <= kMaxWaveLines): the lines back that hold something a
// line depends on, as a list: out[0] = its length (-1 where the wavefront
// would not pay, kWaveShare), then (e, lag[e]) pairs by increasing e.
__global__ void line_lags_kernel(int lines, int q, int warps, int slots, const int* __restrict__ lo,
                                 const int* __restrict__ hi, int* out) {
  __shared__ int lag[kMaxWaveLines];
  __shared__ int slo[kMaxOffsetSlots], shi[kMaxOffsetSlots];
  for (int c = threadIdx.x; c < slots; c += blockDim.x) {
    slo[c] = c == 0 ? min(lo[0], 0) : lo[c];  // the diagonal: (0, 0)
    shi[c] = c == 0 ? max(hi[0], 0) : hi[c];
  }
  __syncthreads();
  for (int e = 1 + threadIdx.x; e < lines; e += blockDim.x) {
    int best = kNoLag;
    for (int c = 0; c < slots; ++c) {
      const int h = shi[c], l = slo[(c + e) & (slots - 1)];
      if (h != INT_MIN && l != INT_MAX) best = max(best, h - l);
    }
    lag[e] = best;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    // Line L's window k needs line L - e through window k + (31 + lag) / 32:
    // the wavefront falls behind by that plus one window every e lines.
    int count = 0;
    double per_line_delay = 0;
    for (int e = 1; e < lines; ++e) {
      if (lag[e] == kNoLag || 31LL + lag[e] < 0) continue;  // nothing on line L - e that line L depends on
      out[1 + 2 * count] = e;
      out[2 + 2 * count] = lag[e];
      ++count;
      const long long reach = min(static_cast<long long>(q) + 31, 31LL + lag[e]);
      per_line_delay = max(per_line_delay, static_cast<double>(1 + reach / 32) / e);
    }
    out[0] = wave_pays(q, lines, min(warps, lines), per_line_delay) ? count : -1;
  }
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
  const int lane = threadIdx.x % 32;
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

// A row of at most K entries held in registers as flag words and bits:
// entry t is bit m[t] of word w[t] (slots past the row: no bits, in the
// node's own word). The walk tests its candidates again after every
// member; with the row loaded from the stage once a window, a test is K shared
// loads, each ANDed into one accumulator (two instructions an entry), where
// the entry-by-entry batches loaded every position again and shifted every
// word (about ten). Every index is a constant after unrolling: registers only.
template <int K>
struct RowBits {
  int w[K];
  unsigned m[K];
  template <bool Staged>
  __device__ __forceinline__ void load(const index_t* row, int len, int sub, int self) {
#pragma unroll
    for (int t = 0; t < K; ++t) {
      const int d = t < len ? (Staged ? row[t] : row[t] - sub) : self;
      w[t] = d >> 5;
      m[t] = t < len ? 1u << (d & 31) : 0u;
    }
  }
  // Whether the closed neighbourhood of `self` (its row held here) is free.
  __device__ __forceinline__ bool free_of(const unsigned* bits, int self) const {
    const volatile unsigned* v = bits;
    unsigned hit = v[self >> 5] & (1u << (self & 31));
#pragma unroll
    for (int t = 0; t < K; ++t) hit |= v[w[t]] & m[t];
    return hit == 0u;
  }
};

// Makes the first of the candidates (lane bits, visit order) a member: its
// flag (lane c's node, at local position self) and its row's flags are set.
// Returns the candidates after it.
template <bool Staged, class RowAt>
__device__ __forceinline__ unsigned take_first(unsigned* bits, unsigned candidates, int self, int len, int sub, int i,
                                               RowAt row_at, offset_t r0, std::int32_t* __restrict__ in) {
  const int lane = threadIdx.x % 32;
  const int c = __ffs(candidates) - 1;
  const index_t* crow = row_at(__shfl_sync(kAll, r0, c));
  const int clen = __shfl_sync(kAll, len, c);
  if (lane == c) {
    in[i] = 1;
    set_bit(bits, self);
  }
  for (int t = lane; t < clen; t += 32) set_bit(bits, Staged ? crow[t] : crow[t] - sub);
  __syncwarp();
  return candidates & ~(1u << c);
}

// decide_window (below) where the warp's longest row has at most K entries:
// the same decisions from the rows held in registers.
template <int K, bool Staged, class RowAt, class Progress>
__device__ __forceinline__ void decide_window_held(unsigned* bits, const index_t* row, int len, int sub, int i,
                                                   int self, unsigned candidates, RowAt row_at, offset_t r0,
                                                   std::int32_t* __restrict__ in, Progress progress) {
  RowBits<K> rb;
  rb.template load<Staged>(row, (candidates >> (threadIdx.x % 32)) & 1u ? len : 0, sub, self);
  candidates &= __ballot_sync(kAll, rb.free_of(bits, self));
  progress(candidates);
  while (candidates) {
    candidates = take_first<Staged>(bits, candidates, self, len, sub, i, row_at, r0, in);
    candidates &= __ballot_sync(kAll, rb.free_of(bits, self));
    progress(candidates);
  }
}

// Decides the window's nodes: lane's node i (active: inside the block) has its
// row at row[0, len) (local positions + sub); row_at(r0) is the row that
// starts at column offset r0 (another lane's), in the same memory.
// progress(candidates) after each test: the lanes below the lowest candidate
// left are decided and their covers written (the wavefront publishes it).
template <bool Staged, class RowAt, class Progress>
__device__ __forceinline__ void decide_window(unsigned* bits, const index_t* row, int len, int sub, int i, int hb,
                                              bool active, RowAt row_at, offset_t r0, std::int32_t* __restrict__ in,
                                              Progress progress) {
  const int self = active ? i - hb : 0, maxlen = __reduce_max_sync(kAll, static_cast<unsigned>(len));
  // Nodes covered already are out without a walk.
  unsigned candidates = __ballot_sync(kAll, active && !bit(bits, self));
  // Short rows: held in registers for the window's tests (the same bits read
  // at the same points of the walk, so the same set).
  if (maxlen <= 8)
    return decide_window_held<8, Staged>(bits, row, len, sub, i, self, candidates, row_at, r0, in, progress);
  if (maxlen <= 16)
    return decide_window_held<16, Staged>(bits, row, len, sub, i, self, candidates, row_at, r0, in, progress);
  if (test_together(candidates, maxlen)) {
    candidates = free_nodes_together<Staged>(bits, candidates, self, len, sub, row_at, r0);
  } else {
    const bool free = free_node<Staged>(bits, self, row, len, maxlen, sub);  // every lane: no divergence
    candidates &= __ballot_sync(kAll, free);
  }
  progress(candidates);
  while (candidates) {
    candidates = take_first<Staged>(bits, candidates, self, len, sub, i, row_at, r0, in);
    if (test_together(candidates, maxlen)) {
      candidates = free_nodes_together<Staged>(bits, candidates, self, len, sub, row_at, r0);
    } else {
      const bool still = free_node<Staged>(bits, self, row, len, maxlen, sub);
      candidates &= __ballot_sync(kAll, still);
    }
    progress(candidates);
  }
}

// Row bounds of node i, or an empty row past the line.
struct Rows {
  offset_t r0 = 0, r1 = 0;
};
__device__ inline Rows rows_of(int i, int stop, const offset_t* __restrict__ rp) {
  return i < stop ? Rows{rp[i], rp[i + 1]} : Rows{};
}
// The columns of the window at `base` (one range; empty past the line).
__device__ inline Rows window_of(const Rows& mine, int base, int stop) {
  if (base >= stop) return Rows{};
  const int last = min(31, stop - 1 - base);
  return Rows{__shfl_sync(kAll, mine.r0, 0), __shfl_sync(kAll, mine.r1, last)};
}

// A warp's walk through its block: the windows of 32 nodes of its lines
// (line, line + warps, ...), each window inside one line.
struct Window {
  int line, base, stop;  // stop: the line's end; base >= end: no window left
};
struct Walk {
  int begin, end, q, warps;
  __device__ Window at_line(int line) const {
    const long long base = begin + static_cast<long long>(line) * q;
    if (base >= end) return Window{line, end, end};
    return Window{line, static_cast<int>(base), static_cast<int>(min(static_cast<long long>(end), base + q))};
  }
  __device__ Window after(const Window& w) const {
    if (w.base >= end) return w;
    return w.base + 32 < w.stop ? Window{w.line, w.base + 32, w.stop} : at_line(w.line + warps);
  }
};

// flag_words: shared-memory words of flags of the widest block; then the
// lags (lines words), the warps' progress (warps words) and their stages
// (stage_words each). Warp w walks lines w, w + warps, ...; before a window it
// waits until each earlier line the window depends on (lag) has been decided
// far enough, and after each of its tests and at its end it publishes how far
// it has come (done[w]: the block-relative index of its first undecided node,
// whose earlier nodes' covers are written). The waits point only to
// earlier lines, so they end; every node's reads wait for every earlier node
// that could change them, and no later node writes what it reads before it
// is decided (that node waits for it): the set is the sequential visit's.
__global__ void __launch_bounds__(kMaxLineWarps * 32, 1) visit_kernel(int n, int b, int q, int lines, int span,
                                                                   int flag_words, int stage_words,
                                                                   const index_t* __restrict__ blocks,
                                                                   const int* __restrict__ lag,
                                                                   const offset_t* __restrict__ rp,
                                                                   const index_t* __restrict__ ci, unsigned* covered,
                                                                   std::int32_t* __restrict__ in) {
  extern __shared__ unsigned shared[];
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned* bits = shared;
  int* lags = reinterpret_cast<int*>(shared + flag_words);  // the list of line_lags_kernel
  volatile int* done = lags + 2 * lines;
  index_t* stage = reinterpret_cast<index_t*>(lags + 2 * lines + warps) + warp * stage_words;
  const int begin = blocks[blockIdx.x] * b;
  const int end = min(n, begin + b);
  const int hb = max(0, begin - span) & ~31;  // the first node with a bit here
  const int reached = static_cast<int>(min(static_cast<long long>(n), static_cast<long long>(end) + span));
  const int words = (reached - hb + 31) / 32;
  for (int w = threadIdx.x; w < words; w += blockDim.x) bits[w] = covered[hb / 32 + w];  // flags of earlier colours
  const int listed = lines > 1 ? lag[0] : -1;
  for (int e = threadIdx.x; e < 2 * listed; e += blockDim.x) lags[e] = lag[1 + e];
  if (threadIdx.x < warps) done[threadIdx.x] = threadIdx.x * q;
  __syncthreads();
  // listed < 0: the lags leave no room for a wavefront (or one line); warp 0 walks the block.
  const int walkers = listed < 0 ? 1 : warps;
  const Walk walk{begin, end, q, walkers};
  Window now_w = walk.at_line(warp), next_w = walk.after(now_w);
  if (warp >= walkers) now_w.base = next_w.base = end;
  Rows now = rows_of(now_w.base + lane, now_w.stop, rp), next = rows_of(next_w.base + lane, next_w.stop, rp);
  while (now_w.base < end) {
    const Window after_w = walk.after(next_w);
    const Rows after = rows_of(after_w.base + lane, after_w.stop, rp);
    {  // the columns of the next window into L1, a line per lane
      const Rows w = window_of(next, next_w.base, next_w.stop);
      for (offset_t a = w.r0 + 32 * lane; a < w.r1; a += 32 * 32) prefetch_l1(ci + a);
    }
    const int i = now_w.base + lane;
    const bool active = i < now_w.stop;
    const Rows w = window_of(now, now_w.base, now_w.stop);
    const offset_t e0 = w.r0, e1 = w.r1;
    const int len = static_cast<int>(now.r1 - now.r0);
    const bool staged = e1 - e0 <= stage_words;
    if (staged) {
      for (offset_t a = e0 + lane; a < e1; a += 32) stage[a - e0] = ci[a] - hb;
      __syncwarp();
    }
    {  // wait for the earlier lines this window depends on
      const int line_start = begin + now_w.line * q;
      const int x_last = min(now_w.base + 32, now_w.stop) - 1 - line_start;
      for (int c = 0; c < listed && lags[2 * c] <= now_w.line; ++c) {
        const int source = now_w.line - lags[2 * c], owner = source % walkers;
        const long long reach = static_cast<long long>(x_last) + lags[2 * c + 1];
        if (owner == warp || reach < 0) continue;  // the warp's own line, or nothing it depends on
        const int need = source * q + static_cast<int>(min(static_cast<long long>(q - 1), reach));
        while (done[owner] <= need) {
        }
      }
      __threadfence_block();  // what those windows wrote, before this one reads
    }
    // In a wavefront, the other lines may go on as soon as the nodes they
    // depend on are decided: the first undecided node is published after every
    // test of the window, not only at its end (a lone warp publishes nothing;
    // a window with no candidate left is published by its end, just below).
    const auto progress = [&](unsigned candidates) {
      if (walkers == 1 || candidates == 0) return;
      const int first = min(now_w.base + __ffs(candidates) - 1, now_w.stop);
      __threadfence_block();  // the covers so far, before the progress that announces them
      if (lane == 0) done[warp] = first - begin;
    };
    if (staged) {  // the usual case: every column read from shared memory
      decide_window<true>(bits, active ? stage + (now.r0 - e0) : stage, len, 0, i, hb, active,
                          [&](offset_t r0) { return stage + (r0 - e0); }, now.r0, in, progress);
    } else {
      decide_window<false>(bits, ci + now.r0, len, hb, i, hb, active, [&](offset_t r0) { return ci + r0; }, now.r0,
                           in, progress);
    }
    __syncwarp();  // the stage is rewritten by the next window; the covers are done
    __threadfence_block();
    if (lane == 0) done[warp] = next_w.base < end ? next_w.base - begin : INT_MAX;
    now_w = next_w;
    next_w = after_w;
    now = next;
    next = after;
  }
  __syncthreads();
  for (int w = threadIdx.x; w < words; w += blockDim.x) {
    const unsigned v = static_cast<volatile unsigned*>(bits)[w];
    if (v) atomicOr(covered + hb / 32 + w, v);  // for later colours
  }
}
}  // namespace

index_t row_period(const CsrMatrix& S) {
  if (S.rows() == 0) return 0;
  return period_rule(S, RowReach{S.row_ptr().data(), S.col().data()})[2];
}

std::array<index_t, 2> plane_lines(const CsrMatrix& S, index_t period) {
  if (S.rows() == 0 || period < 2) return {0, 0};
  const std::vector<index_t> r = period_rule(S, ReachWithinHalf{S.row_ptr().data(), S.col().data(), period / 2});
  return {r[0] ? 0 : r[2], r[2]};
}

namespace {
// The intervals, span and reach masks (BlockIntervalWords laid out for
// `blocks` blocks at `words`, zeroed) of S's blocks of block_size nodes, or
// of *size_at nodes where given (at most `blocks` of them: the shape decided
// on the device).
void launch_intervals(const CsrMatrix& S, index_t block_size, const index_t* size_at, index_t blocks,
                      std::uint32_t* words, cudaStream_t stream) {
  using W = BlockIntervalWords;
  if (blocks == 0) return;
  auto* span = reinterpret_cast<std::int32_t*>(words);
  std::int32_t* lo = span + W::lo(blocks);
  std::int32_t* hi = span + W::hi(blocks);
  std::uint32_t* reach = words + W::reach(blocks);
  identity_kernel<<<saga::cuda::grid_capped(blocks), kThreads, 0, stream>>>(blocks, lo, hi, S.rows(), size_at);
  SAGA_CUDA_LAUNCH("blocked MIS-2 intervals (identity)");
  intervals_kernel<<<saga::cuda::grid_capped(S.rows()), kThreads, 0, stream>>>(
      S.rows(), block_size, S.row_ptr().data(), S.col().data(), lo, hi, reach, span, size_at);
  SAGA_CUDA_LAUNCH("blocked MIS-2 intervals");
}
}  // namespace

void block_intervals(const CsrMatrix& S, index_t block_size, index_t blocks, Array<std::uint32_t>& words) {
  SAGA_REQUIRE(words.size() == BlockIntervalWords::size(blocks), "block intervals: {} words for {} blocks",
               words.size(), blocks);
  const cudaStream_t stream = device_stream();
  SAGA_CUDA(cudaMemsetAsync(words.data(), 0, words.size() * sizeof(std::uint32_t), stream));
  launch_intervals(S, block_size, nullptr, blocks, words.data(), stream);
}

void shape_and_intervals(const CsrMatrix& S, index_t min_size, int align, index_t max_size, index_t star_size,
                         index_t max_blocks, Array<std::uint32_t>& words) {
  SAGA_REQUIRE(words.size() == ShapeWords::size(max_blocks), "block shape and intervals: {} words for {} blocks",
               words.size(), max_blocks);
  SAGA_REQUIRE(min_size > 0 && max_size > 0 && align > 0, "block shape: sizes {} and {}, align {}", min_size,
               max_size, align);
  const cudaStream_t stream = device_stream();
  SAGA_CUDA(cudaMemsetAsync(words.data(), 0, words.size() * sizeof(std::uint32_t), stream));
  const index_t n = S.rows();
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  auto* w = reinterpret_cast<index_t*>(words.data());
  launch_period_rule(n, RowReach{rp, ci}, w, stream);
  launch_period_rule(n, ReachWithinHalfOfPeriod{rp, ci, w, min_size}, w + 3, stream);
  shape_kernel<<<1, 1, 0, stream>>>(n, min_size, align, max_size, star_size, w);
  SAGA_CUDA_LAUNCH("blocked MIS-2 block shape");
  launch_intervals(S, 1, w + 6, max_blocks, words.data() + ShapeWords::kHead, stream);  // the size read there
}

void blocked_mis2(const CsrMatrix& S, const BlockSchedule& schedule, Array<std::int32_t>& in_set) {
  const index_t n = S.rows();
  if (n == 0) return;
  const cudaStream_t stream = device_stream();
  const int b = schedule.block_size;
  // The wavefront's lines: one line (a warp walking the block) without a
  // line, with one warp, or with lines too many to track.
  int q = schedule.line > 0 && schedule.line < b ? schedule.line : b;
  int lines = (b + q - 1) / q;
  const int warps = std::clamp(std::min(schedule.line_warps, lines), 1, kMaxLineWarps);
  if (warps == 1 || lines > kMaxWaveLines) q = b, lines = 1;
  // Where the wavefront would not pay even at the delay of the least positive
  // lag (two windows a line: 5-point grids), no wavefront and no lags to find.
  if (lines > 1 && !wave_pays(q, lines, warps, 2.0)) q = b, lines = 1;
  const int used_warps = lines == 1 ? 1 : warps;
  const int stage_words = used_warps == 1 ? kStage : kStage / 4;
  // The widest block's flags: its nodes and span on both sides, whole words, one more for the rounding.
  const std::int64_t flag_words = (schedule.block_size + 2 * std::int64_t(schedule.span)) / 32 + 2;
  const std::size_t bytes = static_cast<std::size_t>(flag_words + 2 * lines + used_warps) * 4 +
                            static_cast<std::size_t>(used_warps) * stage_words * sizeof(index_t);
  const std::size_t most =
      static_cast<std::size_t>(saga::cuda::device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  SAGA_REQUIRE(bytes <= most,
               "blocked MIS-2: a block of {} nodes and span {} needs {} bytes of shared memory, the device has {}",
               schedule.block_size, schedule.span, bytes, most);
  if (bytes > 48 * 1024)
    SAGA_CUDA(cudaFuncSetAttribute(visit_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  Array<int> lag(lines > 1 ? 2 * lines : 0, Space::device, "blocked MIS-2 line lags");
  if (lines > 1) {
    const int slots = offset_slots(lines);
    Array<int> offsets(2 * static_cast<std::size_t>(slots), Space::device, "blocked MIS-2 line offsets");
    int* lo = offsets.data();
    int* hi = lo + slots;
    device_for_each(slots, saga::functors::FillInt32{lo, INT_MAX});
    device_for_each(slots, saga::functors::FillInt32{hi, INT_MIN});
    line_offsets_kernel<<<saga::cuda::grid_capped(n), kThreads, 2 * slots * sizeof(int), stream>>>(
        n, b, q, lines, slots, S.row_ptr().data(), S.col().data(), lo, hi);
    SAGA_CUDA_LAUNCH("blocked MIS-2 line offsets");
    line_lags_kernel<<<1, kThreads, 0, stream>>>(lines, q, used_warps, slots, lo, hi, lag.data());
    SAGA_CUDA_LAUNCH("blocked MIS-2 line lags");
  }
  const std::size_t n_words = (static_cast<std::size_t>(n) + 31) / 32;
  Array<unsigned> covered(n_words, Space::device, "blocked MIS-2 covered bits");
  SAGA_CUDA(cudaMemsetAsync(covered.data(), 0, n_words * sizeof(unsigned), stream));
  SAGA_CUDA(cudaMemsetAsync(in_set.data(), 0, sizeof(std::int32_t) * static_cast<std::size_t>(n), stream));
  const Array<index_t> order = Array<index_t>::from_vector(schedule.order, Space::device, "blocked MIS-2 order");
  for (int c = 0; c < schedule.colours(); ++c) {
    const index_t first = schedule.colour_start[c], count = schedule.colour_start[c + 1] - first;
    visit_kernel<<<static_cast<unsigned>(count), 32 * used_warps, bytes, stream>>>(
        n, b, q, lines, schedule.span, static_cast<int>(flag_words), stage_words, order.data() + first,
        lines > 1 ? lag.data() : nullptr, S.row_ptr().data(), S.col().data(), covered.data(), in_set.data());
    SAGA_CUDA_LAUNCH("blocked MIS-2 visit");
  }
}

}  // namespace saga::amg::cuda
