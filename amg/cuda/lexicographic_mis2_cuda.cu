// The lexicographically first MIS-2 on the GPU as a dataflow kernel: a node
// polls the lower-numbered nodes within distance 2 until it sees a member (the
// node is out) or all of them decided and none a member (in). The result is
// the unique set of the host's sweep, whatever the timing.
//
// States are written once (undecided -> in/out) with relaxed device-scope
// atomics. Cost (H100, docs/aggregation.md): the depth of the dependency chain
// (2217 steps on 2D 5-point N = 1024) times several microseconds per step:
// 3-80 ms on the seed problems' finest levels, 5-30x the random-priority
// MIS-2. Tried and measured: a thread or a group of lanes per node with
// block-sized tiles, watching only the latest undecided dependency, other
// back-off caps.
#include <algorithm>
#include <cuda/atomic>

#include "amg/lexicographic_mis2.hpp"
#include "core/cuda_check.cuh"
#include "sparse/cuda/launch.cuh"

namespace saga::amg::cuda {

// Mean row length up to which a lane decides a node alone (kernel choice).
constexpr double kLanePerNodeMaxRow = 12;

namespace {
constexpr int kBlock = 256;  // 8 warps
enum : int { kUndecided = 0, kIn = 1, kOut = 2 };

__device__ inline int load_state(int* state, index_t k) {
  return ::cuda::atomic_ref<int, ::cuda::thread_scope_device>(state[k]).load(::cuda::memory_order_relaxed);
}
__device__ inline void store_state(int* state, std::int64_t i, int v) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_device>(state[i]).store(v, ::cuda::memory_order_relaxed);
}

// Polling node i's dependencies (the lower-numbered nodes of {j} + N(j), j in
// N(i)) that this lane handles: positions lane, lane + stride, ... of the
// flattened list. Those at or above `first` (the lanes before this one in the
// same warp) are internal: recorded once as a lane mask, resolved in registers
// (see lane_per_node_kernel). The external ones are loaded in one pass without
// waiting on each other (the loads overlap); bit p of `pending` remembers that
// the p-th was undecided (those past the 64th are always reloaded): decided
// states never change, so a poll loads only the pending ones.
struct Poller {
  std::uint64_t pending = ~0ull;
  std::uint32_t internal = 0;
  bool any_in = false, any_undecided = true;

  // Returns whether anything changed since the last poll (a dependency decided).
  __device__ bool poll(std::int64_t i, std::int64_t first, const offset_t* __restrict__ rp,
                       const index_t* __restrict__ ci, int* state, int lane, int stride) {
    const std::uint64_t before = pending;
    const bool was_undecided = any_undecided;
    any_undecided = false;
    std::uint64_t still = 0;
    int p = 0;
    offset_t off = lane;
    for (offset_t a = rp[i]; a < rp[i + 1]; ++a) {
      const index_t j = ci[a];
      const offset_t b0 = rp[j], len = rp[j + 1] - b0 + 1;  // position 0: j itself
      for (; off < len; off += stride) {
        const index_t k = off == 0 ? j : ci[b0 + off - 1];
        if (k >= i) continue;
        if (k >= first) {
          internal |= 1u << (k - first);
          continue;
        }
        if (p >= 64 || (pending >> p & 1u)) {
          const int st = load_state(state, k);
          any_in |= st == kIn;
          if (st == kUndecided) {
            any_undecided = true;
            if (p < 64) still |= 1ull << p;
          }
        }
        ++p;
      }
      off -= len;
    }
    pending = still;
    return pending != before || any_in || any_undecided != was_undecided;
  }
};

// Work is handed out by a ticket counter in node order, so a warp only ever
// waits for nodes held by warps that are already running, or done (the
// look-back rule of single-pass scans): no deadlock, whatever the grid. A
// warp polls until its nodes are decided, in lockstep (no divergent spinning);
// a pass in which no dependency was decided backs off exponentially: the
// polls of the many warps far from the front would otherwise fill the memory
// system (each poll is a sector read; at ~5 TB/s of L2 a round of polls of
// the whole window took 6 us, which was the cost of every step).
constexpr unsigned kMaxSleepNs = 4096;

// Sparse rows: a warp takes 32 consecutive nodes, one per lane. After each
// poll of the external dependencies, one sweep in lane order decides every
// node it can, using the decisions made earlier in the same sweep: the chain
// of dependencies inside the 32 nodes (along a grid line: about 21 steps)
// costs one pass instead of one pass per step.
__global__ void __launch_bounds__(kBlock) lane_per_node_kernel(index_t n, const offset_t* __restrict__ rp,
                                                               const index_t* __restrict__ ci, int* state,
                                                               unsigned* ticket) {
  const int lane = threadIdx.x % 32;
  constexpr unsigned kAll = 0xffffffffu;
  for (;;) {
    unsigned chunk = 0;
    if (lane == 0) chunk = atomicAdd(ticket, 1u);
    chunk = __shfl_sync(kAll, chunk, 0);
    const std::int64_t first = static_cast<std::int64_t>(chunk) * 32;
    if (first >= n) return;
    const std::int64_t i = first + lane;
    std::uint32_t decided = __ballot_sync(kAll, i >= n), in = 0;
    Poller poller;
    unsigned sleep_ns = 32;
    while (decided != kAll) {
      bool moved = false;
      if (!(decided >> lane & 1u)) moved = poller.poll(i, first, rp, ci, state, 0, 1);
      const std::uint32_t ext_in = __ballot_sync(kAll, poller.any_in);
      const std::uint32_t ext_undecided = __ballot_sync(kAll, poller.any_undecided);
      const std::uint32_t before = decided;
      for (int l = 0; l < 32; ++l) {
        if (decided >> l & 1u) continue;  // uniform: every lane holds the same masks
        const std::uint32_t mask = __shfl_sync(kAll, poller.internal, l);
        if ((ext_in >> l & 1u) || (mask & in)) {
          decided |= 1u << l;
        } else if (!(ext_undecided >> l & 1u) && !(mask & ~decided)) {
          decided |= 1u << l;
          in |= 1u << l;
        }
      }
      if ((decided & ~before) >> lane & 1u) store_state(state, i, in >> lane & 1u ? kIn : kOut);
      if (decided != before || __any_sync(kAll, moved)) {
        sleep_ns = 32;
      } else {
        __nanosleep(sleep_ns);
        sleep_ns = sleep_ns < kMaxSleepNs ? 2 * sleep_ns : kMaxSleepNs;
      }
    }
  }
}

// Dense rows: a warp takes one node and deals its dependencies over the lanes.
__global__ void __launch_bounds__(kBlock) warp_per_node_kernel(index_t n, const offset_t* __restrict__ rp,
                                                               const index_t* __restrict__ ci, int* state,
                                                               unsigned* ticket) {
  const int lane = threadIdx.x % 32;
  for (;;) {
    unsigned node = 0;
    if (lane == 0) node = atomicAdd(ticket, 1u);
    node = __shfl_sync(0xffffffffu, node, 0);
    const std::int64_t i = node;
    if (i >= n) return;
    Poller poller;
    unsigned sleep_ns = 32;
    for (;;) {
      const bool moved = __any_sync(0xffffffffu, poller.poll(i, i, rp, ci, state, lane, 32));
      const bool any_in = __any_sync(0xffffffffu, poller.any_in);
      if (any_in || !__any_sync(0xffffffffu, poller.any_undecided)) {
        if (lane == 0) store_state(state, i, any_in ? kOut : kIn);
        break;
      }
      if (moved) {
        sleep_ns = 32;
        continue;
      }
      __nanosleep(sleep_ns);
      sleep_ns = sleep_ns < kMaxSleepNs ? 2 * sleep_ns : kMaxSleepNs;
    }
  }
}

__global__ void members_kernel(index_t n, const int* __restrict__ state, std::int32_t* __restrict__ in) {
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride()) in[i] = state[i] == kIn;
}

// Enough blocks to fill the GPU once: warps loop over tickets.
template <class K>
unsigned resident_blocks(K kernel) {
  int device = 0, sms = 0, per_sm = 0;
  SAGA_CUDA(cudaGetDevice(&device));
  SAGA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  SAGA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0));
  return static_cast<unsigned>(sms * (per_sm > 0 ? per_sm : 1));
}
}  // namespace

void lexicographic_mis2(const CsrMatrix& S, Array<std::int32_t>& in_set) {
  const index_t n = S.rows();
  if (n == 0) return;
  const cudaStream_t stream = device_stream();
  Array<int> state(n, Space::device, "MIS-2 state");
  Array<unsigned> ticket(1, Space::device, "MIS-2 ticket");
  SAGA_CUDA(cudaMemsetAsync(state.data(), 0, sizeof(int) * static_cast<std::size_t>(n), stream));
  SAGA_CUDA(cudaMemsetAsync(ticket.data(), 0, sizeof(unsigned), stream));
  // A lane per node while a node's dependencies (about mean^2) fit one lane's
  // poll; a warp per node on dense (coarse-level) rows.
  const double mean = static_cast<double>(S.nnz()) / n;
  if (mean <= kLanePerNodeMaxRow) {
    const unsigned grid = std::min(resident_blocks(lane_per_node_kernel), saga::cuda::grid_for(n, kBlock));
    lane_per_node_kernel<<<grid, kBlock, 0, stream>>>(n, S.row_ptr().data(), S.col().data(), state.data(),
                                                      ticket.data());
  } else {
    const unsigned grid = std::min(resident_blocks(warp_per_node_kernel), saga::cuda::grid_for(n, kBlock / 32));
    warp_per_node_kernel<<<grid, kBlock, 0, stream>>>(n, S.row_ptr().data(), S.col().data(), state.data(),
                                                      ticket.data());
  }
  SAGA_CUDA_LAUNCH("lexicographic MIS-2");
  members_kernel<<<saga::cuda::grid_capped(n), saga::cuda::kThreads, 0, stream>>>(n, state.data(), in_set.data());
  SAGA_CUDA_LAUNCH("lexicographic MIS-2 members");
}

}  // namespace saga::amg::cuda
