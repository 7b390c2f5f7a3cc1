// Host COO <-> CSR: counting sort by row, then per-row sort and duplicate sum.
#include <algorithm>
#include <numeric>

#include "sparse/host/kernels.hpp"

namespace saga::host {

CsrMatrix coo_to_csr(const CooMatrix& coo) {
  const std::size_t m = coo.entries();
  const index_t* r = coo.row.data();
  const index_t* c = coo.col.data();
  const double* v = coo.val.data();
  std::vector<std::int64_t> count(static_cast<std::size_t>(coo.rows) + 1, 0);
  for (std::size_t k = 0; k < m; ++k) {
    SAGA_REQUIRE(r[k] >= 0 && r[k] < coo.rows && c[k] >= 0 && c[k] < coo.cols,
                 "COO entry {} = ({}, {}) outside the {}x{} matrix", k, r[k], c[k], coo.rows, coo.cols);
    ++count[r[k] + 1];
  }
  std::partial_sum(count.begin(), count.end(), count.begin());
  std::vector<std::pair<index_t, double>> tmp(m);
  {
    std::vector<std::int64_t> next(count.begin(), count.end() - 1);
    for (std::size_t k = 0; k < m; ++k) tmp[next[r[k]]++] = {c[k], v[k]};
  }
  // Sort each row by column (stable: duplicates are summed in input order) and
  // compress in place.
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(coo.rows) + 1, 0);
  std::vector<index_t> col;
  std::vector<double> val;
  col.reserve(m);
  val.reserve(m);
  for (index_t i = 0; i < coo.rows; ++i) {
    auto b = tmp.begin() + count[i], e = tmp.begin() + count[i + 1];
    std::stable_sort(b, e, [](const auto& x, const auto& y) { return x.first < y.first; });
    for (auto it = b; it != e; ++it) {
      if (!col.empty() && static_cast<offset_t>(col.size()) > row_ptr[i] && col.back() == it->first)
        val.back() += it->second;
      else {
        col.push_back(it->first);
        val.push_back(it->second);
      }
    }
    row_ptr[i + 1] = checked_offset(static_cast<std::int64_t>(col.size()), "COO to CSR result");
  }
  return from_host_csr(HostCsr{coo.rows, coo.cols, std::move(row_ptr), std::move(col), std::move(val)}, Space::host);
}

CooMatrix csr_to_coo(const CsrMatrix& A) {
  CooMatrix coo;
  coo.rows = A.rows();
  coo.cols = A.cols();
  coo.row = Array<index_t>(A.nnz(), Space::host, "COO rows");
  coo.col = A.col().clone();
  coo.val = A.val().clone();
  const offset_t* rp = A.row_ptr().data();
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < A.rows(); ++i)
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) coo.row[k] = i;
  return coo;
}

}  // namespace saga::host
