#include "amg/mis2.hpp"

#include "amg/functors.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "core/dispatch.hpp"
#include "core/parallel_for.hpp"
#include "sparse/scan.hpp"
#include "sparse/spmspv.hpp"

namespace saga::amg {

// Each round: the maximum (state, priority, index) tuple over distance 1 twice
// (= distance 2), packing the tuples on the fly in the first pass and deciding
// in the second: an undecided node that is its own distance-2 maximum joins,
// and one that sees a member leaves (two passes over S a round). Members have
// the largest state and non-members the smallest, so decided nodes never block.
//
// A frontier round decides the undecided list U alone. A decision at u reads t1
// at u and at the columns of u's row: the set F = U ∪ Sᵀ ⊗ 1_U, which a
// structural SpMSpV with a dense output stamps with the round's number
// (spmspv_mark: no sort, no compaction, no host read). t1 is recomputed there
// (from the current states, as a full round would); the rest of t1 is stale and
// never read. Cost: the rows of U twice, those of F once and one read of the
// stamps, against two passes over S for a full round; one host read of the
// new count per round, as in a full round (docs/spmspv.md).
namespace {
Mis2Result mis2_rounds(const CsrMatrix& S, std::uint32_t seed, const std::int32_t* role, const Mis2Options& opt) {
  const Space s = S.space();
  const index_t n = S.rows();
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  const std::uint32_t seed_hash = amg_functors::hash32(seed);
  Array<std::int32_t> state(n, s, "MIS-2 state");
  parallel_for(s, n, amg_functors::Mis2Init{role, state.data()});
  Array<std::uint64_t> t1(n, s, "MIS-2 tuples");
  Array<std::int32_t> undecided(n, s, "MIS-2 undecided flags");
  Mis2Result r;
  constexpr int kMaxRounds = 10000;  // a bound that only a broken graph or priority could reach
  auto check_rounds = [&] { SAGA_REQUIRE(r.rounds < kMaxRounds, "MIS-2 did not finish after {} rounds", r.rounds); };

  // Small or sparse graphs: every round in one cooperative kernel (the same set).
  if (s == Space::device && opt.cooperative(S)) {
    bool done = false;
    SAGA_DEVICE_CALL(done = cuda::mis2_rounds_cooperative(S, seed_hash, role, state, t1, undecided, kMaxRounds,
                                                          &r.rounds));
    if (done) {
      check_rounds();
      parallel_for(s, n, amg_functors::FlagRoots{state.data(), undecided.data()});
      r.in_set = std::move(undecided);
      return r;
    }
  }

  Array<std::int32_t> sums(static_cast<std::size_t>(n) + 1, s, "MIS-2 undecided count");
  const amg_functors::Mis2NeighbourMax neighbour_max{rp, ci, role, state.data(), seed_hash, t1.data()};

  // Full sweeps while many nodes are undecided.
  index_t left = n;
  for (;;) {
    ++r.rounds;
    parallel_for(s, n, neighbour_max);
    parallel_for(s, n, amg_functors::Mis2Decide{rp, ci, role, t1.data(), state.data(), undecided.data()});
    exclusive_scan_total(undecided, sums);
    left = sums.get(n);
    if (left == 0 || static_cast<double>(left) <= opt.frontier_ratio * static_cast<double>(n)) break;
    check_rounds();
  }

  // Frontier rounds on the undecided list.
  if (left > 0) {
    Array<index_t> frontier(static_cast<std::size_t>(left), s, "MIS-2 undecided list");
    parallel_for(s, n, amg_functors::CompactFlagged{nullptr, undecided.data(), sums.data(), frontier.data()});
    Array<std::int32_t> stamp(n, s, "MIS-2 frontier stamps");
    parallel_for(s, n, saga::functors::FillInt32{stamp.data(), -1});
    while (left > 0) {
      ++r.rounds;
      ++r.frontier_rounds;
      check_rounds();
      const std::int32_t tag = r.rounds;
      spmspv_mark(S, frontier, left, stamp, tag, /*rows_too=*/true);
      parallel_for(s, n, amg_functors::Mis2NeighbourMaxStamped{stamp.data(), tag, neighbour_max});
      Array<std::int32_t> still(static_cast<std::size_t>(left), s, "MIS-2 frontier flags");
      Array<std::int32_t> pos(static_cast<std::size_t>(left) + 1, s, "MIS-2 frontier scan");
      parallel_for(s, left,
                   amg_functors::Mis2DecideListed{frontier.data(), rp, ci, role, t1.data(), state.data(),
                                                  still.data()});
      exclusive_scan_total(still, pos);
      const index_t next = pos.get(static_cast<std::size_t>(left));
      Array<index_t> list(static_cast<std::size_t>(next), s, "MIS-2 undecided list");
      parallel_for(s, left, amg_functors::CompactFlagged{frontier.data(), still.data(), pos.data(), list.data()});
      frontier = std::move(list);
      left = next;
    }
  }
  // Members (state kIn) -> 1, others -> 0.
  parallel_for(s, n, amg_functors::FlagRoots{state.data(), undecided.data()});
  r.in_set = std::move(undecided);
  return r;
}
}  // namespace

Mis2Result mis2(const CsrMatrix& S, std::uint32_t seed, const Mis2Options& options) {
  return mis2_rounds(S, seed, nullptr, options);
}

Mis2Result mis2(const CsrMatrix& S, std::uint32_t seed, const Array<std::int32_t>& role, const Mis2Options& options) {
  SAGA_REQUIRE(role.size() == static_cast<std::size_t>(S.rows()) && role.space() == S.space(),
               "MIS-2: the role array does not match the graph");
  return mis2_rounds(S, seed, role.data(), options);
}

}  // namespace saga::amg
