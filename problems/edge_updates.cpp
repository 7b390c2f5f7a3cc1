#include "problems/edge_updates.hpp"

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "core/error.hpp"

namespace saga {

CooMatrix edge_updates(index_t n, std::int64_t edges, double weight, std::uint64_t seed, Space space) {
  SAGA_REQUIRE(n >= 2, "edge updates need at least 2 unknowns, got {}", n);
  SAGA_REQUIRE(edges >= 0, "edge updates: {} edges", edges);
  SAGA_REQUIRE(weight > 0 && weight < 1e300, "edge updates: weight {} (expected > 0)", weight);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<index_t> U(0, n - 1);
  std::uniform_real_distribution<double> W(0.5 * weight, weight);
  std::vector<index_t> r, c;
  std::vector<double> v;
  r.reserve(4 * edges);
  c.reserve(4 * edges);
  v.reserve(4 * edges);
  for (std::int64_t e = 0; e < edges; ++e) {
    const index_t i = U(rng);
    index_t j = U(rng);
    if (j == i) j = (i + 1) % n;
    const double w = W(rng);
    for (const auto& [a, b, x] : {std::tuple{i, i, w}, std::tuple{j, j, w}, std::tuple{i, j, -w}, std::tuple{j, i, -w}}) {
      r.push_back(a);
      c.push_back(b);
      v.push_back(x);
    }
  }
  return {n, n, Array<index_t>::from_vector(r, space, "update rows"), Array<index_t>::from_vector(c, space, "update cols"),
          Array<double>::from_vector(v, space, "update values")};
}

CooMatrix coupling_updates(const std::vector<offset_t>& row_ptr, const std::vector<index_t>& col, std::int64_t edges,
                           double weight, std::uint64_t seed, Space space) {
  SAGA_REQUIRE(!row_ptr.empty(), "coupling updates: no row_ptr");
  const index_t n = static_cast<index_t>(row_ptr.size() - 1);
  SAGA_REQUIRE(edges >= 0, "coupling updates: {} edges", edges);
  SAGA_REQUIRE(weight > 0 && weight < 1e300, "coupling updates: weight {} (expected > 0)", weight);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> W(0.5 * weight, weight);
  std::vector<index_t> r, c;
  std::vector<double> v;
  const offset_t nnz = row_ptr.back();
  for (std::int64_t e = 0; e < edges && nnz > 0; ++e) {
    // A stored entry at random, tried a few times for an off-diagonal one.
    for (int attempt = 0; attempt < 16; ++attempt) {
      const offset_t k = static_cast<offset_t>(rng() % static_cast<std::uint64_t>(nnz));
      const index_t i = static_cast<index_t>(std::upper_bound(row_ptr.begin(), row_ptr.end(), k) - row_ptr.begin() - 1);
      const index_t j = col[k];
      if (i == j) continue;
      const double w = W(rng);
      for (const auto& [a, b, x] : {std::tuple{i, i, w}, std::tuple{j, j, w}, std::tuple{i, j, -w}, std::tuple{j, i, -w}}) {
        r.push_back(a);
        c.push_back(b);
        v.push_back(x);
      }
      break;
    }
  }
  return {n, n, Array<index_t>::from_vector(r, space, "update rows"), Array<index_t>::from_vector(c, space, "update cols"),
          Array<double>::from_vector(v, space, "update values")};
}

}  // namespace saga
