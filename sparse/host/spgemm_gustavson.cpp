// Host SpGEMM, Gustavson's row-by-row algorithm with a dense accumulator per
// thread: a symbolic pass counts each row of C, a numeric pass fills it.
#include <algorithm>
#include <numeric>

#include "sparse/host/kernels.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace saga::host {

std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B) {
  const index_t* aci = A.col().data();
  const offset_t* brp = B.row_ptr().data();
  std::int64_t total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (offset_t k = 0; k < A.nnz(); ++k) total += brp[aci[k] + 1] - brp[aci[k]];
  return total;
}

CsrMatrix spgemm_gustavson(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions&, SpgemmStats* stats) {
  const index_t m = A.rows(), n = B.cols();
  const offset_t *arp = A.row_ptr().data(), *brp = B.row_ptr().data();
  const index_t *aci = A.col().data(), *bci = B.col().data();
  const double *av = A.val().data(), *bv = B.val().data();

  std::vector<std::int64_t> row_nnz(static_cast<std::size_t>(m) + 1, 0);
#pragma omp parallel
  {
    std::vector<index_t> mark(n, -1);
#pragma omp for schedule(dynamic, 256)
    for (index_t i = 0; i < m; ++i) {
      std::int64_t cnt = 0;
      for (offset_t ka = arp[i]; ka < arp[i + 1]; ++ka) {
        const index_t k = aci[ka];
        for (offset_t kb = brp[k]; kb < brp[k + 1]; ++kb)
          if (mark[bci[kb]] != i) {
            mark[bci[kb]] = i;
            ++cnt;
          }
      }
      row_nnz[i + 1] = cnt;
    }
  }
  std::partial_sum(row_nnz.begin(), row_nnz.end(), row_nnz.begin());
  const offset_t nnz = checked_offset(row_nnz[m], "SpGEMM result");
  Array<offset_t> row_ptr(static_cast<std::size_t>(m) + 1, Space::host, "SpGEMM row_ptr");
  for (index_t i = 0; i <= m; ++i) row_ptr[i] = static_cast<offset_t>(row_nnz[i]);
  Array<index_t> col(nnz, Space::host, "SpGEMM col");
  Array<double> val(nnz, Space::host, "SpGEMM val");

#pragma omp parallel
  {
    std::vector<double> acc(n, 0.0);
    std::vector<index_t> mark(n, -1);
#pragma omp for schedule(dynamic, 256)
    for (index_t i = 0; i < m; ++i) {
      offset_t p = row_ptr[i];
      for (offset_t ka = arp[i]; ka < arp[i + 1]; ++ka) {
        const index_t k = aci[ka];
        const double a = av[ka];
        for (offset_t kb = brp[k]; kb < brp[k + 1]; ++kb) {
          const index_t j = bci[kb];
          if (mark[j] != i) {
            mark[j] = i;
            acc[j] = 0.0;
            col[p++] = j;
          }
          acc[j] += a * bv[kb];
        }
      }
      std::sort(col.data() + row_ptr[i], col.data() + p);
      for (offset_t q = row_ptr[i]; q < p; ++q) val[q] = acc[col[q]];
    }
  }
  if (stats) {
    stats->products = host::spgemm_products(A, B);
    stats->nnz_c = nnz;
    stats->slices = 0;
  }
  return CsrMatrix(m, n, std::move(row_ptr), std::move(col), std::move(val));
}

namespace {
struct Gustavson {
  static constexpr const char* name = "gustavson";
  static constexpr const char* summary = "row-by-row, dense accumulator per thread (host)";
  static constexpr bool runs_on_host = true, runs_on_device = false;
  using Params = NoParams;
  static std::unique_ptr<SpgemmAlgorithm> make(const Params&) {
    return std::make_unique<SpgemmFunction>(&spgemm_gustavson);
  }
};
}  // namespace
void add_spgemm_gustavson(SpgemmRegistry& r) { r.add<Gustavson>(); }

}  // namespace saga::host
