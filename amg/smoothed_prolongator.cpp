#include "amg/smoothed_prolongator.hpp"

#include "sparse/csr_ops.hpp"
#include "sparse/vector_ops.hpp"

namespace saga::amg {

CsrMatrix jacobi_smooth_update(const CsrMatrix& T, CsrMatrix AT, const Vector& dinv, double omega) {
  Vector d = dinv.clone();
  scale(-omega, d);
  scale_rows(AT, d);
  return add(1.0, T, 1.0, AT);
}

}  // namespace saga::amg
