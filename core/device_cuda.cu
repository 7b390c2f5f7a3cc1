// Device services on the CUDA runtime. Work runs on the stream of the active
// executor (core/executor.hpp) with the stream-ordered allocator, so
// allocations inside setup are cheap and ordering is that of the stream.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <string>

#include <cuda_profiler_api.h>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/executor.hpp"
#include "core/host_memory.hpp"

namespace saga::cuda_detail {
void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line) {
  // No GPU (or no driver) is a fact about the machine, not a failed call: say
  // so, as the error an embedding program catches to fall back to the host.
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
    throw UnavailableError(fmt::format("no CUDA GPU was found ({}: {}): use the host backend (Space::host, "
                                       "backend: host) [{}:{}]",
                                       cudaGetErrorName(e), cudaGetErrorString(e), file, line));
  throw DeviceError(fmt::format("CUDA error {} ({}) in {} [{}:{}]", cudaGetErrorName(e),
                                cudaGetErrorString(e), call, file, line));
}
}  // namespace saga::cuda_detail

namespace saga::device {

bool compiled() { return true; }

int count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

Info info() {
  int dev = 0;
  SAGA_CUDA(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  SAGA_CUDA(cudaGetDeviceProperties(&p, dev));
  Info i;
  i.name = p.name;
  i.memory_bytes = p.totalGlobalMem;
  i.multiprocessors = p.multiProcessorCount;
  i.cc_major = p.major;
  i.cc_minor = p.minor;
  i.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  std::size_t free_b = 0, total_b = 0;
  SAGA_CUDA(cudaMemGetInfo(&free_b, &total_b));
  i.free_bytes = free_b;
  SAGA_CUDA(cudaRuntimeGetVersion(&i.runtime_version));
  SAGA_CUDA(cudaDriverGetVersion(&i.driver_version));
  return i;
}

namespace {
// SAGA_DEPENDENT_LAUNCH=0 in the environment turns dependent launches off
// from the start (tools that do not follow them; a comparison).
std::atomic<bool> dependent_launch_on{[] {
  const char* e = std::getenv("SAGA_DEPENDENT_LAUNCH");
  return !(e && std::string(e) == "0");
}()};
constexpr int kMaxDevices = 64;
// Per device: 0 not asked yet, 1 compute capability below 9.0, 2 at least 9.0.
std::atomic<int> dependent_launch_capable[kMaxDevices] = {};
}  // namespace

void set_dependent_launch(bool on) { dependent_launch_on.store(on); }

bool dependent_launch() {
  if (!dependent_launch_on.load(std::memory_order_relaxed)) return false;
  int dev = 0;
  SAGA_CUDA(cudaGetDevice(&dev));
  if (dev < 0 || dev >= kMaxDevices) return false;
  int capable = dependent_launch_capable[dev].load(std::memory_order_relaxed);
  if (capable == 0) {
    int major = 0;
    SAGA_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    capable = major >= 9 ? 2 : 1;
    dependent_launch_capable[dev].store(capable, std::memory_order_relaxed);
  }
  return capable == 2;
}

namespace {
// Keep freed blocks in the pool: AMG setup allocates and frees many temporaries.
void configure_pool() {
  int dev = 0;
  SAGA_CUDA(cudaGetDevice(&dev));
  cudaMemPool_t pool;
  SAGA_CUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
  std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
  SAGA_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}
void configure_pool_once() {
  static std::once_flag once;  // executors on several threads allocate concurrently
  std::call_once(once, configure_pool);
}
}  // namespace

cudaStream_t stream() { return static_cast<cudaStream_t>(active_executor(Space::device)->stream()); }

void* stream_create(int device) {
  int prev = 0;
  SAGA_CUDA(cudaGetDevice(&prev));
  SAGA_CUDA(cudaSetDevice(device));
  cudaStream_t s = nullptr;
  // Blocking: ordered after work on the legacy default stream (see executor.hpp).
  SAGA_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamDefault));
  SAGA_CUDA(cudaSetDevice(prev));
  return s;
}
bool is_device_pointer(const void* p) {
  if (p == nullptr) return false;
  cudaPointerAttributes a{};
  SAGA_CUDA(cudaPointerGetAttributes(&a, p));
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ||
         (a.type == cudaMemoryTypeHost && a.devicePointer != nullptr);
}
void* pool_create(int device) {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool;
  SAGA_CUDA(cudaMemPoolCreate(&pool, &props));
  // Keep freed blocks (setup allocates and frees many temporaries), and hand a
  // block only to later work of the same stream.
  std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
  SAGA_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  int no = 0;
  SAGA_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &no));
  SAGA_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &no));
  return pool;
}
void pool_destroy(void* pool) {
  if (pool) cudaMemPoolDestroy(static_cast<cudaMemPool_t>(pool));
}

void stream_destroy(void* s) {
  if (s) cudaStreamDestroy(static_cast<cudaStream_t>(s));
}
void stream_synchronize(void* s) { SAGA_CUDA(cudaStreamSynchronize(static_cast<cudaStream_t>(s))); }
int set_current(int device) {
  int prev = 0;
  SAGA_CUDA(cudaGetDevice(&prev));
  if (prev != device) SAGA_CUDA(cudaSetDevice(device));
  return prev;
}
void* current_stream() { return stream(); }

namespace {
// Whether stream s is being captured into a CUDA graph.
bool capturing(cudaStream_t s) {
  cudaStreamCaptureStatus c = cudaStreamCaptureStatusNone;
  return cudaStreamIsCapturing(s, &c) == cudaSuccess && c != cudaStreamCaptureStatusNone;
}

// The pool the active executor allocates from (its own, or the device's default).
cudaMemPool_t active_pool() {
  cudaMemPool_t pool = static_cast<cudaMemPool_t>(active_executor(Space::device)->pool());
  if (!pool) {
    int dev = 0;
    SAGA_CUDA(cudaGetDevice(&dev));
    SAGA_CUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
  }
  return pool;
}
}  // namespace

void* allocate(std::size_t bytes, const char* what) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const auto& exec = active_executor(Space::device);
  const cudaStream_t st = static_cast<cudaStream_t>(exec->stream());
  auto try_allocate = [&] {
    if (exec->pool())  // an executor's own pool, configured when it was made
      return cudaMallocFromPoolAsync(&p, bytes, static_cast<cudaMemPool_t>(exec->pool()), st);
    configure_pool_once();  // the default executor: the device's default pool
    return cudaMallocAsync(&p, bytes, st);
  };
  cudaError_t e = try_allocate();
  if (e == cudaErrorMemoryAllocation && !capturing(st)) {
    // The pool keeps freed blocks mapped for reuse; scattered, they may add up
    // to the request without holding it. Wait for the frees in flight, give
    // every unused block back to the device, and try once more.
    cudaGetLastError();
    SAGA_CUDA(cudaStreamSynchronize(st));
    SAGA_CUDA(cudaMemPoolTrimTo(active_pool(), 0));
    e = try_allocate();
  }
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw DeviceOutOfMemory(fmt::format(
        "GPU out of memory allocating {} ({:.3f} GiB requested, {:.3f} GiB free of {:.3f} GiB)", what,
        bytes / 1073741824.0, free_b / 1073741824.0, total_b / 1073741824.0));
  }
  SAGA_CUDA(e);
  return p;
}

void release(void* p, void* s) {
  if (p) cudaFreeAsync(p, static_cast<cudaStream_t>(s));  // never throws from destructors
}

namespace {
// Large copies between pageable host memory and the GPU go through a ring of
// pinned buffers: the host's threads copy one chunk into a pinned buffer while
// the DMA engine moves the previous one. The driver's own path for pageable
// memory ran at 7.4 GB/s on the H100 machine (175 MB in 23 ms: a Python
// user's matrix, a Matrix Market file's) against 54 GB/s from pinned memory
// (docs/python.md).
constexpr std::size_t kStageChunk = std::size_t(8) << 20;  // bytes per pinned buffer
constexpr int kStageBuffers = 2;
constexpr std::size_t kStageFrom = std::size_t(4) << 20;  // smaller copies: the driver's path

struct StagingRing {
  std::mutex mutex;
  void* buffer[kStageBuffers] = {};
  cudaEvent_t done[kStageBuffers] = {};  // the last DMA that used each buffer
  bool ready = false, failed = false;
  bool init();
  // At exit: the last DMAs waited for, the buffers and events freed, and the
  // ring closed, so that a copy made later in the exit (a static object's
  // destructor) takes the driver's path. Without it compute-sanitizer's leak
  // check reports the two pinned buffers (forty-fifth session).
  void close() {
    std::lock_guard<std::mutex> lock(mutex);
    free_all();
    ready = false;
    failed = true;
  }
  void free_all() {
    for (int b = 0; b < kStageBuffers; ++b) {
      if (done[b]) {
        cudaEventSynchronize(done[b]);
        cudaEventDestroy(done[b]);
        done[b] = nullptr;
      }
      if (buffer[b]) {
        cudaFreeHost(buffer[b]);
        buffer[b] = nullptr;
      }
    }
    cudaGetLastError();  // a runtime already shutting down answers with an error: nothing more to free
  }
};
StagingRing& staging_ring() {
  // Never destroyed (copies may run during exit); its buffers are freed by
  // close(), registered with atexit when they are made.
  static StagingRing* ring = new StagingRing;
  return *ring;
}
bool StagingRing::init() {  // lazily, under the mutex; without pinned memory the plain path is used
  if (ready || failed) return ready;
  for (int b = 0; b < kStageBuffers; ++b)
    if (cudaMallocHost(&buffer[b], kStageChunk) != cudaSuccess ||
        cudaEventCreateWithFlags(&done[b], cudaEventDisableTiming) != cudaSuccess) {
      cudaGetLastError();
      free_all();  // what was made before the failure
      failed = true;
      return false;
    }
  // Registered after the CUDA runtime's own exit handler (the runtime was
  // initialised by the calls above at the latest), so it runs before it.
  std::atexit([] { staging_ring().close(); });
  return ready = true;
}

bool pageable(const void* host) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return a.type == cudaMemoryTypeUnregistered;
}

// Host -> device through the ring: when it returns, `src` has been read (the
// caller may reuse it); the last DMAs may still run, ordered on the stream.
void staged_to_device(void* dst, const void* src, std::size_t bytes, cudaStream_t st, StagingRing& r) {
  for (std::size_t at = 0, c = 0; at < bytes; at += kStageChunk, ++c) {
    const int b = static_cast<int>(c % kStageBuffers);
    const std::size_t n = std::min(kStageChunk, bytes - at);
    SAGA_CUDA(cudaEventSynchronize(r.done[b]));  // its previous DMA has read it
    parallel_memcpy(r.buffer[b], static_cast<const char*>(src) + at, n);
    SAGA_CUDA(cudaMemcpyAsync(static_cast<char*>(dst) + at, r.buffer[b], n, cudaMemcpyHostToDevice, st));
    SAGA_CUDA(cudaEventRecord(r.done[b], st));
  }
}

// Device -> host through the ring: chunk c's DMA runs while the host copies
// chunk c - 1 out; all of dst is written when it returns.
void staged_to_host(void* dst, const void* src, std::size_t bytes, cudaStream_t st, StagingRing& r) {
  const std::size_t chunks = (bytes + kStageChunk - 1) / kStageChunk;
  const auto drain = [&](std::size_t c) {
    const int b = static_cast<int>(c % kStageBuffers);
    SAGA_CUDA(cudaEventSynchronize(r.done[b]));
    parallel_memcpy(static_cast<char*>(dst) + c * kStageChunk, r.buffer[b], std::min(kStageChunk, bytes - c * kStageChunk));
  };
  for (std::size_t c = 0; c < chunks; ++c) {
    const int b = static_cast<int>(c % kStageBuffers);
    if (c >= kStageBuffers) drain(c - kStageBuffers);  // frees buffer b
    const std::size_t at = c * kStageChunk;
    SAGA_CUDA(cudaMemcpyAsync(r.buffer[b], static_cast<const char*>(src) + at, std::min(kStageChunk, bytes - at),
                              cudaMemcpyDeviceToHost, st));
    SAGA_CUDA(cudaEventRecord(r.done[b], st));
  }
  for (std::size_t c = chunks > kStageBuffers ? chunks - kStageBuffers : 0; c < chunks; ++c) drain(c);
}
}  // namespace

void copy(void* dst, const void* src, std::size_t bytes, Copy kind) {
  if (bytes == 0) return;
  const cudaStream_t st = stream();
  if (kind != Copy::device_to_device && bytes >= kStageFrom && !capturing(st) &&
      pageable(kind == Copy::host_to_device ? src : dst)) {
    StagingRing& r = staging_ring();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.init()) {
      if (kind == Copy::host_to_device)
        staged_to_device(dst, src, bytes, st, r);
      else
        staged_to_host(dst, src, bytes, st, r);
      return;
    }
  }
  cudaMemcpyKind k = kind == Copy::host_to_device   ? cudaMemcpyHostToDevice
                     : kind == Copy::device_to_host ? cudaMemcpyDeviceToHost
                                                    : cudaMemcpyDeviceToDevice;
  SAGA_CUDA(cudaMemcpyAsync(dst, src, bytes, k, st));
  if (kind == Copy::device_to_host) SAGA_CUDA(cudaStreamSynchronize(st));
}

namespace {
struct ThreadStaging {
  void* p = nullptr;
  std::size_t bytes = 0;
  bool pinned = false;
  ~ThreadStaging() { release(); }  // a thread's ends before the runtime's teardown (static storage)
  void release() {
    if (p && pinned)
      cudaFreeHost(p);  // never throws from a destructor
    else
      std::free(p);
    p = nullptr;
    bytes = 0;
  }
};
}  // namespace

void* host_staging(std::size_t bytes) {
  thread_local ThreadStaging s;
  if (bytes <= s.bytes && s.p) return s.p;
  s.release();
  constexpr std::size_t kGrain = std::size_t(1) << 20;  // page-locking costs per call: grow by whole MiB
  const std::size_t want = (std::max<std::size_t>(bytes, 1) + kGrain - 1) / kGrain * kGrain;
  if (cudaMallocHost(&s.p, want) == cudaSuccess) {
    s.pinned = true;
  } else {
    cudaGetLastError();
    s.pinned = false;
    s.p = std::malloc(want);
    if (!s.p) throw Error(fmt::format("host out of memory allocating a staging buffer ({} bytes)", want));
  }
  s.bytes = want;
  return s.p;
}

void zero(void* p, std::size_t bytes) {
  if (bytes) SAGA_CUDA(cudaMemsetAsync(p, 0, bytes, stream()));
}

void synchronize() { SAGA_CUDA(cudaStreamSynchronize(stream())); }

void release_cached_memory() {
  synchronize();
  SAGA_CUDA(cudaMemPoolTrimTo(active_pool(), 0));
}

namespace {
// The high-water marks folded away by mark_phase_peak(), per pool: the pool's
// own counter restarts at each mark, and pool_usage() adds these back.
std::mutex folded_mutex;
std::map<cudaMemPool_t, std::uint64_t> folded_peaks;
std::uint64_t pool_high(cudaMemPool_t pool) {
  std::uint64_t high = 0;
  SAGA_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  return high;
}
void reset_pool_high(cudaMemPool_t pool) {
  std::uint64_t zero = 0;  // resets the high-water mark to the current use
  SAGA_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
}
}  // namespace

PoolUsage pool_usage() {
  synchronize();  // stream-ordered frees count once they have run
  cudaMemPool_t pool = active_pool();
  std::uint64_t current = 0;
  SAGA_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &current));
  std::uint64_t high = pool_high(pool);
  {
    std::lock_guard<std::mutex> lock(folded_mutex);
    high = std::max(high, folded_peaks[pool]);
  }
  return {static_cast<std::size_t>(current), static_cast<std::size_t>(high)};
}

void mark_phase_peak() {
  cudaMemPool_t pool = active_pool();
  const std::uint64_t high = pool_high(pool);
  {
    std::lock_guard<std::mutex> lock(folded_mutex);
    folded_peaks[pool] = std::max(folded_peaks[pool], high);
  }
  reset_pool_high(pool);
}

std::size_t phase_peak() {
  return static_cast<std::size_t>(pool_high(active_pool()));
}

namespace {
// The driver's free memory and the pool's reservation at the last exact
// available_memory() call, per pool (available_memory_recent).
struct FreeAt {
  std::uint64_t free_bytes = 0, reserved = 0;
};
std::mutex free_at_mutex;
std::map<cudaMemPool_t, FreeAt> free_at;
void pool_reserved_used(cudaMemPool_t pool, std::uint64_t& reserved, std::uint64_t& used) {
  SAGA_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  SAGA_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
}
}  // namespace

std::size_t available_memory() {
  std::size_t free_b = 0, total_b = 0;
  SAGA_CUDA(cudaMemGetInfo(&free_b, &total_b));
  std::uint64_t reserved = 0, used = 0;
  cudaMemPool_t pool = active_pool();
  pool_reserved_used(pool, reserved, used);
  {
    std::lock_guard<std::mutex> lock(free_at_mutex);
    free_at[pool] = FreeAt{free_b, reserved};
  }
  return free_b + static_cast<std::size_t>(reserved > used ? reserved - used : 0);
}

std::size_t available_memory_recent() {
  cudaMemPool_t pool = active_pool();
  FreeAt at;
  bool known = false;
  {
    std::lock_guard<std::mutex> lock(free_at_mutex);
    const auto it = free_at.find(pool);
    if (it != free_at.end()) {
      at = it->second;
      known = true;
    }
  }
  // No exact call yet on this pool: make one (it takes the lock itself, so not
  // under ours: a first SpGEMM in a fresh process deadlocked here).
  if (!known) return available_memory();
  std::uint64_t reserved = 0, used = 0;
  pool_reserved_used(pool, reserved, used);
  // free now = free then - (reserved now - reserved then); plus the cached part.
  const std::int64_t free_now = static_cast<std::int64_t>(at.free_bytes) + static_cast<std::int64_t>(at.reserved) -
                                static_cast<std::int64_t>(reserved);
  return static_cast<std::size_t>(std::max<std::int64_t>(free_now, 0)) +
         static_cast<std::size_t>(reserved > used ? reserved - used : 0);
}

void reset_peak_memory() {
  synchronize();
  cudaMemPool_t pool = active_pool();
  {
    std::lock_guard<std::mutex> lock(folded_mutex);
    folded_peaks[pool] = 0;
  }
  reset_pool_high(pool);
}

Graph::~Graph() {
  if (exec_) cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec_));
}

bool Graph::capture(const std::function<void()>& fn, std::string* why) {
  cudaStream_t s = stream();
  if (s == nullptr) {
    if (why) *why = "the legacy default stream cannot be captured (use an executor with its own stream)";
    return false;
  }
  SAGA_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  std::string failure;
  try {
    fn();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(s, &graph);
  cudaGetLastError();  // a capture that failed leaves its error here
  if (failure.empty() && end != cudaSuccess) failure = cudaGetErrorString(end);
  cudaGraphExec_t exec = nullptr;
  if (failure.empty()) {
    const cudaError_t inst = cudaGraphInstantiate(&exec, graph, 0);
    if (inst != cudaSuccess) {
      cudaGetLastError();
      failure = cudaGetErrorString(inst);
    }
  }
  if (graph) cudaGraphDestroy(graph);
  if (!failure.empty()) {
    if (why) *why = failure;
    return false;
  }
  if (exec_) cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec_));
  exec_ = exec;
  return true;
}

void Graph::launch() const {
  SAGA_REQUIRE(exec_ != nullptr, "Graph::launch: nothing was captured");
  SAGA_CUDA(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec_), stream()));
}

void profiled(const std::function<void()>& fn) {
  SAGA_CUDA(cudaDeviceSynchronize());
  SAGA_CUDA(cudaProfilerStart());
  fn();
  SAGA_CUDA(cudaDeviceSynchronize());
  SAGA_CUDA(cudaProfilerStop());
}

double elapsed_ms(const std::function<void()>& fn) {
  cudaEvent_t a, b;
  SAGA_CUDA(cudaEventCreate(&a));
  SAGA_CUDA(cudaEventCreate(&b));
  SAGA_CUDA(cudaEventRecord(a, stream()));
  fn();
  SAGA_CUDA(cudaEventRecord(b, stream()));
  SAGA_CUDA(cudaEventSynchronize(b));
  float ms = 0.f;
  SAGA_CUDA(cudaEventElapsedTime(&ms, a, b));
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms;
}

}  // namespace saga::device
