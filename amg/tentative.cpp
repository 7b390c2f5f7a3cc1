#include "amg/tentative.hpp"

#include "amg/functors.hpp"
#include "core/parallel_for.hpp"
#include "sparse/transpose.hpp"

namespace saga::amg {

Tentative tentative_prolongator(const Aggregates& ag, const Vector& B, int k) {
  const Space s = ag.of_node.space();
  const std::int64_t n = static_cast<std::int64_t>(ag.of_node.size());
  SAGA_REQUIRE(k >= 1, "near-nullspace needs at least one column (got {})", k);
  SAGA_REQUIRE(B.size() == static_cast<std::size_t>(n * k), "near-nullspace has {} values, expected {} x {}", B.size(),
               n, k);
  SAGA_REQUIRE(B.space() == s, "near-nullspace and aggregates live in different spaces");
  // Aggregate -> nodes, as the transpose of the aggregate indicator matrix.
  Array<offset_t> irp(static_cast<std::size_t>(n) + 1, s, "indicator row_ptr");
  Array<index_t> ici(n, s, "indicator col");
  Array<double> iv(n, s, "indicator val");
  if (n == 0) irp.set_zero();
  parallel_for(s, n, amg_functors::Indicator{ag.of_node.data(), irp.data(), ici.data(), iv.data(), n});
  const CsrMatrix members =
      transpose(CsrMatrix(static_cast<index_t>(n), ag.count, std::move(irp), std::move(ici), std::move(iv)));

  const offset_t nnz = checked_offset(n * k, "tentative prolongator");
  const index_t cols = checked_offset(static_cast<std::int64_t>(ag.count) * k, "tentative prolongator columns");
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, s, "T row_ptr");
  Array<index_t> ci(nnz, s, "T col");
  Array<double> tv(nnz, s, "T val");
  if (n == 0) rp.set_zero();
  parallel_for(s, n, amg_functors::TentativeStructure{ag.of_node.data(), k, n, rp.data(), ci.data()});
  Tentative t;
  t.Bc = Vector(static_cast<std::size_t>(cols) * k, s, "coarse near-nullspace");
  parallel_for(s, ag.count,
               amg_functors::AggregateQr{members.row_ptr().data(), members.col().data(), B.data(), k, tv.data(),
                                         t.Bc.data()});
  t.T = CsrMatrix(static_cast<index_t>(n), cols, std::move(rp), std::move(ci), std::move(tv));
  return t;
}

}  // namespace saga::amg
