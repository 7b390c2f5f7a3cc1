#pragma once
// Array<T>: a contiguous buffer that lives either in host or in device memory.
// Transfers are always explicit (to(Space), to_vector(), from_vector()); nothing
// migrates behind the user's back.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/executor.hpp"
#include "core/error.hpp"
#include "core/types.hpp"

namespace saga {

template <class T>
class Array {
 public:
  Array() = default;
  // Uninitialised array of n elements in `space`; `what` names it in errors.
  Array(std::size_t n, Space space, const char* what = "array") : n_(n), space_(space) {
    if (n == 0) return;
    if (space == Space::host) {
      ptr_ = static_cast<T*>(std::malloc(n * sizeof(T)));
      if (!ptr_) throw Error(fmt::format("host out of memory allocating {} ({} bytes)", what, n * sizeof(T)));
    } else {
      exec_ = active_executor(Space::device);
      ptr_ = static_cast<T*>(device::allocate(n * sizeof(T), what));
    }
  }
  ~Array() { reset(); }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& o) noexcept { swap(o); }
  Array& operator=(Array&& o) noexcept {
    if (this != &o) {
      reset();
      swap(o);
    }
    return *this;
  }
  void swap(Array& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(n_, o.n_);
    std::swap(space_, o.space_);
    std::swap(exec_, o.exec_);
    std::swap(owned_, o.owned_);
  }

  // A view of n elements the caller owns at `data` in `space` (device: memory
  // the GPU can address): nothing is copied, nothing freed; the caller keeps
  // the memory alive and unchanged while the view or anything built on it
  // lives. Device views use the active executor's stream.
  static Array view(T* data, std::size_t n, Space space) {
    Array a;
    a.ptr_ = n ? data : nullptr;
    a.n_ = n;
    a.space_ = space;
    a.owned_ = false;
    if (space == Space::device) a.exec_ = active_executor(Space::device);
    return a;
  }
  // Whether the array frees its memory (false for views).
  bool owns() const { return owned_; }

  static Array from_vector(const std::vector<T>& v, Space space, const char* what = "array") {
    Array a(v.size(), space, what);
    a.copy_from_host(v.data(), v.size());
    return a;
  }
  static Array zeros(std::size_t n, Space space, const char* what = "array") {
    Array a(n, space, what);
    a.set_zero();
    return a;
  }

  // Explicit transfer (or copy within one space).
  Array to(Space dst, const char* what = "array") const {
    Array a(n_, dst, what);
    copy_into(a);
    return a;
  }
  Array clone() const { return to(space_); }
  std::vector<T> to_vector() const {
    std::vector<T> v(n_);
    copy_to_host(v.data());
    return v;
  }
  // Copy all elements to host memory at dst (size() elements).
  void copy_to_host(T* dst) const {
    if (n_ == 0) return;
    if (space_ == Space::host)
      std::memcpy(dst, ptr_, n_ * sizeof(T));
    else
      device::copy(dst, ptr_, n_ * sizeof(T), device::Copy::device_to_host);
  }
  // Copy all elements into `dst` (same size, any space).
  void copy_into(Array& dst) const {
    SAGA_REQUIRE(dst.n_ == n_, "Array copy: size mismatch ({} vs {})", n_, dst.n_);
    copy_into(dst, 0);
  }
  // Copy all elements into dst[at, at + size()) (any space).
  void copy_into(Array& dst, std::size_t at) const {
    SAGA_REQUIRE(at + n_ <= dst.n_, "Array copy: {} elements at {} into {}", n_, at, dst.n_);
    if (n_ == 0) return;
    const std::size_t bytes = n_ * sizeof(T);
    T* to = dst.ptr_ + at;
    if (space_ == Space::host && dst.space_ == Space::host)
      std::memcpy(to, ptr_, bytes);
    else if (space_ == Space::host)
      device::copy(to, ptr_, bytes, device::Copy::host_to_device);
    else if (dst.space_ == Space::host)
      device::copy(to, ptr_, bytes, device::Copy::device_to_host);
    else
      device::copy(to, ptr_, bytes, device::Copy::device_to_device);
  }
  void copy_from_host(const T* src, std::size_t n) {
    SAGA_REQUIRE(n == n_, "Array copy: size mismatch ({} vs {})", n, n_);
    if (n == 0) return;
    if (space_ == Space::host)
      std::memcpy(ptr_, src, n * sizeof(T));
    else
      device::copy(ptr_, src, n * sizeof(T), device::Copy::host_to_device);
  }
  void set_zero() {
    if (n_ == 0) return;
    if (space_ == Space::host)
      std::memset(static_cast<void*>(ptr_), 0, n_ * sizeof(T));
    else
      device::zero(ptr_, n_ * sizeof(T));
  }
  // Read one element (a transfer when on the device).
  T get(std::size_t i) const {
    SAGA_REQUIRE(i < n_, "Array::get: index {} out of range {}", i, n_);
    T v;
    if (space_ == Space::host)
      v = ptr_[i];
    else
      device::copy(&v, ptr_ + i, sizeof(T), device::Copy::device_to_host);
    return v;
  }

  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  Space space() const { return space_; }
  // Element access, host arrays only.
  T& operator[](std::size_t i) { return ptr_[i]; }
  const T& operator[](std::size_t i) const { return ptr_[i]; }

 private:
  void reset() {
    if (ptr_ && owned_) {
      if (space_ == Space::host)
        std::free(ptr_);
      else
        device::release(ptr_, exec_->stream());
    }
    ptr_ = nullptr;
    n_ = 0;
    owned_ = true;
    exec_.reset();
  }
  T* ptr_ = nullptr;
  std::size_t n_ = 0;
  Space space_ = Space::host;
  std::shared_ptr<const Executor> exec_;  // device arrays: the executor (stream) that owns the memory
  bool owned_ = true;                     // false: a view of the caller's memory
};

// Dense vector of values.
using Vector = Array<double>;

}  // namespace saga
