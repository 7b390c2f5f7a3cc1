#include "sparse/csr_ops.hpp"

#include "core/parallel_for.hpp"
#include "sparse/build_rows.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/scan.hpp"

namespace saga {

std::int64_t first_flagged(const Array<std::int32_t>& flags) {
  if (count_flagged(flags) == 0) return -1;
  const std::vector<std::int32_t> h = flags.to_vector();
  for (std::size_t i = 0; i < h.size(); ++i)
    if (h[i]) return static_cast<std::int64_t>(i);
  return -1;
}

std::int64_t total(const Array<std::int32_t>& a) {
  Array<std::int32_t> sums(a.size() + 1, a.space(), "sums");
  exclusive_scan_total(a, sums);
  return sums.get(a.size());
}

std::int64_t count_flagged(const Array<std::int32_t>& flags) { return total(flags); }

Vector diagonal(const CsrMatrix& A, bool require_positive, const char* name) {
  SAGA_REQUIRE(A.rows() == A.cols(), "{}: diagonal of a non-square {}x{} matrix", name, A.rows(), A.cols());
  Vector d(A.rows(), A.space(), "diagonal");
  Array<std::int32_t> bad(require_positive ? A.rows() : 0, A.space(), "diagonal check flags");
  parallel_for(A.space(), A.rows(),
               functors::ExtractDiagonal{A.row_ptr().data(), A.col().data(), A.val().data(), d.data(),
                                         require_positive ? bad.data() : nullptr});
  if (require_positive) {
    const std::int64_t row = first_flagged(bad);
    SAGA_REQUIRE(row < 0, "{}: diagonal entry of row {} is {} (AMG needs a positive diagonal; is the matrix SPD?)",
                 name, row, d.get(row));
  }
  return d;
}

Vector inverse_diagonal(const CsrMatrix& A, const char* name) {
  Vector d = diagonal(A, true, name);
  parallel_for(A.space(), A.rows(), functors::Reciprocal{d.data()});
  return d;
}

std::int64_t first_pattern_difference(const CsrMatrix& A, const CsrMatrix& B) {
  SAGA_REQUIRE(A.rows() == B.rows() && A.cols() == B.cols() && A.space() == B.space(),
               "pattern comparison of a {}x{} and a {}x{} matrix, or in different spaces", A.rows(), A.cols(), B.rows(),
               B.cols());
  Array<std::int32_t> flags(A.rows(), A.space(), "pattern comparison flags");
  parallel_for(A.space(), A.rows(),
               functors::PatternDiffers{A.row_ptr().data(), B.row_ptr().data(), A.col().data(), B.col().data(),
                                        flags.data()});
  return first_flagged(flags);
}

Vector row_abs_sums(const CsrMatrix& A) {
  Vector d(A.rows(), A.space(), "row absolute sums");
  parallel_for(A.space(), A.rows(), functors::RowAbsSums{A.row_ptr().data(), A.val().data(), d.data()});
  return d;
}

void scale_rows(CsrMatrix& A, const Vector& d) {
  SAGA_REQUIRE(d.size() == static_cast<std::size_t>(A.rows()), "scale_rows: {} scales for {} rows", d.size(),
               A.rows());
  parallel_for(A.space(), A.rows(), functors::ScaleRows{A.row_ptr().data(), A.mutable_val().data(), d.data()});
}

CsrMatrix add(double alpha, const CsrMatrix& A, double beta, const CsrMatrix& B) {
  SAGA_REQUIRE(A.rows() == B.rows() && A.cols() == B.cols(), "add: shapes differ ({}x{} vs {}x{})", A.rows(),
               A.cols(), B.rows(), B.cols());
  SAGA_REQUIRE(A.space() == B.space(), "add: operands in different spaces");
  return build_csr_two_pass(A.space(), A.rows(), A.cols(),
                            functors::AddRows{A.row_ptr().data(), B.row_ptr().data(), A.col().data(),
                                              B.col().data(), A.val().data(), B.val().data(), alpha, beta, nullptr,
                                              nullptr, nullptr, nullptr},
                            "sum of matrices");
}

}  // namespace saga
