#pragma once
// splitmix64 (Steele, Lea, Flood 2014): saga's one pseudo-random stream, the
// same bits on every platform and backend. Its state after k steps from `seed`
// is seed + k·gamma, so entry k of a stream can be computed on its own (a
// random vector filled in parallel equals the sequential stream bitwise).
#include <cstdint>

#include "core/hd.hpp"

namespace saga {

constexpr std::uint64_t kSplitmixGamma = 0x9E3779B97F4A7C15ull;

// The output of splitmix64 at state z.
SAGA_HD inline std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Output k (k = 1, 2, ...) of the stream seeded with `seed`.
SAGA_HD inline std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t k) {
  return splitmix64_mix(seed + k * kSplitmixGamma);
}

// The top 53 bits as a double uniform in [0, 1).
SAGA_HD inline double unit_uniform(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace saga
