#pragma once
// Per-element work of the SA-AMG setup stages, shared by both backends through
// parallel_for (core/parallel_for.hpp). Each stage's driver (amg/*.cpp) is the
// one algorithm; these are its kernels.
#include <cmath>
#include <cstdint>

#include "core/hd.hpp"
#include "core/types.hpp"
#include "sparse/csr_ops_functors.hpp"  // the integer atomics

namespace saga::amg_functors {

// ---- strength of connection (amg/strength.cpp)
// Symmetric strength: keep (i, j) when i == j or |a_ij| >= theta sqrt(|a_ii a_jj|)
// (squared; the one predicate of both backends' kernels, so S is the same).
SAGA_HD inline bool strong_entry(std::int64_t i, index_t j, double v, double di, double dj, double theta) {
  const double a = v < 0 ? -v : v;
  const double dd = di * dj;
  return j == i || (theta == 0.0 ? true : a * a >= theta * theta * (dd < 0 ? -dd : dd));
}
struct StrengthRows {
  const offset_t* rp;
  const index_t* ci;
  const double* v;
  const double* d;
  double theta;
  offset_t* count;         // count pass
  const offset_t* out_rp;  // fill pass
  index_t* out_col;
  double* out_val;
  SAGA_HD void operator()(std::int64_t i) const {
    offset_t n = 0;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) {
      const index_t j = ci[k];
      if (!strong_entry(i, j, v[k], d[i], d[j], theta)) continue;
      if (out_rp) {
        out_col[out_rp[i] + n] = j;
        out_val[out_rp[i] + n] = v[k];
      }
      ++n;
    }
    if (!out_rp) count[i] = n;
  }
};

// ---- MIS-2 (amg/mis2.cpp)
enum : std::int32_t { kOut = 0, kUndecided = 1, kIn = 2 };

SAGA_HD inline std::uint32_t hash32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Tuple (state, priority, index) packed so that a larger integer is a larger
// tuple; seed_hash = hash32(seed).
SAGA_HD inline std::uint64_t mis2_tuple(std::int32_t state, std::int64_t i, std::uint32_t seed_hash) {
  const std::uint64_t pr = hash32(static_cast<std::uint32_t>(i) ^ seed_hash) & 0x3fffffffu;
  return (static_cast<std::uint64_t>(state) << 62) | (pr << 32) | static_cast<std::uint64_t>(i);
}

// Every node starts undecided (set where the state lives: a host vector and a
// copy cost ~0.1 s at 134M nodes); on a subgraph (role given, amg/mis2.hpp)
// only candidates (role 2) do, the others start out of the set.
struct Mis2Init {
  const std::int32_t* role;  // nullptr: the whole graph
  std::int32_t* state;
  SAGA_HD void operator()(std::int64_t i) const { state[i] = !role || role[i] == 2 ? kUndecided : kOut; }
};

// A round's first half: t1[i] = the largest tuple in i's closed neighbourhood
// (with a role array, over the neighbours in the subgraph, role[j] != 0, only),
// the tuples packed on the fly from the states.
struct Mis2NeighbourMax {
  const offset_t* rp;
  const index_t* ci;
  const std::int32_t* role;
  const std::int32_t* state;
  std::uint32_t seed_hash;
  std::uint64_t* t1;
  SAGA_HD void operator()(std::int64_t i) const {
    std::uint64_t m = mis2_tuple(state[i], i, seed_hash);
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) {
      const index_t j = ci[k];
      if (role && role[j] == 0) continue;
      const std::uint64_t t = mis2_tuple(state[j], j, seed_hash);
      m = t > m ? t : m;
    }
    t1[i] = m;
  }
};

// The second half: the largest t1 around i is the distance-2 maximum; an
// undecided node that is its own maximum joins the set, one that sees a member
// leaves. Reads t1 only (never the states it writes), so the order of nodes is
// irrelevant.
SAGA_HD inline void mis2_settle(std::int32_t* state, std::int64_t i, std::uint64_t m) {  // m: that maximum
  if ((m & 0xffffffffu) == static_cast<std::uint64_t>(i))
    state[i] = kIn;
  else if ((m >> 62) == kIn)
    state[i] = kOut;
}
SAGA_HD inline void mis2_decide(const offset_t* rp, const index_t* ci, const std::int32_t* role,
                                const std::uint64_t* t1, std::int32_t* state, std::int64_t i) {
  if (state[i] != kUndecided) return;
  std::uint64_t m = t1[i];
  for (offset_t k = rp[i]; k < rp[i + 1]; ++k) {
    const index_t j = ci[k];
    if (role && role[j] == 0) continue;
    m = t1[j] > m ? t1[j] : m;
  }
  mis2_settle(state, i, m);
}
struct Mis2Decide {
  const offset_t* rp;
  const index_t* ci;
  const std::int32_t* role;
  const std::uint64_t* t1;
  std::int32_t* state;
  std::int32_t* undecided;
  SAGA_HD void operator()(std::int64_t i) const {
    mis2_decide(rp, ci, role, t1, state, i);
    undecided[i] = state[i] == kUndecided;
  }
};

// Frontier rounds (amg/mis2.cpp): the same two halves on fewer nodes. A
// decision needs t1 on the node and its row; those are the nodes an SpMSpV of
// the undecided set stamped with this round's tag, and their t1 is what a full
// round would give.
struct Mis2NeighbourMaxStamped {
  const std::int32_t* stamp;
  std::int32_t tag;
  Mis2NeighbourMax max;
  SAGA_HD void operator()(std::int64_t i) const {
    if (stamp[i] == tag) max(i);
  }
};
struct Mis2DecideListed {
  const index_t* list;  // the undecided nodes
  const offset_t* rp;
  const index_t* ci;
  const std::int32_t* role;
  const std::uint64_t* t1;
  std::int32_t* state;
  std::int32_t* still_undecided;  // per list entry
  SAGA_HD void operator()(std::int64_t k) const {
    const index_t i = list[k];
    mis2_decide(rp, ci, role, t1, state, i);
    still_undecided[k] = state[i] == kUndecided;
  }
};
// out[scan[k]] = list[k] for the flagged entries (list = nullptr: k itself).
struct CompactFlagged {
  const index_t* list;
  const std::int32_t* flag;
  const std::int32_t* scan;
  index_t* out;
  SAGA_HD void operator()(std::int64_t k) const {
    if (flag[k]) out[scan[k]] = list ? list[k] : static_cast<index_t>(k);
  }
};

// ---- aggregation (amg/aggregation.cpp)
// Whether row i of the strength graph has an entry off the diagonal.
SAGA_HD inline bool has_neighbour(const offset_t* rp, const index_t* ci, std::int64_t i) {
  for (offset_t k = rp[i]; k < rp[i + 1]; ++k)
    if (ci[k] != i) return true;
  return false;
}
struct FlagRoots {
  const std::int32_t* state;
  std::int32_t* flag;
  SAGA_HD void operator()(std::int64_t i) const { flag[i] = state[i] == kIn; }
};
// Roots (flag 1) get their number in node order; other nodes -1.
struct NumberRoots {
  const std::int32_t* is_root;
  const std::int32_t* scan;
  index_t* agg;
  SAGA_HD void operator()(std::int64_t i) const { agg[i] = is_root[i] ? scan[i] : -1; }
};
// An unassigned node joins the aggregate of its most strongly connected
// assigned neighbour (ties, up to rounding: the smaller aggregate number). Reads agg_in only, so
// the result does not depend on the order nodes are processed.
struct JoinStrongest {
  const offset_t* rp;
  const index_t* ci;
  const double* v;
  const index_t* agg_in;
  index_t* agg_out;
  std::int32_t* unassigned;
  SAGA_HD void operator()(std::int64_t i) const {
    index_t best = agg_in[i];
    if (best < 0) {
      double best_w = -1.0;
      for (offset_t k = rp[i]; k < rp[i + 1]; ++k) {
        const index_t j = ci[k];
        const index_t a = agg_in[j];
        if (j == i || a < 0) continue;
        const double w = v[k] < 0 ? -v[k] : v[k];
        // Strengths within 1e-9 relative are ties: coarse-level values that
        // are equal in exact arithmetic differ by rounding between backends.
        if (w > best_w * (1.0 + 1e-9) || (w >= best_w * (1.0 - 1e-9) && a < best)) {
          best_w = w;
          best = a;
        }
      }
    }
    agg_out[i] = best;
    unassigned[i] = best < 0 && has_neighbour(rp, ci, i);
  }
};

// A root without strong neighbours is not one: such a node stays
// unaggregated (a zero row of T; the smoother alone treats it), as in PyAMG.
// As singleton aggregates they would pass down unchanged, level after level,
// and end as a large diagonal coarsest matrix (R-MAT graphs: 8 s of dense
// factorisation at 2^14 vertices).
struct DropIsolatedRoots {
  const offset_t* rp;
  const index_t* ci;
  std::int32_t* in_set;
  SAGA_HD void operator()(std::int64_t i) const { in_set[i] = in_set[i] && has_neighbour(rp, ci, i); }
};

// Leftovers of the joining passes (flag 1) become aggregates first + scan[i].
struct NumberLeftovers {
  const std::int32_t* flag;
  const std::int32_t* scan;
  index_t first;
  index_t* agg;
  SAGA_HD void operator()(std::int64_t i) const {
    if (flag[i]) agg[i] = first + scan[i];
  }
};

// A node the aggregation left out (agg -1) that has a non-zero off-diagonal
// entry in A: weakly connected only, not isolated.
struct WeaklyConnectedLeftovers {
  const offset_t* rp;
  const index_t* ci;
  const double* v;
  const index_t* agg;
  std::int32_t* flag;
  SAGA_HD void operator()(std::int64_t i) const {
    bool coupled = false;
    for (offset_t k = rp[i]; k < rp[i + 1] && !coupled; ++k) coupled = ci[k] != i && v[k] != 0.0;
    flag[i] = agg[i] < 0 && coupled;
  }
};

// ---- phased aggregation (amg/aggregation_phased.cpp)
// Role of a node in a gap-filling round: aggregated and isolated nodes are excluded; an
// unaggregated node with at least min_free unaggregated neighbours, and at
// least min_ratio of all its neighbours, is a candidate root, the others only
// relay (amg/mis2.hpp's roles).
struct GapRoles {
  const offset_t* rp;
  const index_t* ci;
  const index_t* agg;
  int min_free;
  double min_ratio;
  std::int32_t* role;
  SAGA_HD void operator()(std::int64_t i) const {
    if (agg[i] >= 0) {
      role[i] = 0;
      return;
    }
    int free = 0, all = 0;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) {
      all += ci[k] != i;
      free += ci[k] != i && agg[ci[k]] < 0;
    }
    if (all == 0) {  // isolated: left out
      role[i] = 0;
      return;
    }
    role[i] = free >= min_free && free >= min_ratio * all ? 2 : 1;
  }
};
// Nothing aggregated, no roots yet.
struct ClearLabels {
  index_t* agg;
  std::int32_t* is_root;
  SAGA_HD void operator()(std::int64_t i) const {
    agg[i] = -1;
    is_root[i] = 0;
  }
};
// Members of a new independent set become roots numbered first + scan[i];
// root_label[i] is the new root's aggregate, -1 elsewhere.
struct NumberNewRoots {
  const std::int32_t* in_set;
  const std::int32_t* scan;
  index_t first;
  index_t* agg;
  index_t* root_label;
  std::int32_t* is_root;
  SAGA_HD void operator()(std::int64_t i) const {
    root_label[i] = -1;
    if (in_set[i]) {
      agg[i] = first + scan[i];
      root_label[i] = agg[i];
      is_root[i] = 1;
    }
  }
};
// An unaggregated node joins the new root next to it. The roots are
// distance-2 independent among the unaggregated nodes, so there is at most one.
struct JoinNewRoot {
  const offset_t* rp;
  const index_t* ci;
  const index_t* root_label;
  index_t* agg;
  SAGA_HD void operator()(std::int64_t i) const {
    if (agg[i] >= 0) return;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k)
      if (root_label[ci[k]] >= 0) {
        agg[i] = root_label[ci[k]];
        return;
      }
  }
};
// Size of each aggregate, counted at its root: while every member is a
// neighbour of its root (after the root phases) that is 1 + the root's
// neighbours with its label. No atomics: the count is the same on every backend.
struct RootSizes {
  const offset_t* rp;
  const index_t* ci;
  const index_t* agg;
  const std::int32_t* is_root;
  index_t* size;
  SAGA_HD void operator()(std::int64_t i) const {
    if (!is_root[i]) return;
    index_t s = 1;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) s += ci[k] != i && agg[ci[k]] == agg[i];
    size[agg[i]] = s;
  }
};
// A leftover node goes to the neighbouring aggregate it is most strongly tied
// to (sum of |s_ij| over that aggregate's nodes); among ties (1e-9 relative)
// the smaller aggregate, then the smaller number. Reads agg_in and the sizes
// only, so the order of nodes is irrelevant.
struct JoinByConnection {
  const offset_t* rp;
  const index_t* ci;
  const double* v;
  const index_t* agg_in;
  const index_t* size;
  index_t* agg_out;
  std::int32_t* unassigned;
  SAGA_HD double tie_to(std::int64_t i, index_t a) const {
    double w = 0.0;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k)
      if (ci[k] != i && agg_in[ci[k]] == a) w += v[k] < 0 ? -v[k] : v[k];
    return w;
  }
  SAGA_HD void operator()(std::int64_t i) const {
    index_t best = agg_in[i];
    if (best >= 0) {  // aggregated already (roots included)
      agg_out[i] = best;
      unassigned[i] = 0;
      return;
    }
    double best_w = -1.0;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) {
      const index_t a = agg_in[ci[k]];
      if (ci[k] == i || a < 0) continue;
      bool seen = false;  // rows are short: a quadratic scan beats a map
      for (offset_t q = rp[i]; q < k && !seen; ++q) seen = ci[q] != i && agg_in[ci[q]] == a;
      if (seen) continue;
      const double w = tie_to(i, a);
      const bool stronger = w > best_w * (1.0 + 1e-9) + 1e-300;
      const bool tie = !stronger && w >= best_w * (1.0 - 1e-9);
      if (stronger || (tie && best >= 0 && (size[a] < size[best] || (size[a] == size[best] && a < best)))) {
        best_w = w;
        best = a;
      }
    }
    agg_out[i] = best;
    unassigned[i] = best < 0 && has_neighbour(rp, ci, i);
  }
};

// ---- tentative prolongator (amg/tentative.cpp)
// 1 for a node in an aggregate, 0 for an unaggregated one (agg -1).
struct AggregatedFlags {
  const index_t* agg;
  std::int32_t* flag;
  SAGA_HD void operator()(std::int64_t i) const { flag[i] = agg[i] >= 0; }
};
// Indicator matrix of the aggregates: row i has one entry in column agg[i], or
// none for an unaggregated node; rp is the exclusive scan of AggregatedFlags.
struct Indicator {
  const index_t* agg;
  const offset_t* rp;
  index_t* ci;
  double* v;
  SAGA_HD void operator()(std::int64_t i) const {
    if (agg[i] < 0) return;
    ci[rp[i]] = agg[i];
    v[rp[i]] = 1.0;
  }
};
// T's structure: row i has k entries, columns agg[i]*k .. agg[i]*k + k-1 (none
// for an unaggregated node); pos is the indicator's row_ptr.
struct TentativeStructure {
  const index_t* agg;
  const offset_t* pos;
  int k;
  std::int64_t n;
  offset_t* rp;
  index_t* ci;
  SAGA_HD void operator()(std::int64_t i) const {
    rp[i] = pos[i] * k;
    if (agg[i] >= 0)
      for (int c = 0; c < k; ++c) ci[pos[i] * k + c] = agg[i] * k + c;
    if (i == n - 1) rp[n] = pos[n] * k;
  }
};
// Per aggregate: modified Gram-Schmidt QR of B restricted to its nodes
// (node-major, k columns). Q goes into T's values, R into the coarse B.
// A column whose remainder vanishes (aggregate smaller than k, or dependent
// columns) gets a zero column in T and a zero diagonal in R.
struct AggregateQr {
  const offset_t* mp;  // aggregate -> nodes (transpose of the indicator)
  const index_t* mi;
  const double* B;     // n x k, row-major
  int k;
  const offset_t* tp;  // T's row_ptr: node i's k values start at tp[i]
  double* tv;          // T's values
  double* bc;          // (aggregates*k) x k, row-major
  SAGA_HD void operator()(std::int64_t a) const {
    for (int c = 0; c < k; ++c) {
      double orig = 0.0;
      for (offset_t p = mp[a]; p < mp[a + 1]; ++p) {
        const double x = B[static_cast<std::int64_t>(mi[p]) * k + c];
        tv[tp[mi[p]] + c] = x;
        orig += x * x;
      }
      for (int r = 0; r < c; ++r) {
        double s = 0.0;
        for (offset_t p = mp[a]; p < mp[a + 1]; ++p) {
          const std::int64_t row = tp[mi[p]];
          s += tv[row + r] * tv[row + c];
        }
        for (offset_t p = mp[a]; p < mp[a + 1]; ++p) {
          const std::int64_t row = tp[mi[p]];
          tv[row + c] -= s * tv[row + r];
        }
        bc[(a * k + r) * k + c] = s;
      }
      double nrm = 0.0;
      for (offset_t p = mp[a]; p < mp[a + 1]; ++p) {
        const double x = tv[tp[mi[p]] + c];
        nrm += x * x;
      }
      nrm = sqrt(nrm);
      const bool dependent = !(nrm > 1e-12 * sqrt(orig)) || nrm == 0.0;
      for (offset_t p = mp[a]; p < mp[a + 1]; ++p) {
        double& x = tv[tp[mi[p]] + c];
        x = dependent ? 0.0 : x / nrm;
      }
      bc[(a * k + c) * k + c] = dependent ? 0.0 : nrm;
      for (int r = c + 1; r < k; ++r) bc[(a * k + r) * k + c] = 0.0;
    }
  }
};

// The constant near-nullspace (constant_tentative_prolongator): W_g, the sum of
// the weights (fine-level nodes) of aggregate g's members. Integer additions:
// the same sums in any order, on every backend.
struct AggregateWeights {
  const index_t* agg;
  const index_t* w;  // null: 1 each
  index_t* sum;
  SAGA_HD void operator()(std::int64_t i) const {
    if (agg[i] >= 0) functors::atomic_add_index(&sum[agg[i]], w ? w[i] : 1);
  }
};
// Row i of T: sqrt(w_i) / sqrt(W_g) in column g = agg[i] (1 / sqrt(W_g) on
// the fine level, as the QR's 1 / norm); pos null: row i starts at i.
struct ConstantTentativeRows {
  const index_t* agg;
  const index_t* w;
  const index_t* sum;
  const offset_t* pos;
  std::int64_t n;
  offset_t* rp;
  index_t* ci;
  double* tv;
  SAGA_HD void operator()(std::int64_t i) const {
    const offset_t p = pos ? pos[i] : static_cast<offset_t>(i);
    rp[i] = p;
    const index_t g = agg[i];
    if (g >= 0) {
      ci[p] = g;
      tv[p] = sqrt(static_cast<double>(w ? w[i] : 1)) / sqrt(static_cast<double>(sum[g]));
    } else if (!pos) {  // left out though the caller counted none: a stored zero, never an unset entry
      ci[p] = 0;
      tv[p] = 0.0;
    }
    if (i == n - 1) rp[n] = pos ? pos[n] : static_cast<offset_t>(n);
  }
};
struct ConstantCoarseNullspace {
  const index_t* sum;
  double* bc;
  SAGA_HD void operator()(std::int64_t g) const { bc[g] = sqrt(static_cast<double>(sum[g])); }
};

// Dependent columns (a zero diagonal of the aggregate's R factor: a near-
// nullspace of k columns restricted to too few unknowns, e.g. 6 rigid-body
// modes on two nodes) are dropped from T and Bc, so that no coarse unknown has
// an empty row. kept[c] for coarse column c = a*k + j.
struct IndependentColumns {
  const double* bc;  // (aggregates*k) x k
  int k;
  std::int32_t* kept;
  SAGA_HD void operator()(std::int64_t c) const { kept[c] = bc[c * k + c % k] != 0.0; }
};
// T without the dropped columns (renumbered by the scan `to` of `kept`).
struct CompactTentativeRows {
  const offset_t* rp;
  const index_t* ci;
  const double* v;
  const offset_t* to;      // exclusive scan of kept: new number of column c
  offset_t* count;         // count pass
  const offset_t* out_rp;  // fill pass
  index_t* out_col;
  double* out_val;
  SAGA_HD void operator()(std::int64_t i) const {
    offset_t n = 0;
    for (offset_t p = rp[i]; p < rp[i + 1]; ++p) {
      const index_t c = ci[p];
      if (to[c + 1] == to[c]) continue;
      if (out_rp) {
        out_col[out_rp[i] + n] = static_cast<index_t>(to[c]);
        out_val[out_rp[i] + n] = v[p];
      }
      ++n;
    }
    if (!out_rp) count[i] = n;
  }
};
// Bc's kept rows, and the aggregate ("node" of the next level) of each kept column.
struct CompactCoarseNullspace {
  const double* bc;
  const offset_t* to;
  int k;
  double* out;
  index_t* node;  // null: not wanted (k = 1)
  SAGA_HD void operator()(std::int64_t c) const {
    if (to[c + 1] == to[c]) return;
    for (int j = 0; j < k; ++j) out[to[c] * k + j] = bc[c * k + j];
    if (node) node[to[c]] = static_cast<index_t>(c / k);
  }
};

// ---- blocks of unknowns (amg/blocks.cpp)
struct BlockOf {
  int b;
  index_t* node;
  SAGA_HD void operator()(std::int64_t i) const { node[i] = static_cast<index_t>(i / b); }
};
struct SquareInPlace {
  double* x;
  SAGA_HD void operator()(std::int64_t i) const { x[i] = x[i] * x[i]; }
};
// out[i] = of[node[i]]
struct Gather {
  const index_t* node;
  const index_t* of;
  index_t* out;
  SAGA_HD void operator()(std::int64_t i) const { out[i] = of[node[i]]; }
};

// ---- square roots (amg/blocks.cpp: the node matrix of interleaved unknowns)
struct SqrtInPlace {
  double* x;
  SAGA_HD void operator()(std::int64_t i) const { x[i] = sqrt(x[i]); }
};

}  // namespace saga::amg_functors
