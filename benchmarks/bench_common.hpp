#pragma once
// What the device benchmarks share: the median of repetitions, the measured
// copy bandwidth that sets the data-movement floor (docs/results.md), and the
// bytes of a CSR matrix (8-byte values, 4-byte indices and row offsets).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "core/device.hpp"
#include "sparse/vector_ops.hpp"

namespace saga::bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Bytes read + written by a large device-to-device copy, per second (GB/s).
inline double copy_bandwidth_gbs() {
  const std::size_t n = std::size_t(1) << 27;  // 1 GiB of doubles
  Vector a(n, Space::device, "bandwidth source"), b(n, Space::device, "bandwidth target");
  fill(a, 1.0);
  std::vector<double> t;
  for (int r = 0; r < 12; ++r) t.push_back(device::elapsed_ms([&] { a.copy_into(b); }));
  t.erase(t.begin(), t.begin() + 2);
  return 2.0 * n * sizeof(double) / (median(t) * 1e-3) / 1e9;
}

inline double csr_bytes(std::int64_t rows, std::int64_t nnz) { return 12.0 * nnz + 4.0 * (rows + 1); }

// What every benchmark run starts with: the GPU, its copy bandwidth, the JSON
// header of record, one line on stdout, and the median-of-`repeat` timer.
struct Session {
  device::Info info;
  double bandwidth_gbs = 0;
  int repeat = 1;
  nlohmann::json out;
  // Median over `repeat` timed runs of f after one warm-up (ms).
  double time(const std::function<void()>& f) const {
    f();
    std::vector<double> t;
    for (int k = 0; k < repeat; ++k) t.push_back(device::elapsed_ms(f));
    return median(t);
  }
};
// Empty (after saying so on stderr) when there is no GPU: the caller exits 2.
inline std::optional<Session> start_session(const char* program, int repeat) {
  if (device::count() == 0) {
    std::cerr << program << ": no GPU present; this benchmark measures the CUDA backend\n";
    return std::nullopt;
  }
  Session s;
  s.info = device::info();
  s.bandwidth_gbs = copy_bandwidth_gbs();
  s.repeat = repeat;
  s.out["gpu"] = s.info.name;
  s.out["cuda_runtime"] = s.info.runtime_version;
  s.out["copy_bandwidth_gbs"] = s.bandwidth_gbs;
  s.out["repeat"] = repeat;
  std::cout << fmt::format("GPU {} | copy bandwidth {:.0f} GB/s | median of {}\n", s.info.name, s.bandwidth_gbs,
                           repeat);
  return s;
}

}  // namespace saga::bench
