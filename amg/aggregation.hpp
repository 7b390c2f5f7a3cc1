#pragma once
// Aggregation from a distance-2 MIS of the strength graph: every MIS node is
// the root of an aggregate (numbered in node order); every other node joins the
// aggregate of its most strongly connected neighbour that is a root (pass 1),
// then the remaining ones that of their most strongly connected neighbour
// aggregated in pass 1 (pass 2). MIS-2 maximality puts every node within
// distance 2 of a root, so no node is left out; an isolated node (no strong
// neighbour) is itself a root and forms a singleton aggregate.
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

// Aggregation methods, behind the aggregation registry (amg.aggregation):
//   mis2 (default): the distance-2 MIS aggregation above, hash priorities
//   seeded with amg.seed + level (deterministic).
class AggregationMethod {
 public:
  virtual ~AggregationMethod() = default;
  virtual Aggregates aggregate(const CsrMatrix& S, std::uint32_t seed) const = 0;
};
using AggregationRegistry = Registry<AggregationMethod>;
const AggregationRegistry& aggregation_methods();

}  // namespace saga::amg
