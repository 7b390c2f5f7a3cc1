#pragma once
// Checks for CUDA runtime calls and kernel launches: every failure becomes a
// DeviceError naming the call and its source location.
#include <cuda_runtime.h>

#include "core/device.hpp"
#include "core/error.hpp"

namespace saga {
// The stream of this thread's active device executor (core/executor.hpp):
// every launch, copy and library call of the CUDA backend goes there.
inline cudaStream_t device_stream() { return static_cast<cudaStream_t>(device::current_stream()); }
}  // namespace saga

namespace saga::cuda_detail {
[[noreturn]] void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line);
}

#define SAGA_CUDA(call)                                                                 \
  do {                                                                                  \
    cudaError_t saga_err_ = (call);                                                     \
    if (saga_err_ != cudaSuccess)                                                       \
      ::saga::cuda_detail::throw_cuda_error(saga_err_, #call, __FILE__, __LINE__);      \
  } while (0)

// After a <<<...>>> launch: catches launch-configuration errors at once (and,
// with SAGA_SYNC_CHECK defined, execution errors of that kernel).
#ifdef SAGA_SYNC_CHECK
#define SAGA_CUDA_LAUNCH(name)                                                          \
  do {                                                                                  \
    SAGA_CUDA(cudaGetLastError());                                                      \
    SAGA_CUDA(cudaStreamSynchronize(::saga::device_stream()));                          \
  } while (0)
#else
#define SAGA_CUDA_LAUNCH(name) SAGA_CUDA(cudaGetLastError())
#endif
