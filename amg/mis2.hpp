#pragma once
// Distance-2 maximal independent set of a graph (the strength matrix's
// pattern), computed in parallel Luby-style rounds with deterministic hash
// priorities: the same graph and seed give the same set on every backend.
//
// A round is either a full sweep (two passes over every row) or, once few
// nodes are undecided, a frontier round over those nodes only: an SpMSpV
// (sparse/spmspv.hpp, or_and) of the undecided set finds the nodes whose
// distance-1 maximum the decisions need, and only they are computed. Both
// kinds give the same set: the switch is a matter of speed alone.
#include <cstdint>

#include "sparse/csr.hpp"

namespace saga::amg {

struct Mis2Options {
  // Frontier rounds once at most this share of the nodes is undecided
  // (0: full sweeps only; 1: frontier rounds from the second round on). 0.05
  // was fastest or within 5% of it on every graph measured (docs/spmspv.md).
  double frontier_ratio = 0.05;
  // On the GPU, graphs of at most this many nodes run all their rounds in one
  // cooperative kernel (the same set; 0: never by size). The default is
  // cuda::kCooperativeMis2MaxRows.
  index_t cooperative_max_rows = 1 << 18;
  // ... and so do graphs of at most this many entries, whatever their size
  // (0: never by entries): where a pass over S costs less than a launched
  // round's launches and host read, full sweeps in one kernel beat the
  // launched rounds with their frontier ones. Measured on the H100 (level 0's
  // aggregation, launched -> one kernel): 2D 5-pt N = 1024 (5.2M entries)
  // 0.86-0.98 -> 0.72-0.75 ms, 2D 9-pt (9.4M) 0.94-1.08 -> 0.91-0.94 ms; 3D
  // 7-pt N = 128 (14.6M) 1.45 -> 1.53 ms, 3D 27-pt N = 101 (27M) 1.7 -> 2.1
  // ms, 3D 7-pt N = 512 57 -> 83 ms: hence 12M (docs/profiling.md).
  std::int64_t cooperative_max_entries = std::int64_t(12) << 20;
  // Whether S's rounds (and joining passes) run in one cooperative kernel.
  bool cooperative(const CsrMatrix& S) const {
    return S.rows() <= cooperative_max_rows || static_cast<std::int64_t>(S.nnz()) <= cooperative_max_entries;
  }
};

struct Mis2Result {
  Array<std::int32_t> in_set;  // 1 for members, 0 otherwise
  int rounds = 0;              // full + frontier rounds
  int frontier_rounds = 0;
};

Mis2Result mis2(const CsrMatrix& S, std::uint32_t seed, const Mis2Options& options = {});

// The same on a subgraph: role[i] is kExcluded (not in the subgraph: neither
// chosen nor a path through it), kRelay (in the subgraph, never chosen) or
// kCandidate. The result is a distance-2 independent set of candidates in the
// subgraph induced by the non-excluded nodes, maximal among the candidates.
enum : std::int32_t { kExcluded = 0, kRelay = 1, kCandidate = 2 };
Mis2Result mis2(const CsrMatrix& S, std::uint32_t seed, const Array<std::int32_t>& role,
                const Mis2Options& options = {});

namespace cuda {
// Graphs of at most this many nodes run every round of full sweeps in one
// cooperative kernel (grid barriers between the halves of a round, the count
// of undecided nodes summed by every block): one launch and one host read for
// the whole set instead of four launches and a read a round. Coarse levels,
// where those launches and reads were the cost (docs/profiling.md).
constexpr index_t kCooperativeMis2MaxRows = Mis2Options{}.cooperative_max_rows;
// All rounds on the device; false (nothing done) where the device cannot
// launch a cooperative kernel. state starts as Mis2Init leaves it; on return it
// holds kIn / kOut for every node, and *rounds the rounds run. t1 and undecided
// (n each) are the caller's workspace.
bool mis2_rounds_cooperative(const CsrMatrix& S, std::uint32_t seed_hash, const std::int32_t* role,
                             Array<std::int32_t>& state, Array<std::uint64_t>& t1, Array<std::int32_t>& undecided,
                             int max_rounds, int* rounds);
}  // namespace cuda

}  // namespace saga::amg
