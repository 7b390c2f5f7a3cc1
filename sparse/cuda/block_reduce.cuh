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

// Sum of partial[0, m) over one block of kThreads; valid in thread 0.
__device__ inline double sum_partials(const double* partial, long long m) {
  double s = 0.0;
  for (long long i = threadIdx.x; i < m; i += blockDim.x) s += partial[i];
  return block_sum(s);
}

// *out = sum of partial[0, m), or its square root with kSqrt (one block of
// kThreads; out may be partial).
template <bool kSqrt = false>
__global__ void sum_partials_into(const double* partial, long long m, double* out) {
  const double s = sum_partials(partial, m);
  if (threadIdx.x == 0) *out = kSqrt ? sqrt(s) : s;
}

}  // namespace saga::cuda
