#pragma once
// Small helpers for kernel launches in the sparse layer.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

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

// ---- programmatic dependent launch (core/device.hpp, sm_90) -------------------
// Kernels of the solve phase are short (a coarse level's pass takes a few
// microseconds), so the gap between one kernel's last wave and the next
// kernel's first is a large part of a cycle. launch_dependent() lets the
// runtime schedule a kernel's CTAs while the kernel ahead of it on the stream
// (or in a captured graph) is still finishing. Such a kernel must start with
// wait_for_prior_grid() before it touches memory, in every CTA and on every
// path: it waits until the kernel ahead has finished and its writes are
// visible (so a chain of such kernels stays ordered end to end), then allows
// the next dependent kernel to be scheduled. Nothing else changes: the same
// kernels in the same order, bit for bit the same results.
__device__ __forceinline__ void wait_for_prior_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Grids of more CTAs than this per multiprocessor (about 16 waves of 256-thread
// CTAs) are launched plain: their launch gap is under 1% of their time, and
// launched dependent the fine level's passes of 3D 7-pt N=256 (65k CTAs) ran
// 10% slower on the H100 (docs/spmv.md, "Dependent launches").
constexpr unsigned kDependentMaxCtasPerSm = 128;

// kernel<<<grid, block, smem, stream>>>(args...) as a dependent launch where
// device::dependent_launch() allows it and the grid is at most
// kDependentMaxCtasPerSm per multiprocessor, else as a plain one; with
// carveout_percent >= 0 the launch also asks for that shared memory carveout
// (a launch attribute, so captured graphs keep it); `what` names the kernel in
// the error.
template <class... Params, class... Args>
void launch_dependent_carveout(const char* what, void (*kernel)(Params...), unsigned grid, unsigned block,
                               std::size_t smem, int carveout_percent, cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attributes[2]{};
  attributes[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attributes[0].val.programmaticStreamSerializationAllowed =
      grid <= kDependentMaxCtasPerSm * static_cast<unsigned>(multiprocessor_count()) &&
              ::saga::device::dependent_launch()
          ? 1
          : 0;
  attributes[1].id = cudaLaunchAttributePreferredSharedMemoryCarveout;
  attributes[1].val.sharedMemCarveout = static_cast<unsigned>(carveout_percent);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = carveout_percent >= 0 ? 2 : 1;
  const cudaError_t e = cudaLaunchKernelEx(&config, kernel, static_cast<Params>(std::forward<Args>(args))...);
  if (e != cudaSuccess) ::saga::cuda_detail::throw_cuda_error(e, what, __FILE__, __LINE__);
  SAGA_CUDA_LAUNCH(what);
}
template <class... Params, class... Args>
void launch_dependent(const char* what, void (*kernel)(Params...), unsigned grid, unsigned block,
                      std::size_t smem, cudaStream_t stream, Args&&... args) {
  launch_dependent_carveout(what, kernel, grid, block, smem, -1, stream, std::forward<Args>(args)...);
}

// Grid-stride loop index helpers.
__device__ inline std::int64_t global_thread() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline std::int64_t grid_stride() { return static_cast<std::int64_t>(gridDim.x) * blockDim.x; }

// The segment holding position p of offsets off[0..n] (off[0] <= p < off[n],
// nondecreasing): the last k with off[k] <= p, by bisection (a CSR row of an
// entry, with empty rows skipped).
template <class Offset, class Index>
__device__ inline Index segment_of(const Offset* off, Index n, std::int64_t p) {
  Index lo = 0, hi = n;  // off[lo] <= p < off[hi]
  while (hi - lo > 1) {
    const Index mid = lo + (hi - lo) / 2;
    if (off[mid] <= p)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace saga::cuda
