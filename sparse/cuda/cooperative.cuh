#pragma once
// Cooperative launches (a whole iteration in one kernel with grid barriers:
// the Lanczos steps of rho(D^-1 A), the MIS-2 rounds of small graphs). The
// grid must be co-resident: at most the kernel's blocks per SM times the SMs.
#include <algorithm>

#include "core/device.hpp"
#include "sparse/cuda/launch.cuh"

namespace saga::cuda {

// Blocks of `threads` (kThreads unless said) for a cooperative launch of `kernel` wanting `wanted`
// blocks: at most the co-resident count; 0 where the device cannot launch one.
// blocks_per_sm is the caller's function-local static (one occupancy query per
// kernel), -1 before the first call.
inline int cooperative_blocks(const void* kernel, long long wanted, int& blocks_per_sm, int threads = kThreads) {
  if (blocks_per_sm < 0) {
    int dev = 0;
    SAGA_CUDA(cudaGetDevice(&dev));
    int ok = 0;
    SAGA_CUDA(cudaDeviceGetAttribute(&ok, cudaDevAttrCooperativeLaunch, dev));
    blocks_per_sm = 0;
    if (ok) SAGA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, threads, 0));
  }
  if (blocks_per_sm < 1) return 0;
  const long long resident = static_cast<long long>(blocks_per_sm) * multiprocessor_count();
  return static_cast<int>(std::max(1LL, std::min(wanted, resident)));
}

// The sum of values[0, m) in every thread of the CTA (kThreads threads, all
// calling; integers: exact in any order): the threads read it strided and
// reduce. A cooperative kernel's per-block counts after a grid barrier are
// read this way, not by one thread's loop over a thousand blocks' counts (a
// chain of L2 round trips: most of the joining passes' 139 us on 2D 5-pt
// N = 1024's level 0, H100).
__device__ inline int cta_sum(const int* values, long long m) {
  __shared__ int warp_sums[kThreads / 32];
  int s = 0;
  for (long long b = threadIdx.x; b < m; b += kThreads) s += values[b];
  s = __reduce_add_sync(0xffffffffu, s);
  __syncthreads();  // an earlier call's reads of warp_sums are done
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = s;
  __syncthreads();
  int total = 0;
  for (int w = 0; w < kThreads / 32; ++w) total += warp_sums[w];
  return total;
}

// Launches it on saga's stream; false (the error cleared) where the grid turns
// out not to fit after all (SMs held by another context, MPS, a debugger): the
// caller falls back to its launched path. Any other error throws.
inline bool launch_cooperative(const void* kernel, int blocks, void** args, const char* what,
                               dim3 block = dim3(kThreads)) {
  const cudaError_t e = cudaLaunchCooperativeKernel(kernel, dim3(blocks), block, args, 0, ::saga::device_stream());
  if (e == cudaErrorCooperativeLaunchTooLarge) {
    (void)cudaGetLastError();
    return false;
  }
  SAGA_CUDA(e);
  SAGA_CUDA_LAUNCH(what);
  return true;
}

}  // namespace saga::cuda
