#pragma once
// Aggregation from a distance-2 MIS of the strength graph: every MIS node is
// the root of an aggregate (numbered in node order); every other node joins the
// aggregate of its most strongly connected neighbour that is a root (pass 1),
// then the remaining ones that of their most strongly connected neighbour
// aggregated in pass 1 (pass 2). MIS-2 maximality puts every node within
// distance 2 of a root, so no node is left out; an isolated node (no strong
// neighbour) is itself a root and forms a singleton aggregate. The methods
// differ in the MIS: random-priority Luby rounds (mis2) or the
// lexicographically first one (greedy, amg/lexicographic_mis2.hpp).
#include <cstdint>

#include "core/registry.hpp"
#include "sparse/csr.hpp"

namespace saga::amg {

struct Aggregates {
  Array<index_t> of_node;  // aggregate number of each node
  index_t count = 0;
  int mis2_rounds = 0;
};

Aggregates aggregate_mis2(const CsrMatrix& S, std::uint32_t seed);
Aggregates aggregate_greedy(const CsrMatrix& S);
// The two joining passes around given roots (1 = root), which must be a
// maximal distance-2 independent set of S.
Aggregates aggregate_from_roots(const CsrMatrix& S, const Array<std::int32_t>& roots);

// Aggregation methods, behind the aggregation registry (amg.aggregation):
//   mis2 (default): hash priorities seeded with amg.seed + level
//   (deterministic); greedy: roots in node order, the aggregates of PyAMG's
//   standard aggregation (fewest iterations, slowest setup on the GPU);
//   phased (amg/aggregation_phased.cpp). docs/aggregation.md compares them.
class AggregationMethod {
 public:
  virtual ~AggregationMethod() = default;
  virtual Aggregates aggregate(const CsrMatrix& S, std::uint32_t seed) const = 0;
};
using AggregationRegistry = Registry<AggregationMethod>;
const AggregationRegistry& aggregation_methods();

// Registration of the methods defined in their own files.
void add_phased_aggregation(AggregationRegistry& reg);

}  // namespace saga::amg
