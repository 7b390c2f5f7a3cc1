#include "sparse/csr.hpp"

#include <limits>
#include <type_traits>

#include "core/parallel_for.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

CsrMatrix::CsrMatrix(index_t rows, index_t cols, Array<offset_t> row_ptr, Array<index_t> col,
                     Array<double> val)
    : rows_(rows), cols_(cols), row_ptr_(std::move(row_ptr)), col_(std::move(col)), val_(std::move(val)) {
  check_arrays(val_.size(), val_.space());
}

CsrMatrix::CsrMatrix(index_t rows, index_t cols, Array<offset_t> row_ptr, Array<index_t> col, Array<float> val)
    : rows_(rows), cols_(cols), row_ptr_(std::move(row_ptr)), col_(std::move(col)), val_single_(std::move(val)),
      single_(true) {
  check_arrays(val_single_.size(), val_single_.space());
}

void CsrMatrix::check_arrays(std::size_t values, Space values_space) const {
  SAGA_REQUIRE(rows_ >= 0 && cols_ >= 0, "CSR: negative shape {}x{}", rows_, cols_);
  SAGA_REQUIRE(row_ptr_.size() == static_cast<std::size_t>(rows_) + 1, "CSR: row_ptr has {} entries, expected {}",
               row_ptr_.size(), static_cast<std::size_t>(rows_) + 1);
  SAGA_REQUIRE(col_.size() == values, "CSR: {} column indices but {} values", col_.size(), values);
  SAGA_REQUIRE(row_ptr_.space() == col_.space() && col_.space() == values_space,
               "CSR: row_ptr, col and val must live in the same memory space");
}

void CsrMatrix::val_single_required() const {
  throw Error(fmt::format("a {}x{} matrix stores its values in double precision where single precision was expected",
                          rows_, cols_));
}

CsrMatrix CsrMatrix::zeros(index_t rows, index_t cols, Space space) {
  return CsrMatrix(rows, cols, Array<offset_t>::zeros(static_cast<std::size_t>(rows) + 1, space, "CSR row_ptr"),
                   Array<index_t>(0, space), Array<double>(0, space));
}

CsrMatrix CsrMatrix::to(Space space) const {
  if (!single_)
    return CsrMatrix(rows_, cols_, row_ptr_.to(space, "CSR row_ptr"), col_.to(space, "CSR col"),
                     val_.to(space, "CSR val"));
  return CsrMatrix(rows_, cols_, row_ptr_.to(space, "CSR row_ptr"), col_.to(space, "CSR col"),
                   val_single_.to(space, "CSR single-precision values"));
}

void CsrMatrix::require_double_values() const {
  throw Error(fmt::format("a {}x{} matrix stores its values in single precision (amg.hierarchy_precision: float, "
                          "or amg.exact_single on a fine matrix of exact floats) and this operation needs them in "
                          "double (store_values_double() on a copy widens them); only the products of the solve "
                          "phase read single-precision values",
                          rows_, cols_));
}

void CsrMatrix::store_values_single() {
  if (single_) return;
  Array<float> v(val_.size(), space(), "CSR single-precision values");
  parallel_for(space(), static_cast<std::int64_t>(val_.size()), functors::ValuesToSingle{val_.data(), v.data()});
  val_single_ = std::move(v);
  val_ = Array<double>();  // freed (a view's memory stays the caller's)
  single_ = true;
  values_changed();
}

bool CsrMatrix::store_values_single_if_exact() {
  if (single_) return true;
  Array<float> v(val_.size(), space(), "CSR single-precision values");
  if (!to_single_if_exact(val_, v)) return false;  // the rounded copy is dropped
  val_single_ = std::move(v);
  val_ = Array<double>();  // freed (a view's memory stays the caller's)
  single_ = true;
  values_changed();
  return true;
}

void CsrMatrix::store_values_double() {
  if (!single_) return;
  Array<double> v(val_single_.size(), space(), "CSR val");
  parallel_for(space(), static_cast<std::int64_t>(v.size()), functors::ValuesToDouble{val_single_.data(), v.data()});
  val_ = std::move(v);
  val_single_ = Array<float>();
  single_ = false;
  values_changed();
}

std::size_t CsrMatrix::bytes() const {
  return row_ptr_.size() * sizeof(offset_t) + col_.size() * sizeof(index_t) + val_.size() * sizeof(double) +
         val_single_.size() * sizeof(float);
}

// Every row checked where the matrix lives (one flag per row, a parallel loop on
// the host, a kernel on the device); only the first bad row is copied back to
// say what is wrong with it.
void CsrMatrix::validate(const std::string& name) const {
  const offset_t nnz = static_cast<offset_t>(col_.size());
  const offset_t first = row_ptr_.get(0);
  SAGA_REQUIRE(first == 0, "{}: row_ptr[0] = {} (must be 0)", name, first);
  if (rows_ > 0) {
    Array<std::int32_t> bad(rows_, space(), "CSR check flags");
    parallel_for(space(), rows_, functors::CheckCsrRow{row_ptr_.data(), col_.data(), cols_, nnz, bad.data()});
    const std::int64_t i = first_flagged(bad);
    if (i >= 0) {
      const offset_t a = row_ptr_.get(i), b = row_ptr_.get(i + 1);
      SAGA_REQUIRE(a <= b, "{}: row_ptr decreases at row {} ({} > {})", name, i, a, b);
      SAGA_REQUIRE(i + 1 < rows_ || b == nnz, "{}: row_ptr[rows] = {} but there are {} entries", name, b, nnz);
      SAGA_REQUIRE(a >= 0 && b <= nnz, "{}: row {} spans entries [{}, {}) outside the {} entries", name, i, a, b, nnz);
      const std::vector<index_t> c =
          Array<index_t>::view(const_cast<index_t*>(col_.data()) + a, static_cast<std::size_t>(b - a), space())
              .to_vector();
      for (std::size_t k = 0; k < c.size(); ++k) {
        SAGA_REQUIRE(c[k] >= 0 && c[k] < cols_, "{}: row {} has column index {} outside [0, {})", name, i, c[k],
                     cols_);
        SAGA_REQUIRE(k == 0 || c[k - 1] < c[k], "{}: row {} columns not strictly increasing ({} then {})", name, i,
                     c[k - 1], c[k]);
      }
    }
  }
  const offset_t last = row_ptr_.get(rows_);
  SAGA_REQUIRE(last == nnz, "{}: row_ptr[rows] = {} but there are {} entries", name, last, nnz);
}

HostCsr to_host_csr(const CsrMatrix& A) {
  if (!A.single_precision())
    return HostCsr{A.rows(), A.cols(), A.row_ptr().to_vector(), A.col().to_vector(), A.val().to_vector()};
  const std::vector<float> v = A.val_single().to_vector();
  return HostCsr{A.rows(), A.cols(), A.row_ptr().to_vector(), A.col().to_vector(),
                 std::vector<double>(v.begin(), v.end())};
}

namespace {
void require_view_pointers(const void* row_ptr, const void* col, const void* val, std::int64_t nnz) {
  SAGA_REQUIRE(row_ptr != nullptr && (nnz == 0 || (col != nullptr && val != nullptr)),
               "CSR view: a null pointer for {} arrays", row_ptr == nullptr ? "row_ptr" : "col or val");
}

void require_ends(const Array<offset_t>& rp, index_t rows, offset_t nnz) {
  const offset_t first = rp.get(0), last = rp.get(rows);
  SAGA_REQUIRE(first == 0 && last == nnz, "CSR view: row_ptr[0] = {} and row_ptr[{}] = {} (expected 0 and nnz = {})",
               first, rows, last, nnz);
}

// The matrix of the views, over their checked indices and the caller's values in place.
CsrMatrix with_values_in_place(index_t rows, index_t cols, offset_t nnz, Array<offset_t> rp, Array<index_t> ci,
                               const double* val, Space space) {
  // saga reads a matrix it is given and never writes to it: the views are const in use.
  return CsrMatrix(rows, cols, std::move(rp), std::move(ci), Array<double>::view(const_cast<double*>(val), nnz, space));
}

// The caller's n = rows + 1 row offsets as offset_t: in place where the widths
// agree, else a converted copy (narrowed, each checked to lie in [0, nnz]; or widened).
template <class I>
Array<offset_t> caller_offsets(const I* row_ptr, index_t rows, offset_t nnz, Space space) {
  const std::size_t n = static_cast<std::size_t>(rows) + 1;
  if constexpr (std::is_same_v<I, offset_t>) {
    return Array<offset_t>::view(const_cast<offset_t*>(row_ptr), n, space);
  } else if constexpr (sizeof(I) > sizeof(offset_t)) {
    Array<offset_t> out(n, space, "row_ptr");
    Array<std::int32_t> bad(n, space, "index range flags");
    parallel_for(space, static_cast<std::int64_t>(n), functors::NarrowIndex{row_ptr, out.data(), bad.data(), 0, nnz});
    const std::int64_t first = first_flagged(bad);
    SAGA_REQUIRE(first < 0, "CSR view: row_ptr[{}] is outside [0, {}]", first, nnz);
    return out;
  } else {
    Array<offset_t> out(n, space, "row_ptr (widened to 64-bit offsets)");
    parallel_for(space, static_cast<std::int64_t>(n), functors::WidenIndex{row_ptr, out.data()});
    return out;
  }
}

// A view over the caller's 32-bit columns and values in place, its row offsets
// of width I (caller_offsets); row_ptr's ends checked.
template <class I>
CsrMatrix view_of_int32_columns(index_t rows, index_t cols, I nnz, const I* row_ptr, const index_t* col,
                                const double* val, Space space) {
  SAGA_REQUIRE(rows >= 0 && cols >= 0 && nnz >= 0, "CSR view: negative shape {}x{} or nnz {}", rows, cols, nnz);
  require_view_pointers(row_ptr, col, val, nnz);
  Array<offset_t> rp = caller_offsets(row_ptr, rows, nnz, space);
  require_ends(rp, rows, nnz);
  return with_values_in_place(rows, cols, nnz, std::move(rp),
                              Array<index_t>::view(const_cast<index_t*>(col), nnz, space), val, space);
}
}  // namespace

CsrMatrix CsrMatrix::view(index_t rows, index_t cols, offset_t nnz, const offset_t* row_ptr, const index_t* col,
                          const double* val, Space space) {
  return view_of_int32_columns(rows, cols, nnz, row_ptr, col, val, space);
}

CsrMatrix CsrMatrix::view(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const std::int64_t* row_ptr,
                          const std::int64_t* col, const double* val, Space space) {
  const index_t r = checked_index(rows, "CSR view (rows)");
  const index_t c = checked_index(cols, "CSR view (columns)");
  const offset_t z = checked_offset(nnz, "CSR view (nonzeros)");
  require_view_pointers(row_ptr, col, val, nnz);
  Array<offset_t> rp = caller_offsets(row_ptr, r, z, space);
  require_ends(rp, r, z);  // before col is read up to nnz
  Array<index_t> ci(static_cast<std::size_t>(z), space, "col"), bad(static_cast<std::size_t>(z), space, "index range flags");
  parallel_for(space, static_cast<std::int64_t>(z), functors::NarrowIndex{col, ci.data(), bad.data(), 0, c - 1});
  const std::int64_t first = first_flagged(bad);
  SAGA_REQUIRE(first < 0, "CSR view: col[{}] is outside [0, {}]", first, c - 1);
  return with_values_in_place(r, c, z, std::move(rp), std::move(ci), val, space);
}

#if SAGA_WIDE_OFFSETS
CsrMatrix CsrMatrix::view(index_t rows, index_t cols, std::int32_t nnz, const std::int32_t* row_ptr,
                          const index_t* col, const double* val, Space space) {
  return view_of_int32_columns(rows, cols, nnz, row_ptr, col, val, space);
}
#endif

CsrMatrix from_host_csr(const HostCsr& h, Space space) {
  return CsrMatrix(h.rows, h.cols, Array<offset_t>::from_vector(h.row_ptr, space, "CSR row_ptr"),
                   Array<index_t>::from_vector(h.col, space, "CSR col"),
                   Array<double>::from_vector(h.val, space, "CSR val"));
}

index_t checked_index(std::int64_t n, const char* what) {
  SAGA_REQUIRE(n >= 0 && n <= std::numeric_limits<index_t>::max(), "{} has {} rows or columns, more than saga's 32-bit indices allow",
               what, n);
  return static_cast<index_t>(n);
}

offset_t checked_offset(std::int64_t n, const char* what) {
  // Past 2^31 - 1 a 32-bit build says how to get the 64-bit one: the width is a
  // build option (docs/design.md, "Index widths").
  SAGA_REQUIRE(n >= 0, "{} has {} entries: a negative count", what, n);
  if (n > std::numeric_limits<offset_t>::max())
    throw OffsetOverflow(at_source(
        fmt::format("{} has {} entries, more than the {}-bit offsets of this build allow{}", what, n,
                    8 * sizeof(offset_t),
                    SAGA_WIDE_OFFSETS ? ""
                                      : " (configure saga with -DSAGA_OFFSET_BITS=64 for matrices past 2^31 - 1 "
                                        "nonzeros: docs/design.md, Index widths)"),
        __FILE__, __LINE__));
  return static_cast<offset_t>(n);
}

}  // namespace saga
