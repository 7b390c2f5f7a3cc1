#pragma once
// Device engine of parallel_for (core/parallel_for.hpp).
#include "core/cuda_check.cuh"
#include "core/parallel_for.hpp"

namespace saga {

template <class F>
__global__ void for_each_kernel(std::int64_t n, F f) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) f(i);
}

template <class F>
void device_for_each(std::int64_t n, const F& f) {
  if (n <= 0) return;
  constexpr int threads = 256;
  std::int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 65536) blocks = 65536;
  for_each_kernel<F><<<static_cast<unsigned>(blocks), threads, 0, ::saga::device_stream()>>>(n, f);
  SAGA_CUDA_LAUNCH("for_each");
}

}  // namespace saga

#define SAGA_INSTANTIATE_DEVICE_FOR_EACH(F) template void saga::device_for_each<F>(std::int64_t, const F&);
