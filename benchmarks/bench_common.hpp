#pragma once
// What the device benchmarks share: the median of repetitions, the measured
// copy bandwidth that sets the data-movement floor (docs/results.md), and the
// bytes of a CSR matrix (8-byte values, 4-byte indices and row offsets).
#include <algorithm>
#include <cstdint>
#include <vector>

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

}  // namespace saga::bench
