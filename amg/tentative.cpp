#include "amg/tentative.hpp"

#include "amg/functors.hpp"
#include "core/parallel_for.hpp"
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
  Array<std::int32_t> flags(n, s, "aggregated flags");
  parallel_for(s, n, amg_functors::AggregatedFlags{ag.of_node.data(), flags.data()});
  Array<offset_t> irp(static_cast<std::size_t>(n) + 1, s, "indicator row_ptr");
  exclusive_scan_total(flags, irp);
  const offset_t aggregated = irp.get(n);
  Array<index_t> ici(aggregated, s, "indicator col");
  Array<double> iv(aggregated, s, "indicator val");
  parallel_for(s, n, amg_functors::Indicator{ag.of_node.data(), irp.data(), ici.data(), iv.data()});

  const offset_t nnz = checked_offset(static_cast<std::int64_t>(aggregated) * k, "tentative prolongator");
  const index_t cols = checked_offset(static_cast<std::int64_t>(ag.count) * k, "tentative prolongator columns");
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, s, "T row_ptr");
  Array<index_t> ci(nnz, s, "T col");
  Array<double> tv(nnz, s, "T val");
  if (n == 0) rp.set_zero();
  parallel_for(s, n, amg_functors::TentativeStructure{ag.of_node.data(), irp.data(), k, n, rp.data(), ci.data()});
  const CsrMatrix members =
      transpose(CsrMatrix(static_cast<index_t>(n), ag.count, std::move(irp), std::move(ici), std::move(iv)));
  Tentative t;
  t.Bc = Vector(static_cast<std::size_t>(cols) * k, s, "coarse near-nullspace");
  parallel_for(s, ag.count,
               amg_functors::AggregateQr{members.row_ptr().data(), members.col().data(), B.data(), k, rp.data(),
                                         tv.data(), t.Bc.data()});
  t.T = CsrMatrix(static_cast<index_t>(n), cols, std::move(rp), std::move(ci), std::move(tv));
  return t;
}

}  // namespace saga::amg
