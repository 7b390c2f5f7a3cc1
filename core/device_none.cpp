// Device services for a build without CUDA: nothing is present, and anything
// that needs a GPU says so.
#include "core/device.hpp"

#include <chrono>

#include "core/error.hpp"

namespace saga::device {
namespace {
[[noreturn]] void unavailable() {
  throw UnavailableError("saga was built without the CUDA backend (nvcc was not found at configure time)");
}
}  // namespace

bool compiled() { return false; }
int count() { return 0; }
Info info() { unavailable(); }
void* stream_create(int) { unavailable(); }
void stream_destroy(void*) {}
bool is_device_pointer(const void*) { return false; }
void* pool_create(int) { unavailable(); }
void pool_destroy(void*) {}
void stream_synchronize(void*) {}
int set_current(int) { unavailable(); }
void* current_stream() { return nullptr; }
void* allocate(std::size_t, const char*) { unavailable(); }
void release(void*, void*) {}
void copy(void*, const void*, std::size_t, Copy) { unavailable(); }
void* host_staging(std::size_t) { unavailable(); }
void zero(void*, std::size_t) { unavailable(); }
void synchronize() {}
void release_cached_memory() {}
PoolUsage pool_usage() { return {}; }
void reset_peak_memory() {}
void mark_phase_peak() {}
std::size_t phase_peak() { return 0; }
std::size_t available_memory() { return 0; }
std::size_t available_memory_recent() { return 0; }
void set_dependent_launch(bool) {}
bool dependent_launch() { return false; }
Graph::~Graph() = default;
bool Graph::capture(const std::function<void()>&, std::string* why) {
  if (why) *why = "saga was built without the CUDA backend";
  return false;
}
void Graph::launch() const { unavailable(); }
double elapsed_ms(const std::function<void()>& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void profiled(const std::function<void()>& fn) { fn(); }

}  // namespace saga::device
