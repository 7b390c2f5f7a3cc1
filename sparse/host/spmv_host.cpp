// Host SpMV: one OpenMP thread per block of rows.
#include "sparse/host/kernels.hpp"

namespace saga::host {

void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) {
  const offset_t* rp = A.row_ptr().data();
  const index_t* ci = A.col().data();
  const double* v = A.val().data();
  const double* xp = x.data();
  double* yp = y.data();
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < A.rows(); ++i) {
    double s = 0.0;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) s += v[k] * xp[ci[k]];
    yp[i] = beta == 0.0 ? alpha * s : alpha * s + beta * yp[i];
  }
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
