#include "amg/strength.hpp"

#include "amg/functors.hpp"
#include "sparse/build_rows.hpp"

namespace saga::amg {

CsrMatrix symmetric_strength(const CsrMatrix& A, const Vector& diag, double theta) {
  SAGA_REQUIRE(theta >= 0.0 && theta <= 1.0, "strength threshold theta = {} outside [0, 1]", theta);
  return build_csr_two_pass(A.space(), A.rows(), A.cols(),
                            amg_functors::StrengthRows{A.row_ptr().data(), A.col().data(), A.val().data(),
                                                       diag.data(), theta, nullptr, nullptr, nullptr, nullptr},
                            "strength matrix");
}

}  // namespace saga::amg
