#include "amg/mis2.hpp"

#include "amg/functors.hpp"
#include "core/parallel_for.hpp"
#include "sparse/scan.hpp"

namespace saga::amg {

// Each round: the maximum (state, priority, index) tuple over distance 1 twice
// (= distance 2), packing the tuples on the fly in the first pass and deciding
// in the second: an undecided node that is its own distance-2 maximum joins,
// and one that sees a member leaves (two passes over S a round). Members have
// the largest state and non-members the smallest, so decided nodes never block.
namespace {
Mis2Result mis2_rounds(const CsrMatrix& S, std::uint32_t seed, const std::int32_t* role) {
  const Space s = S.space();
  const index_t n = S.rows();
  Array<std::int32_t> state(n, s, "MIS-2 state");
  parallel_for(s, n, amg_functors::Mis2Init{role, state.data()});
  Array<std::uint64_t> t1(n, s, "MIS-2 tuples");
  Array<std::int32_t> undecided(n, s, "MIS-2 undecided flags");
  Array<std::int32_t> sums(static_cast<std::size_t>(n) + 1, s, "MIS-2 undecided count");
  Mis2Result r;
  for (;;) {
    ++r.rounds;
    parallel_for(s, n,
                 amg_functors::Mis2NeighbourMax{S.row_ptr().data(), S.col().data(), role, state.data(),
                                                amg_functors::hash32(seed), t1.data()});
    parallel_for(s, n,
                 amg_functors::Mis2Decide{S.row_ptr().data(), S.col().data(), role, t1.data(), state.data(),
                                          undecided.data()});
    exclusive_scan_total(undecided, sums);
    if (sums.get(n) == 0) break;
    SAGA_REQUIRE(r.rounds < 10000, "MIS-2 did not finish after {} rounds", r.rounds);
  }
  // Members (state kIn) -> 1, others -> 0.
  parallel_for(s, n, amg_functors::FlagRoots{state.data(), undecided.data()});
  r.in_set = std::move(undecided);
  return r;
}
}  // namespace

Mis2Result mis2(const CsrMatrix& S, std::uint32_t seed) { return mis2_rounds(S, seed, nullptr); }

Mis2Result mis2(const CsrMatrix& S, std::uint32_t seed, const Array<std::int32_t>& role) {
  SAGA_REQUIRE(role.size() == static_cast<std::size_t>(S.rows()) && role.space() == S.space(),
               "MIS-2: the role array does not match the graph");
  return mis2_rounds(S, seed, role.data());
}

}  // namespace saga::amg
