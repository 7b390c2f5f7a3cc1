#pragma once
// Scalars: a few numbers (dot products, step lengths, a status flag, a residual
// history) kept where the vectors live, with the scratch of the deterministic
// reductions that fill them. A Krylov iteration on the GPU reads and writes its
// scalars on the device, so it never waits for the host except to check
// convergence (solver/krylov/conjugate_gradient.cpp).
#include <vector>

#include "sparse/array.hpp"

namespace saga {

class Scalars {
 public:
  Scalars() = default;
  // n scalars, all zero, in `space`.
  Scalars(std::size_t n, Space space) : values_(Array<double>::zeros(n, space, "scalars")) {}
  Space space() const { return values_.space(); }
  std::size_t size() const { return values_.size(); }
  double* data() { return values_.data(); }
  const double* data() const { return values_.data(); }
  // Scratch of at least n doubles for partial sums; grows (a new allocation)
  // only when a larger reduction asks, so steady-state iterations allocate
  // nothing (which CUDA graph capture needs).
  double* scratch(std::size_t n) {
    if (scratch_.size() < n) scratch_ = Array<double>(n, space(), "reduction partial sums");
    return scratch_.data();
  }
  // The first n scalars on the host (one copy).
  std::vector<double> head(std::size_t n) const {
    std::vector<double> h(n);
    if (n == 0) return h;
    if (space() == Space::host)
      std::copy(values_.data(), values_.data() + n, h.begin());
    else
      device::copy(h.data(), values_.data(), n * sizeof(double), device::Copy::device_to_host);
    return h;
  }
  // Sets the first h.size() scalars from the host.
  void set_head(const std::vector<double>& h) {
    if (h.empty()) return;
    if (space() == Space::host)
      std::copy(h.begin(), h.end(), values_.data());
    else
      device::copy(values_.data(), h.data(), h.size() * sizeof(double), device::Copy::host_to_device);
  }

 private:
  Array<double> values_;
  Array<double> scratch_;
};

}  // namespace saga
