#include "problems/edge_updates.hpp"

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

}  // namespace saga
