// The lexicographically first MIS-2 on the GPU as a dataflow kernel: a group
// of lanes per node polls the lower-numbered nodes within distance 2 until it
// sees a member (the node is out) or all of them decided and none a member (in).
// The result is the unique set of the host's sweep, whatever the timing.
//
// Progress: blocks take their tile of nodes from a ticket counter, so a tile
// only ever waits for tiles that were handed to blocks already running (the
// look-back rule of single-pass scans). Lanes of one warp wait for each other
// too, which sm_70+'s independent thread scheduling allows. States are written
// once (undecided -> in/out) with relaxed device-scope atomics.
#include <cuda/atomic>

#include "amg/lexicographic_mis2.hpp"
#include "core/cuda_check.cuh"
#include "sparse/cuda/launch.cuh"

namespace saga::amg::cuda {

namespace {
constexpr int kBlock = 128;
enum : int { kUndecided = 0, kIn = 1, kOut = 2 };

__device__ inline int load_state(int* state, index_t k) {
  return ::cuda::atomic_ref<int, ::cuda::thread_scope_device>(state[k]).load(::cuda::memory_order_relaxed);
}

// A group of G lanes decides one node. Its dependencies, the lower-numbered
// nodes of {j} + N(j) for j in N(i), are dealt round-robin over the lanes;
// each pass loads them all without waiting on any (the loads overlap), then the
// group votes: a member among them -> out; none undecided -> in; else poll again.
template <int G>
__global__ void __launch_bounds__(kBlock) lexicographic_kernel(index_t n, const offset_t* __restrict__ rp,
                                                               const index_t* __restrict__ ci, int* state,
                                                               unsigned* ticket) {
  __shared__ unsigned tile;
  if (threadIdx.x == 0) tile = atomicAdd(ticket, 1u);
  __syncthreads();
  const int lane = threadIdx.x % G;
  const std::int64_t i = static_cast<std::int64_t>(tile) * (kBlock / G) + threadIdx.x / G;
  if (i >= n) return;  // the whole group
  const unsigned mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (threadIdx.x % 32 / G * G);
  const offset_t r0 = rp[i], r1 = rp[i + 1];
  int decision;
  for (;;) {
    bool any_in = false, any_undecided = false;
    offset_t off = lane;
    for (offset_t a = r0; a < r1; ++a) {
      const index_t j = ci[a];
      const offset_t b0 = rp[j], len = rp[j + 1] - b0 + 1;  // position 0: j itself
      for (; off < len; off += G) {
        const index_t k = off == 0 ? j : ci[b0 + off - 1];
        if (k >= i) continue;
        const int st = load_state(state, k);
        any_in |= st == kIn;
        any_undecided |= st == kUndecided;
      }
      off -= len;
    }
    if (__any_sync(mask, any_in)) {
      decision = kOut;
      break;
    }
    if (!__any_sync(mask, any_undecided)) {
      decision = kIn;
      break;
    }
    __nanosleep(64);
  }
  if (lane == 0)
    ::cuda::atomic_ref<int, ::cuda::thread_scope_device>(state[i]).store(decision, ::cuda::memory_order_relaxed);
}

__global__ void members_kernel(index_t n, const int* __restrict__ state, std::int32_t* __restrict__ in) {
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride()) in[i] = state[i] == kIn;
}

template <int G>
void launch(const CsrMatrix& S, int* state, unsigned* ticket, cudaStream_t stream) {
  const index_t n = S.rows();
  lexicographic_kernel<G><<<saga::cuda::grid_for(n, kBlock / G), kBlock, 0, stream>>>(
      n, S.row_ptr().data(), S.col().data(), state, ticket);
}
}  // namespace

void lexicographic_mis2(const CsrMatrix& S, Array<std::int32_t>& in_set) {
  const index_t n = S.rows();
  if (n == 0) return;
  const cudaStream_t stream = device_stream();
  Array<int> state(n, Space::device, "MIS-2 state");
  Array<unsigned> ticket(1, Space::device, "MIS-2 tile ticket");
  SAGA_CUDA(cudaMemsetAsync(state.data(), 0, sizeof(int) * static_cast<std::size_t>(n), stream));
  SAGA_CUDA(cudaMemsetAsync(ticket.data(), 0, sizeof(unsigned), stream));
  // Lanes per node: about one per entry of a row, so that a pass loads about
  // a row's worth of dependencies per lane.
  const double mean = static_cast<double>(S.nnz()) / n;
  if (mean <= 4)
    launch<4>(S, state.data(), ticket.data(), stream);
  else if (mean <= 8)
    launch<8>(S, state.data(), ticket.data(), stream);
  else if (mean <= 16)
    launch<16>(S, state.data(), ticket.data(), stream);
  else
    launch<32>(S, state.data(), ticket.data(), stream);
  SAGA_CUDA_LAUNCH("lexicographic MIS-2");
  members_kernel<<<saga::cuda::grid_capped(n), saga::cuda::kThreads, 0, stream>>>(n, state.data(), in_set.data());
  SAGA_CUDA_LAUNCH("lexicographic MIS-2 members");
}

}  // namespace saga::amg::cuda
