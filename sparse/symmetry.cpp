#include "sparse/symmetry.hpp"

#include <algorithm>
#include <cmath>

#include "sparse/coo.hpp"

namespace saga {

std::string SymmetryReport::describe() const {
  if (symmetric) return "symmetric";
  return fmt::format("a({}, {}) = {:.6g} but a({}, {}) = {:.6g} (rows and columns from 0): the largest difference, "
                     "{:.3g} of the largest entry",
                     row, col, a_ij, col, row, a_ji, max_entry > 0 ? max_difference / max_entry : 0.0);
}

SymmetryReport check_symmetry(const CsrMatrix& A, double rel_tol) {
  SAGA_REQUIRE(A.rows() == A.cols(), "symmetry check of a non-square {}x{} matrix", A.rows(), A.cols());
  const HostCsr h = to_host_csr(A);
  SymmetryReport r;
  for (double v : h.val) r.max_entry = std::max(r.max_entry, std::abs(v));
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) {
      const index_t j = h.col[k];
      const auto b = h.col.begin() + h.row_ptr[j], e = h.col.begin() + h.row_ptr[j + 1];
      const auto it = std::lower_bound(b, e, i);
      const double t = it != e && *it == i ? h.val[it - h.col.begin()] : 0.0;
      const double d = std::abs(h.val[k] - t);
      if (d > r.max_difference) {
        r.max_difference = d;
        r.row = i, r.col = j, r.a_ij = h.val[k], r.a_ji = t;
      }
    }
  r.symmetric = r.max_difference <= rel_tol * r.max_entry;
  return r;
}

}  // namespace saga
