// The lexicographically first MIS-2 on the GPU as a dataflow kernel: one
// thread per node, which waits for each lower-numbered node within distance 2
// to be decided and leaves the set at the first member it sees; with none, it
// joins. The result is the unique set of the host's sweep, whatever the timing.
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
constexpr int kTile = 128;
enum : int { kUndecided = 0, kIn = 1, kOut = 2 };

__device__ inline int wait_decided(int* state, index_t k) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_device> s(state[k]);
  int v = s.load(::cuda::memory_order_relaxed);
  while (v == kUndecided) {
    __nanosleep(32);
    v = s.load(::cuda::memory_order_relaxed);
  }
  return v;
}

__global__ void __launch_bounds__(kTile) lexicographic_kernel(index_t n, const offset_t* __restrict__ rp,
                                                              const index_t* __restrict__ ci, int* state,
                                                              unsigned* ticket) {
  __shared__ unsigned tile;
  if (threadIdx.x == 0) tile = atomicAdd(ticket, 1u);
  __syncthreads();
  const std::int64_t i = static_cast<std::int64_t>(tile) * kTile + threadIdx.x;
  if (i >= n) return;
  int decision = kIn;
  for (offset_t a = rp[i]; a < rp[i + 1] && decision == kIn; ++a) {
    const index_t j = ci[a];
    if (j < i && wait_decided(state, j) == kIn) {
      decision = kOut;
      break;
    }
    for (offset_t b = rp[j]; b < rp[j + 1]; ++b) {
      const index_t k = ci[b];
      if (k < i && k != j && wait_decided(state, k) == kIn) {
        decision = kOut;
        break;
      }
    }
  }
  ::cuda::atomic_ref<int, ::cuda::thread_scope_device>(state[i]).store(decision, ::cuda::memory_order_relaxed);
}

__global__ void members_kernel(index_t n, const int* __restrict__ state, std::int32_t* __restrict__ in) {
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride()) in[i] = state[i] == kIn;
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
  lexicographic_kernel<<<saga::cuda::grid_for(n, kTile), kTile, 0, stream>>>(n, S.row_ptr().data(), S.col().data(),
                                                                            state.data(), ticket.data());
  SAGA_CUDA_LAUNCH("lexicographic MIS-2");
  members_kernel<<<saga::cuda::grid_capped(n), saga::cuda::kThreads, 0, stream>>>(n, state.data(), in_set.data());
  SAGA_CUDA_LAUNCH("lexicographic MIS-2 members");
}

}  // namespace saga::amg::cuda
