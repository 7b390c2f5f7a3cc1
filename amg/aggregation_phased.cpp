// Phased aggregation (component "phased"): compact aggregates with MIS-2's
// parallelism, after MueLu's uncoupled aggregation and Kokkos-Kernels' MIS-2
// coarsening (docs/aggregation.md):
//   1. roots: a distance-2 MIS of the strength graph; each root takes all its
//      neighbours (distance 1 only; MIS-2 roots share no neighbour);
//   2. gaps (up to `gap_rounds` times): a distance-2 MIS of the subgraph of
//      still unaggregated nodes, among those with at least `min_size` - 1
//      unaggregated neighbours; each new root takes its unaggregated neighbours;
//   3. leftovers join the neighbouring aggregate they are most strongly tied
//      to, the smaller one on ties;
//   4. nodes with no aggregated neighbour (tiny components) found new
//      aggregates with phase 2's rule and any size, and 3 repeats.
// Every pass reads the previous labels only and numbers roots by a scan, so
// the aggregates are the same on both backends and on every run.
#include "amg/aggregation.hpp"
#include "amg/functors.hpp"
#include "amg/mis2.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/scan.hpp"

namespace saga::amg {

namespace {

struct PhasedParams {
  int min_size = 3;     // smallest aggregate phase 2 creates
  double min_free_ratio = 0.5;  // phase-2 roots: this share of their neighbours unaggregated
  int gap_rounds = 1;   // phase-2 rounds
  Mis2Params mis2;      // of every MIS-2 it runs

  template <class V>
  void visit(V& v) {
    v("min_size", min_size, "smallest aggregate a gap-filling round creates (root + unaggregated neighbours)",
      at_least(1));
    v("min_free_ratio", min_free_ratio,
      "a gap-filling root needs at least this share of its strong neighbours unaggregated", in_range(0, 1));
    v("gap_rounds", gap_rounds, "rounds that found new aggregates among the unaggregated nodes", at_least(0));
    mis2.visit(v);
  }
};

class Phased final : public AggregationMethod {
 public:
  explicit Phased(const PhasedParams& p) : p_(p) {}

  Aggregates aggregate(const CsrMatrix& S, std::uint32_t seed, const AggregationLevel&) const override {
    const Space s = S.space();
    const index_t n = S.rows();
    const offset_t* rp = S.row_ptr().data();
    const index_t* ci = S.col().data();
    Array<index_t> agg(n, s, "aggregate of node"), root_label(n, s, "new root labels");
    Array<std::int32_t> is_root(n, s, "root flags"), role(n, s, "MIS-2 roles");
    Array<std::int32_t> scan(static_cast<std::size_t>(n) + 1, s, "aggregate numbering");
    parallel_for(s, n, amg_functors::ClearLabels{agg.data(), is_root.data()});
    Aggregates a;
    // One root phase: an MIS-2 (of the whole graph, or of the roles' subgraph),
    // its members numbered after the existing aggregates, their unaggregated
    // neighbours joined. Returns how many aggregates it founded.
    auto found = [&](Mis2Result m) {
      a.mis2_rounds += m.rounds;
      parallel_for(s, n, amg_functors::DropIsolatedRoots{rp, ci, m.in_set.data()});
      exclusive_scan_total(m.in_set, scan);
      const index_t added = scan.get(n);
      parallel_for(s, n,
                   amg_functors::NumberNewRoots{m.in_set.data(), scan.data(), a.count, agg.data(), root_label.data(),
                                                is_root.data()});
      parallel_for(s, n, amg_functors::JoinNewRoot{rp, ci, root_label.data(), agg.data()});
      a.count += added;
      return added;
    };
    auto gap_round = [&](int min_free, double min_ratio, std::uint32_t salt) {
      parallel_for(s, n, amg_functors::GapRoles{rp, ci, agg.data(), min_free, min_ratio, role.data()});
      return found(mis2(S, seed ^ (0x9e3779b9u * salt), role, p_.mis2.options()));
    };

    found(mis2(S, seed, p_.mis2.options()));                                            // phase 1
    for (int r = 0; r < p_.gap_rounds; ++r)                            // phase 2
      if (gap_round(p_.min_size - 1, p_.min_free_ratio, static_cast<std::uint32_t>(r + 1)) == 0) break;

    // Sizes for the tie-break, counted at the roots (root + its neighbours).
    Array<index_t> size(static_cast<std::size_t>(a.count), s, "aggregate sizes");
    parallel_for(s, n, amg_functors::RootSizes{rp, ci, agg.data(), is_root.data(), size.data()});
    Array<index_t> next(n, s, "aggregate of node");
    Array<std::int32_t> unassigned(n, s, "unassigned flags");
    auto join_pass = [&] {
      parallel_for(s, n,
                   amg_functors::JoinByConnection{rp, ci, S.val().data(), agg.data(), size.data(), next.data(),
                                                  unassigned.data()});
      std::swap(agg, next);
      return count_flagged(unassigned);
    };
    // Phase 3 (and 4): leftovers join by connection; each pass reaches one
    // step further. A pass that changes nothing means some nodes see no
    // aggregate at all: they found their own (any size), and the loop goes on.
    for (std::uint32_t salt = 1000;; ++salt) {
      std::int64_t left = join_pass();
      for (std::int64_t prev = -1; left > 0 && left != prev;) {
        prev = left;
        left = join_pass();
      }
      if (left == 0) break;
      const index_t before = a.count;
      gap_round(0, 0.0, salt);
      SAGA_REQUIRE(a.count > before, "phased aggregation made no progress: internal error");
      Array<index_t> grown(static_cast<std::size_t>(a.count), s, "aggregate sizes");
      size = std::move(grown);
      parallel_for(s, n, amg_functors::RootSizes{rp, ci, agg.data(), is_root.data(), size.data()});
    }
    a.of_node = std::move(agg);
    a.unaggregated = count_unaggregated(a.of_node);
    return a;
  }

 private:
  PhasedParams p_;
};

struct PhasedComponent {
  static constexpr const char* name = "phased";
  static constexpr const char* summary =
      "MIS-2 roots with their neighbours, new aggregates in the gaps, leftovers joined by strongest tie";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = PhasedParams;
  static std::unique_ptr<AggregationMethod> make(const Params& p) { return std::make_unique<Phased>(p); }
};

}  // namespace

void add_phased_aggregation(AggregationRegistry& reg) { reg.add<PhasedComponent>(); }

}  // namespace saga::amg
