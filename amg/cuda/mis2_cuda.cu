// MIS-2 rounds of a small graph in one cooperative kernel (amg/mis2.hpp): the
// two halves of each full-sweep round (amg/functors.hpp, the host's code; rows
// of more than 128 entries a warp each) with a grid barrier after each, and the
// count of undecided nodes summed by every block in the same order, so that
// every block leaves the loop together.
#include <cooperative_groups.h>

#include <algorithm>

#include "amg/functors.hpp"
#include "amg/mis2.hpp"
#include "sparse/cuda/cooperative.cuh"
#include "sparse/cuda/launch.cuh"

namespace saga::amg::cuda {

namespace {
namespace cg = cooperative_groups;
using saga::cuda::kThreads;

// Rows longer than this (the hubs of a power-law graph: 10^4 entries and more)
// take a warp each; a thread walking such a row held every round back
// (R-MAT Laplacian 2^16: 16 ms of level 0's aggregation, H100).
constexpr offset_t kWarpRow = 128;

__global__ void list_long_rows_kernel(index_t n, const offset_t* rp, index_t* list, int* count) {
  for (std::int64_t i = saga::cuda::global_thread(); i < n; i += saga::cuda::grid_stride())
    if (rp[i + 1] - rp[i] > kWarpRow) list[atomicAdd(count, 1)] = static_cast<index_t>(i);  // any order
}

__device__ inline std::uint64_t warp_max(std::uint64_t m) {
  for (int off = 16; off > 0; off /= 2) {
    const std::uint64_t o = __shfl_xor_sync(0xffffffffu, m, off);
    m = o > m ? o : m;
  }
  return m;
}

// A round's halves for a long row i, a warp's lanes over the row: the same
// maxima as Mis2NeighbourMax and mis2_decide (a maximum has no order).
__device__ void warp_neighbour_max(const amg_functors::Mis2NeighbourMax& f, index_t i, int lane) {
  std::uint64_t m = lane == 0 ? amg_functors::mis2_tuple(f.state[i], i, f.seed_hash) : 0;
  for (offset_t k = f.rp[i] + lane; k < f.rp[i + 1]; k += 32) {
    const index_t j = f.ci[k];
    if (f.role && f.role[j] == 0) continue;
    const std::uint64_t t = amg_functors::mis2_tuple(f.state[j], j, f.seed_hash);
    m = t > m ? t : m;
  }
  m = warp_max(m);
  if (lane == 0) f.t1[i] = m;
}
// Returns (on lane 0) whether i is still undecided.
__device__ int warp_decide(const amg_functors::Mis2Decide& f, index_t i, int lane) {
  if (f.state[i] != amg_functors::kUndecided) {  // the same for the whole warp
    if (lane == 0) f.undecided[i] = 0;
    return 0;
  }
  std::uint64_t m = lane == 0 ? f.t1[i] : 0;
  for (offset_t k = f.rp[i] + lane; k < f.rp[i + 1]; k += 32) {
    const index_t j = f.ci[k];
    if (f.role && f.role[j] == 0) continue;
    m = f.t1[j] > m ? f.t1[j] : m;
  }
  m = warp_max(m);
  if (lane != 0) return 0;
  amg_functors::mis2_settle(f.state, i, m);
  f.undecided[i] = f.state[i] == amg_functors::kUndecided;
  return f.undecided[i];
}

__global__ __launch_bounds__(kThreads) void mis2_rounds_kernel(amg_functors::Mis2NeighbourMax max,
                                                                amg_functors::Mis2Decide decide, index_t n,
                                                                const index_t* long_rows, const int* long_count,
                                                                int max_rounds, int* counts, int* out_rounds) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int block_left;
  const long long tid = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  const long long warp = tid / 32, warps = stride / 32;
  const int lane = threadIdx.x % 32;
  const int n_long = *long_count;
  const offset_t* rp = max.rp;
  int round = 0;
  for (;;) {
    ++round;
    for (long long i = tid; i < n; i += stride)
      if (rp[i + 1] - rp[i] <= kWarpRow) max(i);
    for (long long r = warp; r < n_long; r += warps) warp_neighbour_max(max, long_rows[r], lane);
    grid.sync();
    if (threadIdx.x == 0) block_left = 0;
    __syncthreads();
    int mine = 0;
    for (long long i = tid; i < n; i += stride)
      if (rp[i + 1] - rp[i] <= kWarpRow) {
        decide(i);
        mine += decide.undecided[i];
      }
    for (long long r = warp; r < n_long; r += warps) mine += warp_decide(decide, long_rows[r], lane);
    if (mine) atomicAdd(&block_left, mine);  // an integer count: exact in any order
    __syncthreads();
    if (threadIdx.x == 0) counts[(round & 1) * gridDim.x + blockIdx.x] = block_left;
    grid.sync();
    // every block sums the same counts (this round's half of the array)
    const int total = saga::cuda::cta_sum(counts + (round & 1) * gridDim.x, gridDim.x);
    if (total == 0 || round >= max_rounds) break;
  }
  if (tid == 0) *out_rounds = round;
}
}  // namespace

bool mis2_rounds_cooperative(const CsrMatrix& S, std::uint32_t seed_hash, const std::int32_t* role,
                             Array<std::int32_t>& state, Array<std::uint64_t>& t1, Array<std::int32_t>& undecided,
                             int max_rounds, int* rounds) {
  const index_t n = S.rows();
  if (n == 0) return false;
  const void* kernel = reinterpret_cast<const void*>(mis2_rounds_kernel);
  static int per_sm = -1;
  const int blocks =
      saga::cuda::cooperative_blocks(kernel, (static_cast<long long>(n) + kThreads - 1) / kThreads, per_sm);
  if (blocks == 0) return false;
  Array<int> counts(2 * static_cast<std::size_t>(blocks) + 1, Space::device, "MIS-2 undecided counts");
  Array<int> out(1, Space::device, "MIS-2 rounds");
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  // The rows a warp takes: at most nnz / (kWarpRow + 1) of them; their count
  // stays on the device (the kernel reads it).
  const std::size_t most_long = std::min<std::size_t>(n, static_cast<std::size_t>(S.nnz() / (kWarpRow + 1)) + 1);
  Array<index_t> long_rows(most_long, Space::device, "MIS-2 long rows");
  int* long_count = counts.data() + 2 * blocks;
  SAGA_CUDA(cudaMemsetAsync(long_count, 0, sizeof(int), ::saga::device_stream()));
  list_long_rows_kernel<<<saga::cuda::grid_capped(n), kThreads, 0, ::saga::device_stream()>>>(n, rp, long_rows.data(),
                                                                                             long_count);
  SAGA_CUDA_LAUNCH("MIS-2 long rows");
  amg_functors::Mis2NeighbourMax max{rp, ci, role, state.data(), seed_hash, t1.data()};
  amg_functors::Mis2Decide decide{rp, ci, role, t1.data(), state.data(), undecided.data()};
  index_t rows = n;
  const index_t* lp = long_rows.data();
  const int* lc = long_count;
  int* cp = counts.data();
  int* op = out.data();
  void* args[] = {&max, &decide, &rows, &lp, &lc, &max_rounds, &cp, &op};
  if (!saga::cuda::launch_cooperative(kernel, blocks, args, "MIS-2 rounds (cooperative)")) return false;
  *rounds = out.get(0);
  return true;
}

}  // namespace saga::amg::cuda
