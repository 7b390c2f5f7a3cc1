#include "sparse/csr_ops.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel_for.hpp"
#include "sparse/build_rows.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/scan.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

std::int64_t first_flagged(const Array<std::int32_t>& flags) {
  if (flags.space() == Space::device) {
    std::int64_t first = -1;
    SAGA_DEVICE_CALL(first = cuda::first_flagged(flags));
    return first;
  }
  const std::int32_t* f = flags.data();
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (f[i]) return static_cast<std::int64_t>(i);
  return -1;
}

std::int64_t total(const Array<std::int32_t>& a) {
  Array<std::int32_t> sums(a.size() + 1, a.space(), "sums");
  exclusive_scan_total(a, sums);
  return sums.get(a.size());
}

std::int64_t count_flagged(const Array<std::int32_t>& flags) { return total(flags); }

namespace {
// The diagonal, or its inverse (one pass either way); with require_positive an
// InputError naming the first row whose entry is missing, not positive or not finite.
Vector diagonal_values(const CsrMatrix& A, bool require_positive, bool invert, const char* name) {
  SAGA_REQUIRE(A.rows() == A.cols(), "{}: diagonal of a non-square {}x{} matrix", name, A.rows(), A.cols());
  Vector d(A.rows(), A.space(), invert ? "inverse diagonal" : "diagonal");
  Array<std::int32_t> bad(require_positive ? A.rows() : 0, A.space(), "diagonal check flags");
  std::int32_t* flags = require_positive ? bad.data() : nullptr;
  if (A.single_precision())
    parallel_for(A.space(), A.rows(),
                 functors::ExtractDiagonal<float>{A.row_ptr().data(), A.col().data(), A.val_single().data(), d.data(),
                                                  flags, invert});
  else
    parallel_for(A.space(), A.rows(),
                 functors::ExtractDiagonal<double>{A.row_ptr().data(), A.col().data(), A.val().data(), d.data(),
                                                   flags, invert});
  if (require_positive) {
    const std::int64_t row = first_flagged(bad);
    SAGA_REQUIRE(row < 0, "{}: diagonal entry of row {} is {} (AMG needs a positive diagonal; is the matrix SPD?)",
                 name, row, invert ? diagonal_values(A, false, false, name).get(row) : d.get(row));
  }
  return d;
}
}  // namespace

Vector diagonal(const CsrMatrix& A, bool require_positive, const char* name) {
  return diagonal_values(A, require_positive, false, name);
}

Vector inverse_diagonal(const CsrMatrix& A, const char* name) { return diagonal_values(A, true, true, name); }

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
  if (A.single_precision())
    parallel_for(A.space(), A.rows(), functors::RowAbsSums<float>{A.row_ptr().data(), A.val_single().data(), d.data()});
  else
    parallel_for(A.space(), A.rows(), functors::RowAbsSums<double>{A.row_ptr().data(), A.val().data(), d.data()});
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

CsrMatrix row_block(const CsrMatrix& A, index_t r0, index_t r1, index_t c0, index_t cols, bool share_entries) {
  SAGA_REQUIRE(0 <= r0 && r0 <= r1 && r1 <= A.rows(), "row_block: rows [{}, {}) of a matrix of {} rows", r0, r1,
               A.rows());
  if (cols < 0) cols = A.cols() - c0;
  SAGA_REQUIRE(0 <= c0 && 0 <= cols && c0 + cols <= A.cols(), "row_block: columns [{}, {}) of a matrix of {} columns",
               c0, c0 + cols, A.cols());
  const Space s = A.space();
  const index_t rows = r1 - r0;
  const offset_t b = A.row_ptr().get(r0), nnz = A.row_ptr().get(r1) - b;
  Array<offset_t> rp(static_cast<std::size_t>(rows) + 1, s, "row block row pointers");
  parallel_for(s, rows + 1, functors::RebaseRowPtr{A.row_ptr().data() + r0, rp.data(), 0});
  if (nnz > 0 && (c0 > 0 || cols < A.cols())) {  // the entries must lie in the kept columns (views too)
    const auto [lo, hi] = column_span(A, r0, r1);
    SAGA_REQUIRE(c0 <= lo && hi < c0 + cols, "row_block: rows [{}, {}) have columns in [{}, {}], outside [{}, {})", r0,
                 r1, lo, hi, c0, c0 + cols);
  }
  // The values as stored (a single-precision matrix's blocks are single precision).
  auto block = [&](auto value) {
    using V = decltype(value);
    const V* v = stored_values<V>(A).data() + b;
    if (share_entries && c0 == 0) {
      auto col = Array<index_t>::view(const_cast<index_t*>(A.col().data()) + b, static_cast<std::size_t>(nnz), s);
      auto val = Array<V>::view(const_cast<V*>(v), static_cast<std::size_t>(nnz), s);
      return CsrMatrix(rows, cols, std::move(rp), std::move(col), std::move(val));
    }
    Array<index_t> col(nnz, s, "row block columns");
    Array<V> val(nnz, s, "row block values");
    parallel_for(s, nnz, functors::ShiftColumns{A.col().data() + b, col.data(), c0});
    parallel_for(s, nnz, functors::CopyValuesOf<V>{v, val.data()});
    return CsrMatrix(rows, cols, std::move(rp), std::move(col), std::move(val));
  };
  return A.single_precision() ? block(float()) : block(double());
}

namespace {
// stack_rows in the blocks' value type V (all the same, checked by the caller).
template <class V>
CsrMatrix stack_rows_of(std::vector<CsrMatrix> blocks, std::int64_t rows, std::int64_t nnz) {
  const Space s = blocks.front().space();
  const index_t cols = blocks.front().cols();
  Array<offset_t> rp(static_cast<std::size_t>(rows) + 1, s, "stacked row pointers");
  Array<index_t> col(checked_offset(nnz, "stacked matrix nonzeros"), s, "stacked columns");
  Array<V> val(col.size(), s, "stacked values");
  std::int64_t r = 0, k = 0;
  for (CsrMatrix& B : blocks) {
    // rows r .. r + B.rows() (the last pointer is the next block's first).
    parallel_for(s, B.rows() + 1, functors::RebaseRowPtr{B.row_ptr().data(), rp.data() + r, static_cast<offset_t>(k)});
    parallel_for(s, B.nnz(), functors::ShiftColumns{B.col().data(), col.data() + k, 0});
    parallel_for(s, B.nnz(), functors::CopyValuesOf<V>{stored_values<V>(B).data(), val.data() + k});
    r += B.rows();
    k += B.nnz();
    B = CsrMatrix();  // freed as soon as copied: the peak holds the stack and the blocks not yet copied
  }
  return CsrMatrix(static_cast<index_t>(rows), cols, std::move(rp), std::move(col), std::move(val));
}
}  // namespace

CsrMatrix stack_rows(std::vector<CsrMatrix> blocks) {
  SAGA_REQUIRE(!blocks.empty(), "stack_rows: no blocks");
  const Space s = blocks.front().space();
  const index_t cols = blocks.front().cols();
  const bool single = blocks.front().single_precision();
  std::int64_t rows = 0, nnz = 0;
  for (const CsrMatrix& B : blocks) {
    SAGA_REQUIRE(B.cols() == cols && B.space() == s, "stack_rows: a {}x{} block on the {} under {} columns on the {}",
                 B.rows(), B.cols(), to_string(B.space()), cols, to_string(s));
    SAGA_REQUIRE(B.single_precision() == single, "stack_rows: blocks of single and double precision values mixed");
    rows += B.rows();
    nnz += B.nnz();
  }
  return single ? stack_rows_of<float>(std::move(blocks), rows, nnz)
                : stack_rows_of<double>(std::move(blocks), rows, nnz);
}

void copy_values(const CsrMatrix& A, double* dst) {
  parallel_for(A.space(), A.nnz(), functors::CopyValues{A.val().data(), dst});
}

std::pair<index_t, index_t> row_span_of_columns(const CsrMatrix& A, index_t c0, index_t c1) {
  SAGA_REQUIRE(0 <= c0 && c0 <= c1 && c1 <= A.cols(), "row_span_of_columns: columns [{}, {}) of a matrix of {} columns",
               c0, c1, A.cols());
  Array<index_t> span = Array<index_t>::from_vector({0x7fffffff, -1}, A.space(), "row span");
  parallel_for(A.space(), A.rows(),
               functors::RowsWithColumnsIn{A.row_ptr().data(), A.col().data(), c0, c1, span.data()});
  const std::vector<index_t> h = span.to_vector();
  return {h[0], h[1]};
}

namespace {
template <class V>
CsrMatrix column_block_of(const CsrMatrix& A, index_t c0, index_t c1) {
  using F = functors::ColumnBlockRows<V>;
  return build_csr_two_pass<F, V>(
      A.space(), A.rows(), c1 - c0,
      F{A.row_ptr().data(), A.col().data(), stored_values<V>(A).data(), c0, c1, nullptr, nullptr, nullptr, nullptr},
      "column block");
}
}  // namespace

CsrMatrix column_block(const CsrMatrix& A, index_t c0, index_t c1) {
  SAGA_REQUIRE(0 <= c0 && c0 <= c1 && c1 <= A.cols(), "column_block: columns [{}, {}) of a matrix of {} columns", c0,
               c1, A.cols());
  return A.single_precision() ? column_block_of<float>(A, c0, c1) : column_block_of<double>(A, c0, c1);
}

std::pair<index_t, index_t> column_span(const CsrMatrix& A, index_t r0, index_t r1) {
  SAGA_REQUIRE(0 <= r0 && r0 <= r1 && r1 <= A.rows(), "column_span: rows [{}, {}) of a matrix of {} rows", r0, r1,
               A.rows());
  Array<index_t> span = Array<index_t>::from_vector({0x7fffffff, -1}, A.space(), "column span");
  parallel_for(A.space(), r1 - r0, functors::RowsColumnSpan{A.row_ptr().data() + r0, A.col().data(), span.data()});
  const std::vector<index_t> h = span.to_vector();
  return {h[0], h[1]};
}

void require_finite(const CsrMatrix& A, const char* what) {
  if (all_finite(A.val())) return;
  const HostCsr h = to_host_csr(A);
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k)
      if (!std::isfinite(h.val[k]))
        throw InputError(fmt::format("{} has a non-finite entry: a({}, {}) = {} (rows and columns from 0){}", what, i,
                                     h.col[k], h.val[k],
                                     std::isinf(h.val[k]) ? "; values this large overflow double precision" : ""));
}

void require_system_matrix(const CsrMatrix& A, const char* who) {
  SAGA_REQUIRE(A.rows() == A.cols(), "{} needs a square matrix (got {}x{})", who, A.rows(), A.cols());
  SAGA_REQUIRE(A.rows() > 0, "{} needs a non-empty matrix", who);
  require_finite(A, "the matrix");
}

void require_resetup_matrix(const CsrMatrix& old, const CsrMatrix& A, const char* holder) {
  SAGA_REQUIRE(A.space() == old.space(), "resetup: the new matrix lives on the {}, the {} on the {}",
               to_string(A.space()), holder, to_string(old.space()));
  SAGA_REQUIRE(A.rows() == old.rows() && A.cols() == old.cols(), "resetup: a {}x{} matrix for a {} of {}x{}",
               A.rows(), A.cols(), holder, old.rows(), old.cols());
  SAGA_REQUIRE(A.nnz() == old.nnz(), "resetup: the new matrix has {} nonzeros, the one set up {} (resetup keeps the "
               "pattern; set up a new {} for a new pattern)", A.nnz(), old.nnz(), holder);
  const std::int64_t row = first_pattern_difference(old, A);
  SAGA_REQUIRE(row < 0, "resetup: row {} of the new matrix has another pattern than the one set up (resetup keeps "
               "the pattern; set up a new {} for a new pattern)", row, holder);
  require_finite(A, "the new matrix");
}

}  // namespace saga
