#pragma once
// Small helpers for kernel launches in the sparse layer.
#include <algorithm>
#include <cstdint>

#include "core/cuda_check.cuh"

namespace saga::cuda {

constexpr int kThreads = 256;

inline unsigned grid_for(std::int64_t work, int per_block = kThreads) {
  std::int64_t g = (work + per_block - 1) / per_block;
  if (g < 1) g = 1;
  return static_cast<unsigned>(g);
}

// Grid of a grid-stride loop over n elements: enough blocks to fill the GPU, at
// most `cap`.
inline unsigned grid_capped(std::int64_t n, unsigned cap = 4096) {
  const unsigned g = grid_for(n);
  return g < cap ? g : cap;
}

// Threads per row for rows of `mean` entries on average: the power of two from
// `min_lanes` to 32 that gives each lane about `per_lane` entries. Used where a
// kernel takes a group of lanes per row (DCSR SpMV and compaction, the binned
// SpGEMM's analysis, the transpose's entry rows).
inline int lanes_for(double mean, double per_lane, int min_lanes = 1) {
  int v = min_lanes;
  while (v < 32 && v * per_lane < mean) v *= 2;
  return v;
}

// An attribute of the current device (callers keep what they need in a
// function-local static: one driver query per process).
inline int device_attribute(cudaDeviceAttr attribute) {
  int dev = 0, value = 0;
  SAGA_CUDA(cudaGetDevice(&dev));
  SAGA_CUDA(cudaDeviceGetAttribute(&value, attribute, dev));
  return value;
}
inline int multiprocessor_count() {
  static const int sms = std::max(1, device_attribute(cudaDevAttrMultiProcessorCount));
  return sms;
}

// Grid-stride loop index helpers.
__device__ inline std::int64_t global_thread() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline std::int64_t grid_stride() { return static_cast<std::int64_t>(gridDim.x) * blockDim.x; }

}  // namespace saga::cuda
