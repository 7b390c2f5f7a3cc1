#pragma once
// DcsrMatrix: dynamic CSR (004_..., "Dynamic sparse-matrix allocation"; the
// design is in docs/dcsr.md). Rows grow in place, on the host or the GPU:
//
//   col, val   one buffer of `capacity` entries, divided into segments;
//   seg        a pitched table of up to k (start, end) pairs per row: segment
//              s of row i is [seg[s*pitch + 2i], seg[s*pitch + 2i + 1]), with
//              pitch >= 2*rows rounded up to a 128-byte line;
//   size       the entries row i holds (its segments in order, the last one
//              possibly part-full);
//   nseg       the segments row i uses (0..k);
//   cursor     the bump allocator: new segments are carved from
//              [cursor, capacity) with one atomic add per new segment.
//
// Insertion appends to a row's last segment, or opens a new one of the size
// needed plus the slack alpha; a row that would need a (k+1)-th segment, or a
// buffer that is full, triggers a defragmentation (a scan of the row sizes and
// a move of the entries: no sort) and the rows left over are inserted again.
// Entries within a row are in insertion order; columns are not kept sorted
// (to_csr sorts them).
#include <cstdint>
#include <memory>
#include <string>

#include "sparse/coo.hpp"
#include "sparse/csr.hpp"

namespace saga::functors {
struct DcsrCompact;  // sparse/dcsr_functors.hpp
}

namespace saga {

// How an inserted (row, column) that the row already holds is treated.
enum class DcsrDuplicates {
  keep,     // appended as another entry (the paper's O(1) insert; products and to_csr sum them)
  add,      // added to the existing entry
  replace,  // overwrites the existing entry
};
DcsrDuplicates parse_dcsr_duplicates(const std::string& name);  // InputError naming the choices
const char* to_string(DcsrDuplicates d);

struct DcsrParams {
  int segments = 4;                 // k: segments a row may use before a defragmentation (>= 2)
  double slack = -1;                // alpha: spare entries of every new segment; < 0: the mean row length
  index_t initial_width = 8;        // blank matrices: entries of every row's first segment
  double reserve = 1.5;             // capacity = reserve x entries (at least entries + rows x alpha)
  std::int64_t max_entries = 0;     // capacity limit (0: the 32-bit offset limit); beyond it insertion fails
  bool order_by_length = false;     // defragmentation places rows longest first (SpMV locality)
  DcsrDuplicates duplicates = DcsrDuplicates::keep;
  void validate() const;            // InputError naming the parameter
};

// Memory accounting (DcsrMatrix::memory).
struct DcsrMemory {
  std::int64_t entries = 0;      // Σ row sizes
  std::int64_t allocated = 0;    // entries handed out by the bump allocator (cursor)
  std::int64_t capacity = 0;     // entries the col/val buffers hold
  std::int64_t segments = 0;     // segments in use over all rows
  int max_segments = 0;          // most segments of one row
  std::int64_t bytes = 0;        // col + val + segment table + sizes + segment counts
  double fragmentation() const { return allocated > 0 ? 1.0 - static_cast<double>(entries) / allocated : 0.0; }
};

// Result of one insert / erase batch.
struct DcsrUpdateStats {
  std::int64_t inserted = 0;         // new entries appended
  std::int64_t updated = 0;          // existing entries added to or replaced
  std::int64_t erased = 0;           // entries removed
  std::int64_t new_segments = 0;     // segments opened (one atomic each)
  int defragmentations = 0;          // run because a row hit k segments or the buffer was full
  bool grew = false;                 // the buffer was enlarged
};

class DcsrMatrix {
 public:
  DcsrMatrix() = default;
  DcsrMatrix(DcsrMatrix&&) noexcept = default;
  DcsrMatrix& operator=(DcsrMatrix&&) noexcept = default;
  DcsrMatrix(const DcsrMatrix&) = delete;
  DcsrMatrix& operator=(const DcsrMatrix&) = delete;

  // Every row one segment holding the CSR row (no slack), in A's space.
  static DcsrMatrix from_csr(const CsrMatrix& A, const DcsrParams& p = {});
  // From triplets in any order (duplicates summed, through coo_to_csr).
  static DcsrMatrix from_coo(const CooMatrix& coo, const DcsrParams& p = {});
  // No entries; every row gets a first segment of p.initial_width entries.
  static DcsrMatrix blank(index_t rows, index_t cols, Space space, const DcsrParams& p = {});

  // The CSR matrix with the same entries: rows compacted, columns sorted,
  // duplicate entries summed. Exact: no value changes unless duplicates were kept.
  CsrMatrix to_csr() const;
  DcsrMatrix to(Space space) const;

  // Inserts a batch of (row, column, value) triplets of this matrix's shape and
  // space. Triplets repeated within the batch are summed first; against the
  // matrix, p.duplicates decides. Rows are inserted all-or-nothing: when the
  // buffer cannot grow (max_entries), an InputError names what did not fit and
  // the rows inserted before stay inserted.
  DcsrUpdateStats insert(const CooMatrix& batch);
  // this += alpha B (B a CSR of the same shape and space): B's entries
  // inserted with p.duplicates = add.
  DcsrUpdateStats add(double alpha, const CsrMatrix& B);
  // Removes every entry at the (row, column) positions of `positions` (values
  // ignored; positions not held are ignored). Row order is kept.
  DcsrUpdateStats erase(const CooMatrix& positions);
  // Compacts every row into one segment without slack (no sort); with
  // p.order_by_length the longest rows are placed first. new_capacity (0: keep)
  // enlarges the buffer at the same time.
  void defragment(std::int64_t new_capacity = 0);

  // y = alpha A x + beta y over the fragmented rows (beta = 0 ignores y).
  void spmv(double alpha, const Vector& x, double beta, Vector& y) const;

  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }
  Space space() const { return size_.space(); }
  std::int64_t entries() const { return entries_; }
  std::int64_t capacity() const { return static_cast<std::int64_t>(col_.size()); }
  DcsrMemory memory() const;
  const DcsrParams& params() const { return params_; }
  double slack() const { return slack_; }  // alpha in effect
  std::int64_t pitch() const { return pitch_; }
  // Whether every row is one segment in row order with sorted unique columns
  // (true after from_csr / from_coo until the first insertion).
  bool sorted_rows() const { return sorted_; }
  // Whether the rows are one segment each, back to back in row order (after
  // from_csr and after a defragmentation not ordered by length, until an entry
  // is appended or erased): the entries are then CSR arrays, and the device
  // SpMV is saga's binned CSR SpMV on them (the same kernels, docs/dcsr.md).
  bool compact() const { return compact_; }

  // Raw layout (kernels and tests).
  const Array<index_t>& col() const { return col_; }
  const Array<double>& val() const { return val_; }
  const Array<offset_t>& segment_table() const { return seg_; }
  const Array<offset_t>& row_sizes() const { return size_; }
  const Array<std::int32_t>& row_segments() const { return nseg_; }
  std::int64_t cursor() const;

 private:
  // Shape, parameters and buffers; the caller fills the table and sets the cursor.
  void init_layout(index_t rows, index_t cols, Space space, const DcsrParams& p, std::int64_t capacity);
  std::int64_t limit() const;  // largest capacity allowed
  // One insertion pass over the rows flagged in `pending` (all when null).
  struct PassResult {
    std::int64_t inserted = 0, updated = 0, new_segments = 0, need = 0;
    std::int64_t left = 0;  // rows not inserted (flagged again in pending)
    bool full = false;      // some row found no room in the buffer
  };
  PassResult insert_pass(const CsrMatrix& batch, Array<std::int32_t>& pending, DcsrDuplicates mode, double slack);
  DcsrUpdateStats insert_rows(const CsrMatrix& batch, DcsrDuplicates mode);

  index_t rows_ = 0, cols_ = 0;
  DcsrParams params_;
  double slack_ = 0;
  std::int64_t pitch_ = 0;
  Array<index_t> col_;
  Array<double> val_;
  Array<offset_t> seg_;
  Array<offset_t> size_;
  Array<std::int32_t> nseg_;
  Array<unsigned long long> cursor_;  // one element
  void set_cursor(std::int64_t entries);  // on the device without waiting for it
  std::int64_t entries_ = 0;          // Σ row sizes, kept by every update
  std::int64_t segments_ = 0;         // segments in use (an upper bound): the kernels' lanes per row
  double mean_run_length() const;
  void compact_into(const functors::DcsrCompact& f) const;  // f over every row, by backend
  bool compact_ = false;
  // rows + 1 when compact_ (built from the table on first use when a conversion
  // left it out: 4 bytes a row that CSR -> DCSR does not move)
  mutable Array<offset_t> row_ptr_;
  mutable std::shared_ptr<void> spmv_plan_;  // the binned SpMV's plan of (row_ptr_, col_, val_), when compact_
  mutable Array<index_t> spmv_row_lists_;    // the fragmented SpMV's lists of long rows, kept between calls
  void set_compact(Array<offset_t> row_ptr);  // row_ptr empty: not compact
  void set_compact_from_table();              // compact; row_ptr_ made from the table when needed
  const Array<offset_t>& compact_row_ptr() const;
  bool sorted_ = true;
};

}  // namespace saga
