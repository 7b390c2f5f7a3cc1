#pragma once
// Distance-2 maximal independent set of a graph (the strength matrix's
// pattern), computed in parallel Luby-style rounds with deterministic hash
// priorities: the same graph and seed give the same set on every backend.
#include <cstdint>

#include "sparse/csr.hpp"

namespace saga::amg {

struct Mis2Result {
  Array<std::int32_t> in_set;  // 1 for members, 0 otherwise
  int rounds = 0;
};

Mis2Result mis2(const CsrMatrix& S, std::uint32_t seed);

}  // namespace saga::amg
