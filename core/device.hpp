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

// Streams (cudaStream_t as void*; nullptr = the legacy default stream). Used
// by Executor (core/executor.hpp); everything else works on the stream of the
// active executor.
void* stream_create(int device);
// Whether p points into memory the GPU can address (device or managed memory,
// or host memory mapped for it); false for ordinary host memory and null.
bool is_device_pointer(const void* p);
void stream_destroy(void* stream);
void stream_synchronize(void* stream);
// Memory pools (cudaMemPool_t as void*): each executor allocates from its own
// pool, so blocks freed on one stream are never handed to another stream
// (which would make the streams wait for each other).
void* pool_create(int device);
void pool_destroy(void* pool);
// Makes `device` current for this thread; returns the previous one.
int set_current(int device);
// The stream of this thread's active device executor.
void* current_stream();

// Stream-ordered allocation on the active executor's stream; `what` names the
// allocation in the out-of-memory error. release() frees on the stream the
// block was allocated on.
void* allocate(std::size_t bytes, const char* what);
void release(void* p, void* stream);

enum class Copy { host_to_device, device_to_host, device_to_device };
void copy(void* dst, const void* src, std::size_t bytes, Copy kind);
// A page-locked host buffer of at least `bytes`, the calling thread's until
// its next call (kept and grown, never shrunk; freed when the thread ends):
// copies to and from it are one DMA each, where a pageable buffer takes the
// driver's staging through its own (a small level's 700 KB strength graph to
// the host: 67 us against the DMA's 14 on the H100, docs/profiling.md).
// Pageable memory where page-locking fails.
void* host_staging(std::size_t bytes);
void zero(void* p, std::size_t bytes);
// Waits for all work of the active device executor (used for honest timings).
void synchronize();
// Returns the memory the active executor's pool keeps cached (freed blocks)
// to the device, after the executor's work has finished. Pools keep freed
// blocks for reuse (the setup allocates and frees many temporaries); call this
// when other pools or libraries need the memory.
void release_cached_memory();
// Bytes in use in the active executor's pool now, and the most in use since
// the last reset_peak_memory() (CUDA's pool counters: every allocation saga
// makes on that executor, freed ones not counted). The peak that `saga solve`
// reports, and what the out-of-memory tests compare before and after.
struct PoolUsage {
  std::size_t current = 0, peak = 0;
};
PoolUsage pool_usage();
void reset_peak_memory();
// Per-phase peaks without losing the overall one: mark_phase_peak() starts a
// window, phase_peak() is the most in use since the last mark (or reset).
// pool_usage().peak still covers everything since reset_peak_memory(). The AMG
// setup marks each phase (LevelStats::peak_bytes). Neither waits for the
// device (the setup's phase timer has waited at the end of the previous
// phase): the pool counts an allocation when it is made, so a window holds
// every allocation made in it.
void mark_phase_peak();
std::size_t phase_peak();
// Bytes an allocation on the active executor may still get: the device's free
// memory plus what its pool holds cached (freed blocks it would reuse).
std::size_t available_memory();
// The same without asking the driver (cudaMemGetInfo costs ~10 us, and the
// setup asks before every product): the free memory of the last
// available_memory() call on this pool, less what the pool has taken from the
// device since, plus what it holds cached now. Exact while no other program
// or library allocates on the device in between; the setup and resetup call
// available_memory() when they start. Without an earlier call, the exact one.
std::size_t available_memory_recent();

// Programmatic dependent launch (compute capability 9.0 and up): the solve
// phase's kernels (binned SpMV and its fused outputs, vector and CG updates)
// are launched so that each may be scheduled while the kernel ahead of it on
// the stream finishes its last wave; every such kernel first waits for that
// kernel to finish and its writes to become visible (sparse/cuda/launch.cuh),
// so results are bit for bit the same either way. Grids of more than 128
// CTAs per multiprocessor are always launched plain. On by default where the
// active device supports it; set_dependent_launch(false) launches them as
// plain stream-ordered kernels (the benchmark's comparison). A graph keeps
// the launch mode it was captured with. Process-wide; the environment
// variable SAGA_DEPENDENT_LAUNCH=0 sets it off at the start.
void set_dependent_launch(bool on);
// Whether the next launch on the active device may be dependent (the switch
// above and the device's compute capability).
bool dependent_launch();

// A CUDA graph: the work one call of fn() puts on the active executor's stream,
// captured once and replayed by launch() on that stream (one launch instead of
// one per kernel). fn must be repeatable: no host synchronisation, no
// allocation or release of memory that outlives it, and the same pointers on
// every replay (run it once without capture first so that lazily built
// analyses and scratch buffers exist).
class Graph {
 public:
  Graph() = default;
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  // Captures fn(). Returns false, with the reason in *why, when the stream
  // cannot be captured (the legacy default stream) or fn did something a
  // graph cannot hold; the captured work did not run then, and nothing is
  // kept.
  bool capture(const std::function<void()>& fn, std::string* why);
  bool ready() const { return exec_ != nullptr; }
  void launch() const;

 private:
  void* exec_ = nullptr;  // cudaGraphExec_t
};

// Runs fn() and returns its duration in milliseconds measured with device
// events on the active executor's stream (host clock when built without CUDA).
double elapsed_ms(const std::function<void()>& fn);

// Runs fn() with the CUDA profiler's collection on (cudaProfilerStart / Stop),
// so that a profiler started with collection off (`ncu --profile-from-start
// off`) sees only fn()'s kernels; the device is synchronised before and after.
// Just runs fn() when built without CUDA.
void profiled(const std::function<void()>& fn);

}  // namespace saga::device
