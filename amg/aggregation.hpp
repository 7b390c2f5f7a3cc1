#pragma once
// Aggregation from a distance-2 MIS of the strength graph: every MIS node is
// the root of an aggregate (numbered in node order); every other node joins the
// aggregate of its most strongly connected neighbour that is a root (pass 1),
// then the remaining ones that of their most strongly connected neighbour
// aggregated in pass 1 (pass 2). MIS-2 maximality puts every node within
// distance 2 of a root, so no node is left out; a node without strong
// neighbours is left unaggregated (-1: a zero row of the tentative
// prolongator, as in PyAMG), not made a singleton aggregate. The methods
// differ in the MIS: random-priority Luby rounds (mis2), the
// lexicographically first one (greedy, amg/lexicographic_mis2.hpp) or that
// of a visit in coloured blocks (blocked, amg/blocked_mis2.hpp).
#include <cstdint>

#include "amg/blocked_mis2.hpp"
#include "amg/mis2.hpp"
#include "core/registry.hpp"
#include "sparse/csr.hpp"

namespace saga::amg {

struct Aggregates {
  Array<index_t> of_node;  // aggregate number of each node; -1: unaggregated (no strong neighbour)
  index_t count = 0;
  index_t unaggregated = 0;  // nodes left out (rows of S without an off-diagonal entry)
  int mis2_rounds = 0;
  int block_colours = 0;  // blocked greedy: colours of its block schedule (0: MIS-2 rounds made the roots)
};
index_t count_unaggregated(const Array<index_t>& of_node);
// The hierarchy's policy for the nodes an aggregation left out: those with no
// off-diagonal entry in A at all (isolated vertices of a graph) stay out; the
// others (only weak connections at theta > 0) become singleton aggregates,
// which keeps them in the coarse space (2D 9-pt rotated, theta 0.25: 61 PCG
// iterations, against 82 when they are left to the smoother).
void singletons_for_weak_nodes(const CsrMatrix& A, Aggregates& ag);

Aggregates aggregate_mis2(const CsrMatrix& S, std::uint32_t seed, const Mis2Options& options = {});

// The MIS-2 parameters of the methods built on Luby rounds (mis2, phased).
struct Mis2Params {
  double frontier_ratio = Mis2Options{}.frontier_ratio;
  int cooperative_rows = Mis2Options{}.cooperative_max_rows;
  std::int64_t cooperative_entries = Mis2Options{}.cooperative_max_entries;
  template <class V>
  void visit(V& v) {
    v("frontier_ratio", frontier_ratio,
      "MIS-2 rounds go over the undecided nodes alone (SpMSpV frontier) once at most this share is left; "
      "0: full sweeps only. The set is the same either way",
      in_range(0, 1));
    v("cooperative_rows", cooperative_rows,
      "on the GPU, graphs of at most this many nodes run all MIS-2 rounds, and the joining passes, in one kernel "
      "each (at most 262144; 0: not by size). The aggregates are the same either way",
      in_range(0, Mis2Options{}.cooperative_max_rows));
    v("cooperative_entries", cooperative_entries,
      "... and so do graphs of at most this many entries (sparse levels, where a pass over the graph costs less "
      "than a launched round; 0: not by entries)",
      at_least(0));
  }
  Mis2Options options() const { return Mis2Options{frontier_ratio, cooperative_rows, cooperative_entries}; }
};
Aggregates aggregate_greedy(const CsrMatrix& S);

// What a method may know of the level it aggregates.
struct AggregationLevel {
  int level = 0;              // 0: the finest
  int nullspace_columns = 1;  // of the level's near-nullspace (6 for 3D elasticity)
};

// Greedy roots visited block by block (amg/blocked_mis2.hpp), with MIS-2
// rounds where the block schedule does not fit (too many colours, too wide a
// span for a CTA) or its visit would take long on the GPU.
struct BlockedGreedyParams {
  int block_size = 4096;
  int coarse_block_size = 2048;
  int large_level_block_size = 1024;
  index_t large_level_rows = index_t(1) << 16;
  int star_block_size = 2048;
  int align = 2;
  int max_nullspace_columns = 1;
  static constexpr int kMaxBlockSize = 1 << 20;  // 128 KB of flags in a CTA's shared memory
  int max_colours = 64;
  int line_warps = 8;
  bool host_visit = true;
  double chain_entries = 4.0;
  // With host_visit, device levels of at most this many rows and entries have
  // their shape and schedule made on the host too (a few launches and reads
  // saved; the host's passes cost ~10 ns a row: 22k sparse rows of the
  // anisotropic variant's level 2 took longer on the host).
  static constexpr index_t kHostLevelRows = 4096;
  static constexpr std::int64_t kHostLevelEntries = std::int64_t(1) << 17;
  static bool tiny_level(const CsrMatrix& S) { return S.rows() <= kHostLevelRows && S.nnz() <= kHostLevelEntries; }
  // The least block size of a level (level 0, a large coarse level, another coarse level).
  index_t min_block_size(const AggregationLevel& where, index_t rows) const {
    if (where.level == 0) return block_size;
    return large_level_block_size > 0 && rows >= large_level_rows ? large_level_block_size : coarse_block_size;
  }
  Mis2Params mis2;
  template <class V>
  void visit(V& v) {
    v("block_size", block_size,
      "nodes of a block (consecutive indices), at least; blocks should hold several grid lines for greedy's "
      "pattern",
      in_range(32, kMaxBlockSize));
    v("coarse_block_size", coarse_block_size,
      "block_size on the coarse levels (level 1 on): their grid lines are shorter, and smaller blocks run more "
      "at once",
      in_range(32, kMaxBlockSize));
    v("large_level_block_size", large_level_block_size,
      "the least block size on coarse levels of at least large_level_rows rows, which the GPU walks: a colour's "
      "blocks run side by side and each block's windows one after another, so blocks half as long halve the walk "
      "(2D 5-pt N=1024 level 1: 65 blocks of 2724 nodes, 86 windows each, against 129 of 1362); the smaller levels "
      "are walked on the host, where the block size costs nothing, and keep coarse_block_size (3D 7-pt N=64's "
      "level 1 in blocks of 1970 nodes gives 14 iterations, of 3940 13); 0: coarse_block_size everywhere",
      in_range(0, kMaxBlockSize));
    v("large_level_rows", large_level_rows, "see large_level_block_size", at_least(index_t(0)));
    v("star_block_size", star_block_size,
      "where a period (a plane) holds a level's block size and every row reaches the next and the previous plane "
      "with one entry each (a star stencil: 3D 7-point), blocks of whole grid lines of at least this many nodes "
      "instead of whole planes (more blocks at once, the same iterations); 0: whole planes",
      in_range(0, kMaxBlockSize));
    v("align", align,
      "round the block size up to whole periods of the matrix (a grid line in 2D, a plane in 3D): to one period "
      "where a period holds block_size nodes, else to a multiple of this many periods; 0: no rounding",
      in_range(0, 64));
    v("max_colours", max_colours,
      "a level whose blocks need more colours (a badly banded numbering) takes its roots from MIS-2 rounds, as does "
      "one whose visit would take more than max(1.5 ms, 4 ns a node) on the GPU",
      in_range(1, 4096));
    v("line_warps", line_warps,
      "warps a block on the GPU: they walk the block's grid lines as a wavefront, each line's windows once the "
      "earlier lines have decided what they depend on (the same roots); 1: one warp walks the block",
      in_range(1, kMaxLineWarps));
    v("host_visit", host_visit,
      "the GPU backend visits a level's blocks on the host where that is estimated faster (small coarse levels: "
      "a few blocks a colour, each a chain of ~3 us windows on the GPU, a few ns an entry on the host); the "
      "pattern goes over and the roots come back, the same roots either way");
    v("chain_entries", chain_entries,
      "a level whose strength graph has at most this many entries a row on average, the diagonal included, takes "
      "its roots from MIS-2 rounds: such a graph (below a 2D grid's 5) is mostly chains and lone nodes, where the "
      "strong connections follow one direction (strong anisotropy) or stop at coefficient jumps, and the grid "
      "pattern the blocked visit keeps is gone: greedy cuts a chain into aggregates of exactly 3, MIS-2 into "
      "larger ones (docs/aggregation.md \"Chains\"); 0: never",
      at_least(0.0));
    v("max_nullspace_columns", max_nullspace_columns,
      "levels whose near-nullspace has more columns take their roots from MIS-2 rounds (elasticity: greedy's "
      "compact aggregates, 6 coarse columns each, raise the operator complexity from 2.2 to 3.2 at the same "
      "iterations)",
      at_least(1));
    mis2.visit(v);
  }
};
// Level 0 takes blocks of at least p.block_size nodes, coarser levels of
// p.coarse_block_size; levels with more near-nullspace columns than
// p.max_nullspace_columns, whose schedule does not fit, or whose visit would
// take long on the GPU (blocked_visit_seconds) take MIS-2 rounds. With
// p.host_visit, a device S whose visit host_visit_seconds estimates cheaper
// on the host is visited there (the same schedule, the same roots), and a
// tiny one (tiny_level) has its shape and schedule made there too.
Aggregates aggregate_blocked_greedy(const CsrMatrix& S, std::uint32_t seed, const BlockedGreedyParams& p,
                                    const AggregationLevel& where = {});
// The GPU visit's time by the schedule (colours x windows of 32 nodes x the
// time of a window, from measurements on the H100), with one warp a block.
double blocked_visit_seconds(const CsrMatrix& S, const BlockSchedule& schedule);
// The same visit on the host for a device S: its pattern copied over, the
// host's walk and the roots copied back.
double host_visit_seconds(const CsrMatrix& S);
// Nodes of S with no entry off the diagonal (no strong neighbour).
index_t nodes_without_neighbours(const CsrMatrix& S);

// The two joining passes around given roots (1 = root), which must be a
// maximal distance-2 independent set of S. On the GPU, graphs that
// options.cooperative(S) admits run them in one cooperative kernel (the same
// aggregates).
Aggregates aggregate_from_roots(const CsrMatrix& S, const Array<std::int32_t>& roots,
                                const Mis2Options& options = {});
// The same with roots the passes may overwrite (no copy of them first).
Aggregates aggregate_from_roots(const CsrMatrix& S, Array<std::int32_t>&& roots, const Mis2Options& options = {});

namespace cuda {
// aggregate_from_roots in one cooperative kernel (the same aggregates, one host
// read instead of three and a dozen launches; for the small graphs
// aggregate_from_roots admits); false (nothing done, in_set unchanged) where it
// cannot run. in_set (the roots) is overwritten.
bool aggregate_from_roots_cooperative(const CsrMatrix& S, Array<std::int32_t>& in_set, Aggregates& a);
}  // namespace cuda

// Aggregation methods, behind the aggregation registry (amg.aggregation):
//   blocked (default): greedy's roots in coloured blocks (greedy's
//   iterations at 1.3-3x mis2's aggregation time); mis2: hash priorities
//   seeded with amg.seed + level (deterministic; the fastest setup); greedy:
//   roots in node order, the aggregates of PyAMG's standard aggregation
//   (slowest setup on the GPU); phased (amg/aggregation_phased.cpp).
//   docs/aggregation.md compares them.
class AggregationMethod {
 public:
  virtual ~AggregationMethod() = default;
  virtual Aggregates aggregate(const CsrMatrix& S, std::uint32_t seed, const AggregationLevel& where) const = 0;
};
using AggregationRegistry = Registry<AggregationMethod>;
const AggregationRegistry& aggregation_methods();

// Registration of the methods defined in their own files.
void add_phased_aggregation(AggregationRegistry& reg);

}  // namespace saga::amg
