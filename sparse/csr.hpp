#pragma once
// CsrMatrix: compressed sparse row matrix in host or device memory.
// Invariants (checked by validate()): row_ptr has rows+1 monotone entries
// starting at 0, column indices are in [0, cols) and strictly increasing within
// each row (sorted, no duplicates).
//
// A matrix can carry per-matrix analyses (row bins for SpMV, SpGEMM plans, ...)
// keyed by name. They are dropped when the matrix changes, so an analysis is
// never used on data it was not built for: mutable_row_ptr / mutable_col drop
// all; mutable_val and values_changed() drop those that read the values and
// keep the structural ones (structural_analysis: built from the pattern only).
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "sparse/array.hpp"

namespace saga {

class CsrMatrix {
 public:
  CsrMatrix() = default;
  CsrMatrix(index_t rows, index_t cols, Array<offset_t> row_ptr, Array<index_t> col, Array<double> val);
  // The same with its values stored in single precision (see store_values_single).
  CsrMatrix(index_t rows, index_t cols, Array<offset_t> row_ptr, Array<index_t> col, Array<float> val);
  // An empty (all-zero) rows x cols matrix.
  static CsrMatrix zeros(index_t rows, index_t cols, Space space);
  // A matrix over the caller's CSR arrays in `space` (device pointers for
  // Space::device), without copying (Array::view): the caller keeps them alive
  // and unchanged while the matrix, or a solver it was moved into, lives. Only
  // row_ptr[0] = 0 and row_ptr[rows] = nnz are checked here; validate() checks
  // the rest (on a host copy).
  static CsrMatrix view(index_t rows, index_t cols, offset_t nnz, const offset_t* row_ptr, const index_t* col,
                        const double* val, Space space);
  // The same from 64-bit row_ptr and col: the columns are narrowed to saga's
  // 32-bit ones (a copy, in `space`; an InputError names the first one out of
  // range), and so are the row offsets unless this build's are 64-bit (then
  // they are used in place); the values are used in place.
  static CsrMatrix view(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const std::int64_t* row_ptr,
                        const std::int64_t* col, const double* val, Space space);
#if SAGA_WIDE_OFFSETS
  // 32-bit row offsets in a build whose offsets are 64-bit: row_ptr widened
  // into a copy in `space`, col and val used in place.
  static CsrMatrix view(index_t rows, index_t cols, std::int32_t nnz, const std::int32_t* row_ptr, const index_t* col,
                        const double* val, Space space);
#endif

  CsrMatrix(CsrMatrix&&) noexcept = default;
  CsrMatrix& operator=(CsrMatrix&&) noexcept = default;
  CsrMatrix(const CsrMatrix&) = delete;
  CsrMatrix& operator=(const CsrMatrix&) = delete;

  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }
  offset_t nnz() const { return static_cast<offset_t>(col_.size()); }
  Space space() const { return row_ptr_.space(); }

  const Array<offset_t>& row_ptr() const { return row_ptr_; }
  const Array<index_t>& col() const { return col_; }
  // The values in double precision; an Error where they are stored in single
  // precision (below): the operation asking for them needs doubles.
  const Array<double>& val() const {
    if (single_) require_double_values();
    return val_;
  }
  // Mutable access drops all cached analyses.
  Array<offset_t>& mutable_row_ptr() { clear_analysis(); return row_ptr_; }
  Array<index_t>& mutable_col() { clear_analysis(); return col_; }
  Array<double>& mutable_val() {
    if (single_) require_double_values();
    values_changed();
    return val_;
  }

  // Values stored in single precision (amg.hierarchy_precision: float,
  // docs/memory.md): 4 bytes a nonzero instead of 8, for the matrices of a
  // hierarchy that only the solve phase reads. The products of the solve phase
  // read them (SpMV and its fused forms: each value widened to double, the
  // arithmetic in double), and so do diagonal(), row_abs_sums(), to(), clone()
  // and to_host_csr() (widened); every other operation asks for val() and gets
  // an Error naming the storage. store_values_single() rounds the values to
  // float and frees the doubles; store_values_double() widens them back (the
  // rounded values) for an operation that reads or writes doubles (a resetup).
  bool single_precision() const { return single_; }
  [[noreturn]] void val_single_required() const;  // the Error of stored_values<float> on a double matrix
  const Array<float>& val_single() const { return val_single_; }
  void store_values_single();
  // store_values_single() where every value is exactly a float (rounding
  // loses nothing), in one pass that converts and checks; false, the doubles
  // kept, otherwise.
  bool store_values_single_if_exact();
  void store_values_double();
  // Bytes of the matrix's arrays (row_ptr, col and the values as stored).
  std::size_t bytes() const;

  // Explicit transfer / deep copy.
  CsrMatrix to(Space space) const;
  CsrMatrix clone() const { return to(space()); }

  // Throws InputError naming the first violated invariant.
  void validate(const std::string& name = "matrix") const;

  // Per-matrix analysis cache: returns the analysis `key`, building it with
  // make(*this) on first use.
  template <class T, class Make>
  T& analysis(const std::string& key, Make make) const {
    auto it = analyses_.find(key);
    if (it == analyses_.end()) it = analyses_.emplace(key, std::make_shared<T>(make(*this))).first;
    return *static_cast<T*>(it->second.get());
  }
  // The same for an analysis built from the pattern alone (row_ptr, col, shape):
  // it survives new values.
  template <class T, class Make>
  T& structural_analysis(const std::string& key, Make make) const {
    auto it = structural_.find(key);
    if (it == structural_.end()) it = structural_.emplace(key, std::make_shared<T>(make(*this))).first;
    return *static_cast<T*>(it->second.get());
  }
  void clear_analysis() {
    analyses_.clear();
    structural_.clear();
  }
  // The values were written in place (the pattern is the same).
  void values_changed() { analyses_.clear(); }
  // Drops the analysis `key`, whichever kind it is (nothing where there is none).
  void drop_analysis(const std::string& key) const {
    analyses_.erase(key);
    structural_.erase(key);
  }
  // Takes the structural analyses of `same_pattern`, a matrix whose row_ptr and
  // col the caller has checked to be equal to this one's (resetup does).
  void share_structural_analyses(const CsrMatrix& same_pattern) { structural_ = same_pattern.structural_; }
  bool has_analysis(const std::string& key) const { return analyses_.count(key) != 0 || structural_.count(key) != 0; }

 private:
  index_t rows_ = 0, cols_ = 0;
  Array<offset_t> row_ptr_;
  Array<index_t> col_;
  Array<double> val_;
  Array<float> val_single_;  // the values where single_ (val_ is then empty)
  bool single_ = false;
  [[noreturn]] void require_double_values() const;
  void check_arrays(std::size_t values, Space values_space) const;  // the constructors' checks
  mutable std::map<std::string, std::shared_ptr<void>> analyses_;
  mutable std::map<std::string, std::shared_ptr<void>> structural_;
};

// A's values as stored, for code written once for both storages (V = double
// or float; val() and its Error where A stores the other).
template <class V>
const Array<V>& stored_values(const CsrMatrix& A);
template <>
inline const Array<double>& stored_values<double>(const CsrMatrix& A) { return A.val(); }
template <>
inline const Array<float>& stored_values<float>(const CsrMatrix& A) {
  if (!A.single_precision()) A.val_single_required();
  return A.val_single();
}

// Host copy of a matrix as plain std::vectors, convenient for tests and I/O.
struct HostCsr {
  index_t rows = 0, cols = 0;
  std::vector<offset_t> row_ptr;
  std::vector<index_t> col;
  std::vector<double> val;
};
HostCsr to_host_csr(const CsrMatrix& A);
CsrMatrix from_host_csr(const HostCsr& h, Space space);

// Converts a 64-bit count to offset_t, throwing when it does not fit (see
// core/types.hpp for how the offset width is widened).
offset_t checked_offset(std::int64_t n, const char* what);
// The same for a count of rows or columns (index_t, 32-bit in every build).
index_t checked_index(std::int64_t n, const char* what);

}  // namespace saga
