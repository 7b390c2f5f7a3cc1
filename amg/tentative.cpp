#include "amg/tentative.hpp"

#include "amg/blocks.hpp"
#include "amg/functors.hpp"
#include "core/parallel_for.hpp"
#include "sparse/build_rows.hpp"
#include "sparse/scan.hpp"
#include "sparse/transpose.hpp"

namespace saga::amg {

Tentative tentative_prolongator(const Aggregates& ag, const Vector& B, int k) {
  const Space s = ag.of_node.space();
  const std::int64_t n = static_cast<std::int64_t>(ag.of_node.size());
  SAGA_REQUIRE(k >= 1, "near-nullspace needs at least one column (got {})", k);
  SAGA_REQUIRE(B.size() == static_cast<std::size_t>(n * k), "near-nullspace has {} values, expected {} x {}", B.size(),
               n, k);
  SAGA_REQUIRE(B.space() == s, "near-nullspace and aggregates live in different spaces");
  // Aggregate -> nodes, as the transpose of the aggregate indicator matrix
  // (unaggregated nodes, agg -1, have empty rows there and in T).
  CsrMatrix indicator = indicator_matrix(ag.of_node, ag.count);
  const offset_t aggregated = indicator.nnz();
  const offset_t nnz = checked_offset(static_cast<std::int64_t>(aggregated) * k, "tentative prolongator");
  const index_t cols = checked_index(static_cast<std::int64_t>(ag.count) * k, "tentative prolongator");
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, s, "T row_ptr");
  Array<index_t> ci(nnz, s, "T col");
  Array<double> tv(nnz, s, "T val");
  if (n == 0) rp.set_zero();
  parallel_for(s, n,
               amg_functors::TentativeStructure{ag.of_node.data(), indicator.row_ptr().data(), k, n, rp.data(),
                                                ci.data()});
  const CsrMatrix members = transpose(indicator);
  Tentative t;
  t.Bc = Vector(static_cast<std::size_t>(cols) * k, s, "coarse near-nullspace");
  parallel_for(s, ag.count,
               amg_functors::AggregateQr{members.row_ptr().data(), members.col().data(), B.data(), k, rp.data(),
                                         tv.data(), t.Bc.data()});
  t.T = CsrMatrix(static_cast<index_t>(n), cols, std::move(rp), std::move(ci), std::move(tv));

  Array<std::int32_t> kept(cols, s, "independent coarse columns");
  parallel_for(s, cols, amg_functors::IndependentColumns{t.Bc.data(), k, kept.data()});
  Array<offset_t> to(static_cast<std::size_t>(cols) + 1, s, "coarse column numbering");
  exclusive_scan_total(kept, to);
  const index_t independent = static_cast<index_t>(to.get(cols));
  t.dropped = cols - independent;
  if (t.dropped == 0) {  // the common case: T and Bc stand, aggregate a has columns a*k .. a*k+k-1
    if (k > 1) t.coarse_node = interleaved_nodes(cols, k, s);
    return t;
  }
  if (k > 1) t.coarse_node = Array<index_t>(independent, s, "aggregate of each coarse unknown");
  Vector bc(static_cast<std::size_t>(independent) * k, s, "coarse near-nullspace");
  parallel_for(s, cols,
               amg_functors::CompactCoarseNullspace{t.Bc.data(), to.data(), k, bc.data(),
                                                    k > 1 ? t.coarse_node.data() : nullptr});
  t.Bc = std::move(bc);
  t.T = build_csr_two_pass(s, static_cast<index_t>(n), independent,
                           amg_functors::CompactTentativeRows{t.T.row_ptr().data(), t.T.col().data(),
                                                              t.T.val().data(), to.data(), nullptr, nullptr, nullptr,
                                                              nullptr},
                           "tentative prolongator without dependent columns");
  return t;
}

Tentative constant_tentative_prolongator(const Aggregates& ag, const Array<index_t>& weights) {
  const Space s = ag.of_node.space();
  const std::int64_t n = static_cast<std::int64_t>(ag.of_node.size());
  SAGA_REQUIRE(weights.empty() || (weights.size() == static_cast<std::size_t>(n) && weights.space() == s),
               "constant tentative prolongator: {} weights for {} nodes", weights.size(), n);
  const index_t* w = weights.empty() ? nullptr : weights.data();
  Tentative t;
  t.coarse_weights = Array<index_t>::zeros(static_cast<std::size_t>(ag.count), s, "aggregate weights");
  parallel_for(s, n, amg_functors::AggregateWeights{ag.of_node.data(), w, t.coarse_weights.data()});
  // Row i of T starts after the aggregated nodes before i: i itself where no
  // node is left out (the common case, no scan).
  Array<offset_t> pos;
  offset_t nnz = checked_offset(n, "tentative prolongator");
  if (ag.unaggregated > 0) {
    Array<std::int32_t> flags(n, s, "aggregated flags");
    parallel_for(s, n, amg_functors::AggregatedFlags{ag.of_node.data(), flags.data()});
    pos = Array<offset_t>(static_cast<std::size_t>(n) + 1, s, "T row starts");
    exclusive_scan_total(flags, pos);
    nnz = pos.get(n);
  }
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, s, "T row_ptr");
  Array<index_t> ci(nnz, s, "T col");
  Array<double> tv(nnz, s, "T val");
  if (n == 0) rp.set_zero();
  parallel_for(s, n,
               amg_functors::ConstantTentativeRows{ag.of_node.data(), w, t.coarse_weights.data(),
                                                   pos.empty() ? nullptr : pos.data(), n, rp.data(), ci.data(),
                                                   tv.data()});
  t.Bc = Vector(static_cast<std::size_t>(ag.count), s, "coarse near-nullspace");
  parallel_for(s, ag.count, amg_functors::ConstantCoarseNullspace{t.coarse_weights.data(), t.Bc.data()});
  t.T = CsrMatrix(static_cast<index_t>(n), ag.count, std::move(rp), std::move(ci), std::move(tv));
  return t;
}

}  // namespace saga::amg
