#include "amg/strength.hpp"

#include "amg/functors.hpp"
#include "core/parallel_for.hpp"
#include "sparse/scan.hpp"

namespace saga::amg {

CsrMatrix symmetric_strength(const CsrMatrix& A, const Vector& diag, double theta) {
  SAGA_REQUIRE(theta >= 0.0 && theta <= 1.0, "strength threshold theta = {} outside [0, 1]", theta);
  const Space s = A.space();
  amg_functors::StrengthRows f{A.row_ptr().data(), A.col().data(), A.val().data(), diag.data(), theta,
                               nullptr, nullptr, nullptr, nullptr};
  Array<offset_t> count(A.rows(), s, "strength row counts");
  f.count = count.data();
  parallel_for(s, A.rows(), f);
  Array<offset_t> rp(static_cast<std::size_t>(A.rows()) + 1, s, "strength row_ptr");
  exclusive_scan_total(count, rp);
  const offset_t nnz = rp.get(A.rows());
  Array<index_t> col(nnz, s, "strength col");
  Array<double> val(nnz, s, "strength val");
  f.srp = rp.data();
  f.sci = col.data();
  f.sv = val.data();
  parallel_for(s, A.rows(), f);
  return CsrMatrix(A.rows(), A.cols(), std::move(rp), std::move(col), std::move(val));
}

}  // namespace saga::amg
