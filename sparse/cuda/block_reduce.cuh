#pragma once
// Deterministic block and two-pass reductions shared by the vector operations
// and the fused SpMV products: a fixed shuffle tree per warp, then per block,
// then one block over the partial sums — the same order on every run.
#include "sparse/cuda/launch.cuh"

namespace saga::cuda {

// Sum over the kBlockThreads threads of a block; the result is valid in thread 0.
template <int kBlockThreads = kThreads>
__device__ inline double block_sum(double s) {
  __shared__ double warp_sums[kBlockThreads / 32];
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < kBlockThreads / 32 ? warp_sums[threadIdx.x] : 0.0;
    for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
  }
  return s;
}

// Blocks of a grid-stride reduction over a vector: one partial sum each.
constexpr int kReduceBlocks = 512;

// Ends a block's share of a reduction: partial[blockIdx.x] = the block's sum of
// `mine` (every thread of the block must call it).
template <int kBlockThreads = kThreads>
__device__ inline void write_block_partial(double mine, double* partial) {
  mine = block_sum<kBlockThreads>(mine);
  if (threadIdx.x == 0) partial[blockIdx.x] = mine;
}

// Sum of partial[0, m) over one block of kBlockThreads; valid in thread 0. Four
// loads in flight per thread: a lone block reading 8192 partials one after the
// other waited 15 us on memory latency (twice per PCG iteration, 5% of it).
template <int kBlockThreads = kThreads>
__device__ inline double sum_partials(const double* partial, long long m) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  long long i = threadIdx.x;
  for (; i + 3 * kBlockThreads < m; i += 4 * kBlockThreads) {
    s0 += partial[i];
    s1 += partial[i + kBlockThreads];
    s2 += partial[i + 2 * kBlockThreads];
    s3 += partial[i + 3 * kBlockThreads];
  }
  for (; i < m; i += kBlockThreads) s0 += partial[i];
  return block_sum<kBlockThreads>((s0 + s1) + (s2 + s3));
}

// The block size of sum_partials_into (launch it as <<<1, kSumThreads>>>).
constexpr int kSumThreads = 1024;

// *out = sum of partial[0, m), or its square root with kSqrt (one block of
// kSumThreads; out may be partial). Starts with wait_for_prior_grid(), so it
// may be launched dependent (launch.cuh).
template <bool kSqrt = false>
__global__ __launch_bounds__(kSumThreads) void sum_partials_into(const double* partial, long long m, double* out) {
  wait_for_prior_grid();
  const double s = sum_partials<kSumThreads>(partial, m);
  if (threadIdx.x == 0) *out = kSqrt ? sqrt(s) : s;
}

}  // namespace saga::cuda
