#include "amg/blocks.hpp"

#include "amg/functors.hpp"
#include "core/parallel_for.hpp"
#include "sparse/scan.hpp"
#include "sparse/transpose.hpp"

namespace saga::amg {

Array<index_t> interleaved_nodes(index_t rows, int b, Space s) {
  SAGA_REQUIRE(b >= 1 && rows % b == 0, "{} rows are not whole blocks of {}", rows, b);
  Array<index_t> node(rows, s, "node of each unknown");
  parallel_for(s, rows, amg_functors::BlockOf{b, node.data()});
  return node;
}

CsrMatrix indicator_matrix(const Array<index_t>& of, index_t cols) {
  const Space s = of.space();
  const std::int64_t n = static_cast<std::int64_t>(of.size());
  Array<std::int32_t> flags(n, s, "indicator flags");
  parallel_for(s, n, amg_functors::AggregatedFlags{of.data(), flags.data()});
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, s, "indicator row_ptr");
  exclusive_scan_total(flags, rp);
  const offset_t nnz = rp.get(n);
  Array<index_t> ci(nnz, s, "indicator col");
  Array<double> v(nnz, s, "indicator val");
  parallel_for(s, n, amg_functors::Indicator{of.data(), rp.data(), ci.data(), v.data()});
  return CsrMatrix(static_cast<index_t>(n), cols, std::move(rp), std::move(ci), std::move(v));
}

CsrMatrix node_matrix(const CsrMatrix& A, const Array<index_t>& node_of, index_t nodes,
                      const SpgemmAlgorithm& product) {
  SAGA_REQUIRE(node_of.size() == static_cast<std::size_t>(A.rows()) && A.rows() == A.cols(),
               "node_matrix: {} node numbers for a {}x{} matrix", node_of.size(), A.rows(), A.cols());
  CsrMatrix squares = A.clone();
  parallel_for(A.space(), squares.nnz(), amg_functors::SquareInPlace{squares.mutable_val().data()});
  const CsrMatrix N = indicator_matrix(node_of, nodes);
  const CsrMatrix AN = product.multiply(squares, N, nullptr);
  CsrMatrix C = product.multiply(transpose(N), AN, nullptr);
  parallel_for(A.space(), C.nnz(), amg_functors::SqrtInPlace{C.mutable_val().data()});
  return C;
}

Aggregates unknowns_aggregates(const Aggregates& of_nodes, const Array<index_t>& node_of) {
  const Space s = node_of.space();
  Aggregates ag;
  ag.of_node = Array<index_t>(node_of.size(), s, "aggregate of each unknown");
  parallel_for(s, static_cast<std::int64_t>(node_of.size()),
               amg_functors::Gather{node_of.data(), of_nodes.of_node.data(), ag.of_node.data()});
  ag.count = of_nodes.count;
  ag.unaggregated = of_nodes.unaggregated;  // counted in nodes, as the strength graph has them
  ag.mis2_rounds = of_nodes.mis2_rounds;
  ag.block_colours = of_nodes.block_colours;
  return ag;
}

}  // namespace saga::amg
