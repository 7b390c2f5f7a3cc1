#pragma once
// Device (GPU) runtime services seen from plain C++: presence, memory,
// transfers, synchronisation. Implemented in device_cuda.cu when saga is built
// with CUDA and in device_none.cpp otherwise (where every call that needs a GPU
// throws UnavailableError).
#include <cstddef>
#include <functional>
#include <string>

namespace saga::device {

// True when this build contains the CUDA backend.
bool compiled();
// Number of usable GPUs (0 when not compiled or no driver/GPU present).
int count();

struct Info {
  std::string name;
  std::size_t memory_bytes = 0;
  std::size_t free_bytes = 0;
  int multiprocessors = 0;
  int cc_major = 0, cc_minor = 0;
  std::size_t l2_bytes = 0;
  int runtime_version = 0, driver_version = 0;
};
Info info();

// Stream-ordered allocation on the saga stream; `what` names the allocation in
// the out-of-memory error.
void* allocate(std::size_t bytes, const char* what);
void release(void* p);

enum class Copy { host_to_device, device_to_host, device_to_device };
void copy(void* dst, const void* src, std::size_t bytes, Copy kind);
void zero(void* p, std::size_t bytes);
// Wait for all saga device work to finish (used for honest timings).
void synchronize();

// Runs fn() and returns its duration in milliseconds measured with device
// events on the saga stream (host clock when built without CUDA).
double elapsed_ms(const std::function<void()>& fn);

}  // namespace saga::device
