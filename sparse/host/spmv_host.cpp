// Host SpMV: one OpenMP thread per block of rows.
#include "sparse/host/kernels.hpp"

namespace saga::host {

namespace {
// V: the values' storage type (float for a matrix stored in single precision:
// each value widened to double, the arithmetic in double).
template <class V>
void spmv_rows(double alpha, const CsrMatrix& A, const V* v, const Vector& x, double beta, Vector& y) {
  const offset_t* rp = A.row_ptr().data();
  const index_t* ci = A.col().data();
  const double* xp = x.data();
  double* yp = y.data();
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < A.rows(); ++i) {
    double s = 0.0;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) s += static_cast<double>(v[k]) * xp[ci[k]];
    yp[i] = beta == 0.0 ? alpha * s : alpha * s + beta * yp[i];
  }
}
}  // namespace

void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) {
  if (A.single_precision())
    spmv_rows(alpha, A, A.val_single().data(), x, beta, y);
  else
    spmv_rows(alpha, A, A.val().data(), x, beta, y);
}

namespace {
struct OmpRows {
  static constexpr const char* name = "omp_rows";
  static constexpr const char* summary = "one row per loop iteration, OpenMP static schedule (host)";
  static constexpr bool runs_on_host = true, runs_on_device = false;
  using Params = NoParams;
  static std::unique_ptr<SpmvAlgorithm> make(const Params&) { return std::make_unique<SpmvFunction>(&spmv); }
};
}  // namespace
void add_spmv_omp_rows(SpmvRegistry& r) { r.add<OmpRows>(); }

}  // namespace saga::host
