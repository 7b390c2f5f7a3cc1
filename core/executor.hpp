#pragma once
// Executor: where and how saga's work runs — the backend (host or one GPU), the
// GPU's CUDA stream, its library handles (cuSPARSE) and the memory pool the
// device arrays come from. It is the object that several GPUs will multiply.
//
// How work finds its executor (the model of PyTorch's current stream): the
// objects a user builds (Solver, AmgPreconditioner, Hierarchy, ...) are given
// an executor explicitly, keep it, and make it the *active* executor of the
// calling thread for the duration of each of their calls (ExecutorScope). Every
// kernel, copy, allocation and library call below runs on the active
// executor's stream; device arrays remember the executor that allocated them
// and are freed on its stream. Outside any scope the default executor of each
// space is active (the GPU's legacy default stream).
//
// Two solvers on two executors, driven from two host threads, run concurrently
// (tests/gpu/test_components_gpu.cpp; overlap: saga-bench-executors). Executor streams are *blocking* streams:
// they order themselves after work on the legacy default stream, so data made
// outside any scope is safe to hand to a solver. Data made on one executor and
// used on another needs `producer.synchronize()` first.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/types.hpp"

namespace saga {

class Executor {
 public:
  // The CPU (OpenMP loops).
  static std::shared_ptr<const Executor> host();
  // GPU `device` with a new stream of its own (UnavailableError without CUDA
  // or without that GPU).
  static std::shared_ptr<const Executor> cuda(int device = 0);
  // GPU `device` on the caller's CUDA stream (a cudaStream_t): saga's work is
  // ordered on it, and the stream stays the caller's (never destroyed here).
  // It has a memory pool of its own, like cuda().
  static std::shared_ptr<const Executor> cuda_on_stream(void* stream, int device = 0);
  // The executor of backend name "host", "cuda" or "auto" (cuda when this build
  // has it and a GPU is present, else host); unknown names are InputErrors.
  static std::shared_ptr<const Executor> from_name(const std::string& backend);
  // The default executor of a space (GPU 0 on its legacy default stream).
  static std::shared_ptr<const Executor> default_for(Space s);

  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  Space space() const { return space_; }
  bool on_device() const { return space_ == Space::device; }
  int device_id() const { return device_; }
  // The CUDA stream (a cudaStream_t; nullptr = the legacy default stream).
  void* stream() const { return stream_; }
  // The memory pool device arrays come from (a cudaMemPool_t; nullptr = the
  // device's default pool, used by the default executor).
  void* pool() const { return pool_; }
  // "host", "cuda:0", "cuda:0 (default stream)".
  std::string name() const;
  // Waits for all work of this executor.
  void synchronize() const;

  // A library handle (cuSPARSE, cuBLAS, ...) bound to this executor's stream,
  // made by create(*this) on first use and released with destroy() when the
  // executor goes away.
  void* library_handle(const std::string& key, void* (*create)(const Executor&), void (*destroy)(void*)) const;

 private:
  Executor(Space s, int device, void* stream, void* pool, bool owns_stream);
  Space space_;
  int device_ = -1;
  void* stream_ = nullptr;
  void* pool_ = nullptr;
  bool owns_stream_ = false;
  struct Handle {
    void* h;
    void (*destroy)(void*);
  };
  mutable std::mutex mutex_;
  mutable std::map<std::string, Handle> handles_;
};

// The executor active in this thread for space s: the innermost ExecutorScope's
// when it is of that space, else Executor::default_for(s).
const std::shared_ptr<const Executor>& active_executor(Space s);

// Makes `exec` the active executor of this thread until the scope ends
// (scopes nest).
class ExecutorScope {
 public:
  explicit ExecutorScope(std::shared_ptr<const Executor> exec);
  ~ExecutorScope();
  ExecutorScope(const ExecutorScope&) = delete;
  ExecutorScope& operator=(const ExecutorScope&) = delete;

 private:
  std::shared_ptr<const Executor> previous_;
  int previous_device_ = -1;
};

}  // namespace saga
