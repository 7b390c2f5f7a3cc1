// The joining passes of aggregate_from_roots (amg/aggregation.hpp) for a small
// graph in one cooperative kernel: the host's functors, the two numberings
// (roots, then the leftovers of pass 3) as scans over contiguous chunks of
// nodes (each block its chunk, in node order, after the counts of the blocks
// before it), and the three counts the setup needs, read once. The same
// aggregates as the launched steps, which it replaces for the graphs the
// caller's bound admits (mis2 {cooperative_rows}).
#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

#include "amg/aggregation.hpp"
#include "amg/functors.hpp"
#include "sparse/cuda/cooperative.cuh"

namespace saga::amg::cuda {

namespace {
namespace cg = cooperative_groups;
using saga::cuda::kThreads;
using BlockScan = cub::BlockScan<int, kThreads>;

// Block b's nodes: [b chunk, min(n, (b + 1) chunk)).
struct Chunk {
  long long begin, end;
};
__device__ inline Chunk chunk_of(long long n, long long chunk) {
  const long long b = static_cast<long long>(blockIdx.x) * chunk;
  return {b, b + chunk < n ? b + chunk : n};
}

// The block's count of flag(i) over its chunk (valid in every thread).
template <class Flag>
__device__ int chunk_count(Chunk c, Flag flag, int* shared_total) {
  int mine = 0;
  for (long long i = c.begin + threadIdx.x; i < c.end; i += kThreads) mine += flag(i);
  if (threadIdx.x == 0) *shared_total = 0;
  __syncthreads();
  if (mine) atomicAdd(shared_total, mine);  // integers: exact in any order
  __syncthreads();
  const int t = *shared_total;
  __syncthreads();
  return t;
}

// number(i, first + exclusive prefix of flag in node order) for the flagged
// nodes of the chunk; counts[] holds every block's count (grid-synchronised).
template <class Flag, class Number>
__device__ void chunk_number(Chunk c, const int* counts, int first, Flag flag, Number number,
                             typename BlockScan::TempStorage& scan) {
  int base = first + saga::cuda::cta_sum(counts, blockIdx.x);
  for (long long t0 = c.begin; t0 < c.end; t0 += kThreads) {
    const long long i = t0 + threadIdx.x;
    const int f = i < c.end ? flag(i) : 0;
    int prefix = 0, tile = 0;
    BlockScan(scan).ExclusiveSum(f, prefix, tile);
    if (f) number(i, base + prefix);
    base += tile;
    __syncthreads();  // the scan's storage is reused by the next tile
  }
}

__global__ __launch_bounds__(kThreads) void join_kernel(index_t n, long long chunk, const offset_t* rp,
                                                         const index_t* ci, const double* v, std::int32_t* in_set,
                                                         index_t* roots, index_t* pass1, std::int32_t* unassigned,
                                                         int* counts, int* out) {
  cg::grid_group grid = cg::this_grid();
  __shared__ typename BlockScan::TempStorage scan;
  __shared__ int shared_total;
  const Chunk c = chunk_of(n, chunk);
  const amg_functors::DropIsolatedRoots drop{rp, ci, in_set};
  for (long long i = c.begin + threadIdx.x; i < c.end; i += kThreads) drop(i);
  // Roots numbered in node order.
  const auto is_root = [&](long long i) { return static_cast<int>(in_set[i]); };
  const int my_roots = chunk_count(c, is_root, &shared_total);
  if (threadIdx.x == 0) counts[blockIdx.x] = my_roots;
  grid.sync();
  for (long long i = c.begin + threadIdx.x; i < c.end; i += kThreads) roots[i] = -1;
  chunk_number(c, counts, 0, is_root, [&](long long i, int k) { roots[i] = k; }, scan);
  const int aggregates = saga::cuda::cta_sum(counts, gridDim.x);  // the roots' total, the first leftover's number
  grid.sync();
  // Pass 1 (neighbours of roots), pass 2 (neighbours of pass-1 nodes, back into roots).
  const amg_functors::JoinStrongest first{rp, ci, v, roots, pass1, unassigned};
  for (long long i = c.begin + threadIdx.x; i < c.end; i += kThreads) first(i);
  grid.sync();
  const amg_functors::JoinStrongest second{rp, ci, v, pass1, roots, unassigned};
  for (long long i = c.begin + threadIdx.x; i < c.end; i += kThreads) second(i);
  // Pass 3: the leftovers become aggregates after the roots' (counts' second half).
  const auto left_over = [&](long long i) { return static_cast<int>(unassigned[i]); };
  const int my_left = chunk_count(c, left_over, &shared_total);
  if (threadIdx.x == 0) counts[gridDim.x + blockIdx.x] = my_left;
  grid.sync();
  if (blockIdx.x == 0) {  // the whole CTA (cta_sum)
    const int left = saga::cuda::cta_sum(counts + gridDim.x, gridDim.x);
    if (threadIdx.x == 0) {
      out[0] = aggregates;
      out[1] = left;
    }
  }
  chunk_number(c, counts + gridDim.x, aggregates, left_over, [&](long long i, int k) { roots[i] = k; }, scan);
  // Nodes left unaggregated (-1), counted per block into counts[2 grid + b].
  const auto unaggregated = [&](long long i) { return static_cast<int>(roots[i] < 0); };
  const int my_out = chunk_count(c, unaggregated, &shared_total);
  if (threadIdx.x == 0) counts[2 * gridDim.x + blockIdx.x] = my_out;
  grid.sync();
  if (blockIdx.x == 0) {
    const int total = saga::cuda::cta_sum(counts + 2 * gridDim.x, gridDim.x);
    if (threadIdx.x == 0) out[2] = total;
  }
}
}  // namespace

bool aggregate_from_roots_cooperative(const CsrMatrix& S, Array<std::int32_t>& in_set, Aggregates& a) {
  const index_t n = S.rows();
  if (n == 0) return false;
  const void* kernel = reinterpret_cast<const void*>(join_kernel);
  static int per_sm = -1;
  const int blocks =
      saga::cuda::cooperative_blocks(kernel, (static_cast<long long>(n) + kThreads - 1) / kThreads, per_sm);
  if (blocks == 0) return false;
  long long chunk = (static_cast<long long>(n) + blocks - 1) / blocks;
  chunk = (chunk + kThreads - 1) / kThreads * kThreads;  // whole tiles, blocks * chunk >= n
  Array<index_t> roots(n, Space::device, "aggregate of node"), pass1(n, Space::device, "aggregate of node");
  Array<std::int32_t> unassigned(n, Space::device, "unassigned flags");
  Array<int> counts(3 * static_cast<std::size_t>(blocks), Space::device, "aggregation counts");
  Array<int> out(3, Space::device, "aggregation totals");
  index_t rows = n;
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  const double* v = S.val().data();
  std::int32_t* ip = in_set.data();
  index_t *rt = roots.data(), *p1 = pass1.data();
  std::int32_t* un = unassigned.data();
  int *cp = counts.data(), *op = out.data();
  void* args[] = {&rows, &chunk, &rp, &ci, &v, &ip, &rt, &p1, &un, &cp, &op};
  if (!saga::cuda::launch_cooperative(kernel, blocks, args, "aggregation joining passes (cooperative)")) return false;
  const std::vector<int> totals = out.to_vector();
  a.count = totals[0] + totals[1];
  a.unaggregated = totals[2];
  a.of_node = std::move(roots);
  return true;
}

}  // namespace saga::amg::cuda
