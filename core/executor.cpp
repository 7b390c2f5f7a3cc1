#include "core/executor.hpp"

#include <utility>

#include "core/device.hpp"
#include "core/error.hpp"

namespace saga {

namespace {
thread_local std::shared_ptr<const Executor> t_active;

// Throws unless GPU `device` can be used (a CUDA build, the GPU present).
void require_gpu(int device) {
  if (!device::compiled()) throw UnavailableError("backend 'cuda' requested but saga was built without CUDA");
  const int n = device::count();
  if (n == 0) throw UnavailableError("backend 'cuda' requested but no GPU is present");
  SAGA_REQUIRE(device >= 0 && device < n, "GPU {} requested but this machine has {} GPU(s)", device, n);
}
}  // namespace

Executor::Executor(Space s, int device, void* stream, void* pool, bool owns_stream)
    : space_(s), device_(device), stream_(stream), pool_(pool), owns_stream_(owns_stream) {}

Executor::~Executor() {
  // Never throw from here: a device error surfaces at the next checked call.
  try {
    if (on_device()) device::stream_synchronize(stream_);
  } catch (...) {
  }
  for (auto& [key, h] : handles_) h.destroy(h.h);
  if (owns_stream_) device::stream_destroy(stream_);
  // Its own pool (cuda(), cuda_on_stream(); null for the defaults): every array
  // of this executor is gone (they hold it).
  device::pool_destroy(pool_);
}

std::shared_ptr<const Executor> Executor::host() {
  static const std::shared_ptr<const Executor> h(new Executor(Space::host, -1, nullptr, nullptr, false));
  return h;
}

std::shared_ptr<const Executor> Executor::cuda(int device) {
  require_gpu(device);
  void* s = device::stream_create(device);
  void* pool = device::pool_create(device);
  return std::shared_ptr<const Executor>(new Executor(Space::device, device, s, pool, true));
}

std::shared_ptr<const Executor> Executor::cuda_on_stream(void* stream, int device) {
  require_gpu(device);
  void* pool = device::pool_create(device);
  return std::shared_ptr<const Executor>(new Executor(Space::device, device, stream, pool, false));
}

std::shared_ptr<const Executor> Executor::from_name(const std::string& name) {
  if (name == "host") return host();
  if (name == "cuda") return cuda(0);
  SAGA_REQUIRE(name == "auto", "unknown backend '{}' (expected auto, host or cuda)", name);
  return device::compiled() && device::count() > 0 ? cuda(0) : host();
}

std::shared_ptr<const Executor> Executor::default_for(Space s) {
  if (s == Space::host) return host();
  // Never destroyed: it may outlive the CUDA runtime at exit otherwise.
  static const auto* d = new std::shared_ptr<const Executor>(new Executor(Space::device, 0, nullptr, nullptr, false));
  return *d;
}

std::string Executor::name() const {
  if (!on_device()) return "host";
  return owns_stream_ ? fmt::format("cuda:{}", device_) : fmt::format("cuda:{} (default stream)", device_);
}

void Executor::synchronize() const {
  if (on_device()) device::stream_synchronize(stream_);
}

void* Executor::library_handle(const std::string& key, void* (*create)(const Executor&),
                               void (*destroy)(void*)) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = handles_.find(key);
  if (it == handles_.end()) it = handles_.emplace(key, Handle{create(*this), destroy}).first;
  return it->second.h;
}

const std::shared_ptr<const Executor>& active_executor(Space s) {
  if (t_active && t_active->space() == s) return t_active;
  static thread_local std::shared_ptr<const Executor> host_default, device_default;
  auto& d = s == Space::host ? host_default : device_default;
  if (!d) d = Executor::default_for(s);
  return d;
}

ExecutorScope::ExecutorScope(std::shared_ptr<const Executor> exec) : previous_(std::move(t_active)) {
  if (exec && exec->on_device()) previous_device_ = device::set_current(exec->device_id());
  t_active = std::move(exec);
}

ExecutorScope::~ExecutorScope() {
  if (previous_device_ >= 0) {
    try {
      device::set_current(previous_device_);
    } catch (...) {
    }
  }
  t_active = std::move(previous_);
}

}  // namespace saga
