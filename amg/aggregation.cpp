#include "amg/aggregation.hpp"

#include <algorithm>

#include "amg/blocked_mis2.hpp"
#include "amg/functors.hpp"
#include "amg/lexicographic_mis2.hpp"
#include "amg/mis2.hpp"
#include "core/device.hpp"
#include "core/dispatch.hpp"
#include "core/log.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/scan.hpp"

namespace saga::amg {

Aggregates aggregate_mis2(const CsrMatrix& S, std::uint32_t seed, const Mis2Options& options) {
  Mis2Result m = mis2(S, seed, options);
  Aggregates a = aggregate_from_roots(S, std::move(m.in_set), options);
  a.mis2_rounds = m.rounds;
  return a;
}

Aggregates aggregate_greedy(const CsrMatrix& S) { return aggregate_from_roots(S, lexicographic_mis2(S)); }

double blocked_visit_seconds(const CsrMatrix& S, const BlockSchedule& schedule) {
  // Measured on the H100 (docs/aggregation.md): ~3 us a window for rows of
  // 5-22 entries; in proportion to the mean row above (the lanes walk their
  // rows in batches: 9 us a window at 65 entries); more on sparse rows, where
  // most nodes of a window become members one after another (8 us at 2
  // entries a row, diagonal included, after a theta filter). One warp a
  // block: the wavefront over lines (line_warps) only shortens the walk, and
  // by how much depends on the lags the GPU measures, so the decision (the
  // same on both backends) does not count on it.
  const double mean_row = S.rows() > 0 ? static_cast<double>(S.nnz()) / S.rows() : 0.0;
  const double windows = static_cast<double>(schedule.colours()) * ((std::min(schedule.block_size, S.rows()) + 31) / 32);
  return windows * 3e-6 * std::max({1.0, mean_row / 22, 6 / (mean_row + 1)});
}

double host_visit_seconds(const CsrMatrix& S) {
  // Measured on the H200 machine (docs/aggregation.md "Small levels visited
  // on the host"): the pattern's copy from pageable memory (~7 GB/s) and the
  // host's walk, about 2 ns an entry and 1 ns a row together, and ~30 us of
  // the copies' latency.
  return 30e-6 + 2e-9 * static_cast<double>(S.nnz()) + 1e-9 * static_cast<double>(S.rows());
}

namespace {
// A device S's pattern on the host (rows and columns; the values are left
// uninitialised: the shape, the schedule and the visit read none) and room
// for the visit's member flags, in the thread's page-locked staging buffer
// (device::host_staging: one DMA each way, not the driver's staging through
// pageable memory). Views: valid until the thread's next use of the buffer.
struct HostPattern {
  CsrMatrix S;
  Array<std::int32_t> in;
};
HostPattern host_pattern(const CsrMatrix& S) {
  const auto aligned = [](std::size_t b) { return (b + 255) / 256 * 256; };
  const std::size_t n = static_cast<std::size_t>(S.rows()), nnz = static_cast<std::size_t>(S.nnz());
  const std::size_t rows_bytes = (n + 1) * sizeof(offset_t), cols_bytes = nnz * sizeof(index_t);
  char* buffer =
      static_cast<char*>(device::host_staging(aligned(rows_bytes) + aligned(cols_bytes) + n * sizeof(std::int32_t)));
  auto* rp = reinterpret_cast<offset_t*>(buffer);
  auto* ci = reinterpret_cast<index_t*>(buffer + aligned(rows_bytes));
  auto* in = reinterpret_cast<std::int32_t*>(buffer + aligned(rows_bytes) + aligned(cols_bytes));
  device::copy(rp, S.row_ptr().data(), rows_bytes, device::Copy::device_to_host);
  device::copy(ci, S.col().data(), cols_bytes, device::Copy::device_to_host);
  return {CsrMatrix(S.rows(), S.cols(), Array<offset_t>::view(rp, n + 1, Space::host),
                    Array<index_t>::view(ci, nnz, Space::host), Array<float>(nnz, Space::host, "unused values")),
          Array<std::int32_t>::view(in, n, Space::host)};
}
}  // namespace

Aggregates aggregate_blocked_greedy(const CsrMatrix& S, std::uint32_t seed, const BlockedGreedyParams& p,
                                    const AggregationLevel& where) {
  if (where.nullspace_columns > p.max_nullspace_columns) return aggregate_mis2(S, seed, p.mis2.options());
  if (static_cast<double>(S.nnz()) <= p.chain_entries * S.rows()) {
    log_info("blocked aggregation: the strength graph has {:.2f} entries a row (chains); roots from MIS-2 rounds",
             S.rows() > 0 ? static_cast<double>(S.nnz()) / S.rows() : 0.0);
    return aggregate_mis2(S, seed, p.mis2.options());
  }
  // A tiny device level (a few thousand nodes): the shape's and the
  // schedule's passes are a handful of launches and reads of a few bytes each
  // on the GPU, microseconds on the host; its pattern goes over at once.
  const bool tiny = S.space() == Space::device && p.host_visit && BlockedGreedyParams::tiny_level(S);
  HostPattern pattern;
  if (tiny) pattern = host_pattern(S);
  const CsrMatrix& G = tiny ? pattern.S : S;
  ShapedSchedule shaped = shaped_block_schedule(G, p.min_block_size(where, G.rows()), p.align,
                                                BlockedGreedyParams::kMaxBlockSize, p.star_block_size, p.max_colours);
  BlockSchedule schedule = std::move(shaped.schedule);
  schedule.line = shaped.shape.line;
  schedule.line_warps = p.line_warps;
  if (!schedule.fits()) {  // no parallel blocks: MIS-2 rounds (block_colours stays 0 in the report)
    log_info("blocked aggregation: {}; roots from MIS-2 rounds", schedule.unfit);
    return aggregate_mis2(S, seed, p.mis2.options());
  }
  // MIS-2 rounds where the visit would take longer than max(1.5 ms, 4 ns a
  // node) on the GPU (the same rule on the host, so that both backends make
  // the same aggregates): too few blocks a colour, or dense coarse levels
  // (rows of 30-160 entries after a theta fallback). The seed problems' fine
  // levels stay inside (27-point N = 101: 3.4 of 4.1 ms); a 2D 9-point
  // rotated level of 14.6k nodes in 5 colours of one block each took 7.1 ms.
  const double estimate = blocked_visit_seconds(S, schedule);
  const double budget = std::max(1.5e-3, 4e-9 * S.rows());
  if (estimate > budget) {
    log_info("blocked aggregation: {} blocks of {} nodes in {} colours would take about {:.1f} ms on the GPU (more "
             "than {:.1f} ms); roots from MIS-2 rounds",
             schedule.blocks, schedule.block_size, schedule.colours(), 1e3 * estimate, 1e3 * budget);
    return aggregate_mis2(S, seed, p.mis2.options());
  }
  // A small level on the GPU: its visit is a chain of windows of ~3 us each
  // there (a few blocks a colour), and a walk of a few ns an entry on the
  // host. Where the host's walk and the pattern's way over are the cheaper,
  // the host visits the same schedule (the same roots) and the roots go back.
  const bool on_host = tiny || (S.space() == Space::device && p.host_visit && host_visit_seconds(S) < estimate);
  log_info("blocked aggregation: {} blocks of {} nodes in {} colours ({} entries, about {:.2f} ms on the GPU), {}",
           schedule.blocks, schedule.block_size, schedule.colours(), S.nnz(), 1e3 * estimate,
           on_host ? std::string("visited on the host") : fmt::format("lines of {}", schedule.line));
  if (on_host && !tiny) pattern = host_pattern(S);
  Array<std::int32_t> roots;
  if (on_host) {
    blocked_mis2(pattern.S, schedule, pattern.in);
    roots = pattern.in.to(Space::device, "MIS-2 members");
    device::synchronize();  // the copy from the staging buffer has read it (another stream may use it next)
  } else {
    roots = blocked_mis2(S, schedule);
  }
  Aggregates a = aggregate_from_roots(S, std::move(roots), p.mis2.options());
  a.block_colours = schedule.colours();
  return a;
}

index_t nodes_without_neighbours(const CsrMatrix& S) {
  const index_t n = S.rows();
  Array<std::int32_t> has(n, S.space(), "nodes with a strong neighbour");
  parallel_for(S.space(), n, saga::functors::FillInt32{has.data(), 1});
  parallel_for(S.space(), n, amg_functors::DropIsolatedRoots{S.row_ptr().data(), S.col().data(), has.data()});
  return static_cast<index_t>(n - count_flagged(has));
}

Aggregates aggregate_from_roots(const CsrMatrix& S, const Array<std::int32_t>& mis, const Mis2Options& options) {
  return aggregate_from_roots(S, mis.clone(), options);
}

Aggregates aggregate_from_roots(const CsrMatrix& S, Array<std::int32_t>&& in_set, const Mis2Options& options) {
  const Space s = S.space();
  const index_t n = S.rows();
  if (s == Space::device && options.cooperative(S)) {  // small or sparse graphs: every step in one kernel
    Aggregates a;
    bool done = false;
    SAGA_DEVICE_CALL(done = cuda::aggregate_from_roots_cooperative(S, in_set, a));
    if (done) return a;
  }
  parallel_for(s, n, amg_functors::DropIsolatedRoots{S.row_ptr().data(), S.col().data(), in_set.data()});
  Array<std::int32_t> scan(static_cast<std::size_t>(n) + 1, s, "aggregate numbering");
  exclusive_scan_total(in_set, scan);
  Aggregates a;
  a.count = scan.get(n);
  Array<index_t> roots(n, s, "aggregate of node"), pass1(n, s, "aggregate of node");
  Array<std::int32_t> unassigned(n, s, "unassigned flags");
  parallel_for(s, n, amg_functors::NumberRoots{in_set.data(), scan.data(), roots.data()});
  // Pass 1: neighbours of roots; pass 2: neighbours of pass-1 nodes. The
  // output of pass 2 goes back into `roots`.
  parallel_for(s, n, amg_functors::JoinStrongest{S.row_ptr().data(), S.col().data(), S.val().data(), roots.data(),
                                                 pass1.data(), unassigned.data()});
  parallel_for(s, n, amg_functors::JoinStrongest{S.row_ptr().data(), S.col().data(), S.val().data(), pass1.data(),
                                                 roots.data(), unassigned.data()});
  // Pass 3: with a symmetric S, MIS-2 maximality leaves nobody out; with a
  // nonsymmetric one (a nonsymmetric A), a node whose only root neighbour had
  // no strong neighbours of its own can be: it becomes its own aggregate.
  exclusive_scan_total(unassigned, scan);
  const index_t left = scan.get(n);
  if (left > 0) {
    parallel_for(s, n, amg_functors::NumberLeftovers{unassigned.data(), scan.data(), a.count, roots.data()});
    a.count += left;
  }
  a.of_node = std::move(roots);
  a.unaggregated = count_unaggregated(a.of_node);
  return a;
}

void singletons_for_weak_nodes(const CsrMatrix& A, Aggregates& ag) {
  const Space s = A.space();
  const index_t n = A.rows();
  Array<std::int32_t> flag(n, s, "weakly connected flags"), scan(static_cast<std::size_t>(n) + 1, s, "numbering");
  parallel_for(s, n,
               amg_functors::WeaklyConnectedLeftovers{A.row_ptr().data(), A.col().data(), A.val().data(),
                                                      ag.of_node.data(), flag.data()});
  exclusive_scan_total(flag, scan);
  const index_t added = scan.get(n);
  if (added == 0) return;
  parallel_for(s, n, amg_functors::NumberLeftovers{flag.data(), scan.data(), ag.count, ag.of_node.data()});
  ag.count += added;
  ag.unaggregated -= added;
}

index_t count_unaggregated(const Array<index_t>& of_node) {
  Array<std::int32_t> flags(of_node.size(), of_node.space(), "aggregated flags");
  parallel_for(of_node.space(), static_cast<std::int64_t>(of_node.size()),
               amg_functors::AggregatedFlags{of_node.data(), flags.data()});
  return static_cast<index_t>(static_cast<std::int64_t>(of_node.size()) - count_flagged(flags));
}

namespace {
class Mis2 final : public AggregationMethod {
 public:
  explicit Mis2(const Mis2Options& o) : options_(o) {}
  Aggregates aggregate(const CsrMatrix& S, std::uint32_t seed, const AggregationLevel&) const override {
    return aggregate_mis2(S, seed, options_);
  }

 private:
  Mis2Options options_;
};
class Greedy final : public AggregationMethod {
 public:
  Aggregates aggregate(const CsrMatrix& S, std::uint32_t, const AggregationLevel&) const override {
    return aggregate_greedy(S);
  }
};
struct GreedyComponent {
  static constexpr const char* name = "greedy";
  static constexpr const char* summary =
      "roots of the lexicographically first MIS-2 (PyAMG's standard aggregation), two joining passes";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<AggregationMethod> make(const Params&) { return std::make_unique<Greedy>(); }
};
class BlockedGreedy final : public AggregationMethod {
 public:
  explicit BlockedGreedy(const BlockedGreedyParams& p) : p_(p) {}
  Aggregates aggregate(const CsrMatrix& S, std::uint32_t seed, const AggregationLevel& where) const override {
    return aggregate_blocked_greedy(S, seed, p_, where);
  }

 private:
  BlockedGreedyParams p_;
};
struct BlockedGreedyComponent {
  static constexpr const char* name = "blocked";
  static constexpr const char* summary =
      "greedy roots visited in blocks of consecutive nodes, the blocks distance-2 coloured so that a colour's "
      "blocks run at once; two joining passes";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = BlockedGreedyParams;
  static std::unique_ptr<AggregationMethod> make(const Params& p) { return std::make_unique<BlockedGreedy>(p); }
};
struct Mis2Component {
  static constexpr const char* name = "mis2";
  static constexpr const char* summary = "roots from a distance-2 maximal independent set, two joining passes";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = Mis2Params;
  static std::unique_ptr<AggregationMethod> make(const Params& p) { return std::make_unique<Mis2>(p.options()); }
};
}  // namespace

const AggregationRegistry& aggregation_methods() {
  static const AggregationRegistry r = [] {
    AggregationRegistry reg("aggregation method", "amg.aggregation");
    reg.add<GreedyComponent>();
    reg.add<Mis2Component>();
    reg.add<BlockedGreedyComponent>();
    add_phased_aggregation(reg);
    reg.set_default("blocked");
    return reg;
  }();
  return r;
}

}  // namespace saga::amg
