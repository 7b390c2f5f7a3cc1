// MIS-2 rounds of a small graph in one cooperative kernel (amg/mis2.hpp): the
// two halves of each full-sweep round (amg/functors.hpp, the host's code) with
// a grid barrier after each, and the count of undecided nodes summed by every
// block in the same order, so that every block leaves the loop together.
#include <cooperative_groups.h>

#include "amg/functors.hpp"
#include "amg/mis2.hpp"
#include "sparse/cuda/cooperative.cuh"

namespace saga::amg::cuda {

namespace {
namespace cg = cooperative_groups;
using saga::cuda::kThreads;

__global__ __launch_bounds__(kThreads) void mis2_rounds_kernel(amg_functors::Mis2NeighbourMax max,
                                                                amg_functors::Mis2Decide decide, index_t n,
                                                                int max_rounds, int* counts, int* out_rounds) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int block_left, total;
  const long long tid = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  int round = 0;
  for (;;) {
    ++round;
    for (long long i = tid; i < n; i += stride) max(i);
    grid.sync();
    if (threadIdx.x == 0) block_left = 0;
    __syncthreads();
    int mine = 0;
    for (long long i = tid; i < n; i += stride) {
      decide(i);
      mine += decide.undecided[i];
    }
    if (mine) atomicAdd(&block_left, mine);  // an integer count: exact in any order
    __syncthreads();
    if (threadIdx.x == 0) counts[(round & 1) * gridDim.x + blockIdx.x] = block_left;
    grid.sync();
    if (threadIdx.x == 0) {  // every block sums the same counts (this round's half of the array)
      int t = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) t += counts[(round & 1) * gridDim.x + b];
      total = t;
    }
    __syncthreads();
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
  Array<int> counts(2 * static_cast<std::size_t>(blocks), Space::device, "MIS-2 undecided counts");
  Array<int> out(1, Space::device, "MIS-2 rounds");
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  amg_functors::Mis2NeighbourMax max{rp, ci, role, state.data(), seed_hash, t1.data()};
  amg_functors::Mis2Decide decide{rp, ci, role, t1.data(), state.data(), undecided.data()};
  index_t rows = n;
  int* cp = counts.data();
  int* op = out.data();
  void* args[] = {&max, &decide, &rows, &max_rounds, &cp, &op};
  if (!saga::cuda::launch_cooperative(kernel, blocks, args, "MIS-2 rounds (cooperative)")) return false;
  *rounds = out.get(0);
  return true;
}

}  // namespace saga::amg::cuda
