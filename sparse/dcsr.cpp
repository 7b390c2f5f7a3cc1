#include "sparse/dcsr.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/dispatch.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/dcsr_functors.hpp"
#include "sparse/scan.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
constexpr std::int64_t kOffsetLimit = std::numeric_limits<offset_t>::max();

// The largest capacity p allows (max_entries, 0: the 32-bit offset limit).
std::int64_t limit_of(const DcsrParams& p) { return p.max_entries > 0 ? p.max_entries : kOffsetLimit; }

// Rows ordered longest first (stable): the defragmentation's placement order.
Array<index_t> rows_by_length(const Array<offset_t>& size) {
  if (size.space() == Space::device) SAGA_DEVICE_CALL(return cuda::dcsr_rows_by_length(size));
  std::vector<index_t> order(size.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) { return size[a] > size[b]; });
  return Array<index_t>::from_vector(order, Space::host, "DCSR row order");
}

functors::DcsrRows table(const Array<offset_t>& seg, const Array<offset_t>& size, const Array<std::int32_t>& nseg,
                         std::int64_t pitch) {
  // The functors take one pointer type for reading and writing.
  return {const_cast<offset_t*>(seg.data()), const_cast<offset_t*>(size.data()),
          const_cast<std::int32_t*>(nseg.data()), pitch};
}
}  // namespace

DcsrDuplicates parse_dcsr_duplicates(const std::string& name) {
  if (name == "keep") return DcsrDuplicates::keep;
  if (name == "add") return DcsrDuplicates::add;
  if (name == "replace") return DcsrDuplicates::replace;
  throw InputError(fmt::format("DCSR duplicates: '{}' is not one of keep, add, replace", name));
}

const char* to_string(DcsrDuplicates d) {
  switch (d) {
    case DcsrDuplicates::keep: return "keep";
    case DcsrDuplicates::add: return "add";
    case DcsrDuplicates::replace: return "replace";
  }
  return "?";
}

void DcsrParams::validate() const {
  SAGA_REQUIRE(segments >= 2 && segments <= 64, "DCSR segments: {} (a row needs 2 to 64 segments)", segments);
  SAGA_REQUIRE(std::isfinite(slack), "DCSR slack: {} is not a number", slack);
  SAGA_REQUIRE(initial_width >= 0, "DCSR initial_width: {} (expected >= 0)", initial_width);
  SAGA_REQUIRE(std::isfinite(reserve) && reserve >= 1.0, "DCSR reserve: {} (expected >= 1)", reserve);
  SAGA_REQUIRE(max_entries >= 0 && max_entries <= kOffsetLimit, "DCSR max_entries: {} (expected 0 to {})",
               max_entries, kOffsetLimit);
}

std::int64_t DcsrMatrix::limit() const { return limit_of(params_); }

void DcsrMatrix::init_layout(index_t rows, index_t cols, Space space, const DcsrParams& p, std::int64_t capacity) {
  p.validate();
  SAGA_REQUIRE(rows >= 0 && cols >= 0, "DCSR: negative shape {}x{}", rows, cols);
  rows_ = rows;
  cols_ = cols;
  params_ = p;
  constexpr std::int64_t line = 128 / sizeof(offset_t);  // offsets per 128-byte line
  pitch_ = (2 * static_cast<std::int64_t>(rows) + line - 1) / line * line;
  SAGA_REQUIRE(capacity <= limit(), "DCSR: {} entries exceed max_entries = {}", capacity, limit());
  col_ = Array<index_t>(static_cast<std::size_t>(capacity), space, "DCSR column indices");
  val_ = Array<double>(static_cast<std::size_t>(capacity), space, "DCSR values");
  seg_ = Array<offset_t>(static_cast<std::size_t>(pitch_ * p.segments), space, "DCSR segment table");
  size_ = Array<offset_t>(rows, space, "DCSR row sizes");
  nseg_ = Array<std::int32_t>(rows, space, "DCSR row segment counts");
  cursor_ = Array<unsigned long long>(1, space, "DCSR allocation cursor");  // set by the caller (set_cursor)
}

DcsrMatrix DcsrMatrix::from_csr(const CsrMatrix& A, const DcsrParams& p) {
  DcsrMatrix D;
  const std::int64_t nnz = A.nnz();
  const double mean = A.rows() ? static_cast<double>(nnz) / A.rows() : 0.0;
  const double alpha = p.slack >= 0 ? p.slack : mean;
  const std::int64_t cap = std::max<std::int64_t>(
      static_cast<std::int64_t>(std::ceil(p.reserve * nnz)),
      nnz + static_cast<std::int64_t>(std::ceil(alpha)) * std::min<std::int64_t>(A.rows(), 1 << 20));
  D.init_layout(A.rows(), A.cols(), A.space(),
                p, std::min(cap, std::max(limit_of(p), nnz)));
  D.slack_ = alpha;
  // The CSR arrays are the first nnz entries of the buffers.
  A.col().copy_into(D.col_, 0);
  A.val().copy_into(D.val_, 0);
  parallel_for(A.space(), A.rows(), functors::DcsrFromCsr{table(D.seg_, D.size_, D.nseg_, D.pitch_),
                                                         A.row_ptr().data()});
  D.set_cursor(nnz);
  D.entries_ = nnz;
  D.segments_ = A.rows();
  D.sorted_ = true;
  D.set_compact_from_table();
  return D;
}

void DcsrMatrix::set_compact(Array<offset_t> row_ptr) {
  compact_ = !row_ptr.empty();
  row_ptr_ = std::move(row_ptr);
  spmv_plan_.reset();
}

void DcsrMatrix::set_compact_from_table() {
  compact_ = true;
  row_ptr_ = Array<offset_t>();
  spmv_plan_.reset();
}

const Array<offset_t>& DcsrMatrix::compact_row_ptr() const {
  SAGA_REQUIRE(compact_, "DCSR: row_ptr of a matrix that is not compact");
  if (row_ptr_.empty()) {
    Array<offset_t> rp(static_cast<std::size_t>(rows_) + 1, space(), "DCSR row_ptr");
    parallel_for(space(), static_cast<std::int64_t>(rows_) + 1,
                 functors::DcsrCompactRowPtr{table(seg_, size_, nseg_, pitch_), rows_,
                                             static_cast<offset_t>(entries_), rp.data()});
    row_ptr_ = std::move(rp);
  }
  return row_ptr_;
}

DcsrMatrix DcsrMatrix::from_coo(const CooMatrix& coo, const DcsrParams& p) { return from_csr(coo_to_csr(coo), p); }

DcsrMatrix DcsrMatrix::blank(index_t rows, index_t cols, Space space, const DcsrParams& p) {
  DcsrMatrix D;
  const std::int64_t first = static_cast<std::int64_t>(rows) * p.initial_width;
  p.validate();
  SAGA_REQUIRE(first <= limit_of(p),
               "DCSR blank: {} rows x initial_width {} = {} entries exceed max_entries", rows, p.initial_width,
               first);
  const double alpha = p.slack >= 0 ? p.slack : p.initial_width;
  std::int64_t cap = std::max<std::int64_t>(static_cast<std::int64_t>(std::ceil(p.reserve * first)),
                                            first + static_cast<std::int64_t>(std::ceil(alpha)) * rows);
  cap = std::min(cap, limit_of(p));
  D.init_layout(rows, cols, space, p, cap);
  D.slack_ = alpha;
  parallel_for(space, rows, functors::DcsrBlank{table(D.seg_, D.size_, D.nseg_, D.pitch_), p.initial_width});
  D.set_cursor(first);
  D.segments_ = p.initial_width > 0 ? rows : 0;
  D.sorted_ = true;  // no entries
  return D;
}

void DcsrMatrix::set_cursor(std::int64_t entries) {
  parallel_for(space(), 1, functors::DcsrSetCursor{cursor_.data(), static_cast<unsigned long long>(entries)});
}

std::int64_t DcsrMatrix::cursor() const { return static_cast<std::int64_t>(cursor_.get(0)); }

DcsrMemory DcsrMatrix::memory() const {
  DcsrMemory m;
  m.entries = entries();
  m.allocated = std::min(cursor(), capacity());
  m.capacity = capacity();
  m.segments = total(nseg_);
  const std::vector<std::int32_t> ns = nseg_.to_vector();
  for (std::int32_t n : ns) m.max_segments = std::max(m.max_segments, static_cast<int>(n));
  m.bytes = capacity() * static_cast<std::int64_t>(sizeof(index_t) + sizeof(double)) +
            static_cast<std::int64_t>(seg_.size() * sizeof(offset_t) + size_.size() * sizeof(offset_t) +
                                      nseg_.size() * sizeof(std::int32_t) + row_ptr_.size() * sizeof(offset_t));
  return m;
}

void DcsrMatrix::defragment(std::int64_t new_capacity) {
  const Space s = space();
  const std::int64_t cap = new_capacity > 0 ? new_capacity : capacity();
  SAGA_REQUIRE(cap <= limit(), "DCSR defragment: {} entries exceed max_entries = {}", cap, limit());
  Array<offset_t> start(static_cast<std::size_t>(rows_) + 1, s, "DCSR new row starts");
  if (params_.order_by_length && rows_ > 1) {
    const Array<index_t> order = rows_by_length(size_);
    Array<offset_t> sorted_size(rows_, s, "DCSR sizes by length");
    parallel_for(s, rows_, functors::DcsrGatherSizes{order.data(), size_.data(), sorted_size.data()});
    Array<offset_t> sorted_start(static_cast<std::size_t>(rows_) + 1, s, "DCSR starts by length");
    exclusive_scan_total(sorted_size, sorted_start);
    parallel_for(s, rows_, functors::DcsrScatterStarts{order.data(), sorted_start.data(), start.data()});
  } else {
    exclusive_scan_total(size_, start);
  }
  const std::int64_t total = entries();
  SAGA_REQUIRE(cap >= total, "DCSR defragment: capacity {} below the {} entries held", cap, total);
  Array<index_t> col(static_cast<std::size_t>(cap), s, "DCSR column indices");
  Array<double> val(static_cast<std::size_t>(cap), s, "DCSR values");
  compact_into(functors::DcsrCompact{table(seg_, size_, nseg_, pitch_), col_.data(), val_.data(), start.data(),
                                     col.data(), val.data(), nullptr});
  parallel_for(s, rows_, functors::DcsrOneSegment{table(seg_, size_, nseg_, pitch_), start.data()});
  segments_ = rows_;
  col_ = std::move(col);
  val_ = std::move(val);
  set_cursor(total);
  // In row order the new starts are a CSR row_ptr (total appended by the scan).
  set_compact(params_.order_by_length && rows_ > 1 ? Array<offset_t>() : std::move(start));
}

double DcsrMatrix::mean_run_length() const {
  return segments_ > 0 ? static_cast<double>(entries_) / static_cast<double>(segments_) : 0.0;
}

void DcsrMatrix::compact_into(const functors::DcsrCompact& f) const {
  if (space() == Space::device) SAGA_DEVICE_CALL(return cuda::dcsr_compact(f, rows_, entries_, mean_run_length()));
  parallel_for(Space::host, rows_, f);
}

CsrMatrix DcsrMatrix::to_csr() const {
  const Space s = space();
  Array<offset_t> rp(static_cast<std::size_t>(rows_) + 1, s, "CSR row_ptr");
  exclusive_scan_total(size_, rp);
  const offset_t nnz = rp.get(rows_);
  Array<index_t> col(nnz, s, "CSR col"), row(sorted_ ? 0 : nnz, s, "COO row");
  Array<double> val(nnz, s, "CSR val");
  compact_into(functors::DcsrCompact{table(seg_, size_, nseg_, pitch_), col_.data(), val_.data(), rp.data(),
                                     col.data(), val.data(), sorted_ ? nullptr : row.data()});
  if (sorted_) return CsrMatrix(rows_, cols_, std::move(rp), std::move(col), std::move(val));
  // Rows hold insertion order and maybe repeated columns: sort and sum them.
  CooMatrix coo{rows_, cols_, std::move(row), std::move(col), std::move(val)};
  return coo_to_csr(coo);
}

DcsrMatrix DcsrMatrix::to(Space dst) const {
  DcsrMatrix D;
  D.rows_ = rows_;
  D.cols_ = cols_;
  D.params_ = params_;
  D.slack_ = slack_;
  D.pitch_ = pitch_;
  D.col_ = col_.to(dst, "DCSR column indices");
  D.val_ = val_.to(dst, "DCSR values");
  D.seg_ = seg_.to(dst, "DCSR segment table");
  D.size_ = size_.to(dst, "DCSR row sizes");
  D.nseg_ = nseg_.to(dst, "DCSR row segment counts");
  D.cursor_ = cursor_.to(dst, "DCSR allocation cursor");
  D.entries_ = entries_;
  D.segments_ = segments_;
  D.sorted_ = sorted_;
  if (compact_ && row_ptr_.empty())
    D.set_compact_from_table();
  else if (compact_)
    D.set_compact(row_ptr_.to(dst, "DCSR row_ptr"));
  return D;
}

DcsrMatrix::PassResult DcsrMatrix::insert_pass(const CsrMatrix& batch, Array<std::int32_t>& pending,
                                               DcsrDuplicates mode, double slack) {
  const Space s = space();
  Array<offset_t> found(batch.nnz(), s, "DCSR insert positions");
  Array<std::int32_t> fresh = Array<std::int32_t>::zeros(rows_, s, "DCSR new entries per row");
  Array<std::int32_t> updated = Array<std::int32_t>::zeros(rows_, s, "DCSR updated per row");
  Array<std::int32_t> opened = Array<std::int32_t>::zeros(rows_, s, "DCSR segments opened per row");
  const int m = mode == DcsrDuplicates::keep  ? functors::DcsrInsertRow::keep
                : mode == DcsrDuplicates::add ? functors::DcsrInsertRow::add
                                              : functors::DcsrInsertRow::replace;
  parallel_for(s, rows_,
               functors::DcsrInsertRow{table(seg_, size_, nseg_, pitch_), col_.data(), val_.data(), cursor_.data(),
                                       capacity(), params_.segments, static_cast<offset_t>(std::ceil(slack)), m,
                                       batch.row_ptr().data(), batch.col().data(), batch.val().data(), found.data(),
                                       pending.data(), fresh.data(), updated.data(), opened.data()});
  PassResult r;
  // Rows left over: pending 1 (k segments) or 2 (no room), counted on the
  // device only when there are any (one scan otherwise).
  if (count_flagged(pending) > 0) {
    Array<std::int32_t> left(rows_, s, "DCSR rows left"), need(rows_, s, "DCSR entries left"),
        full(rows_, s, "DCSR rows without room");
    parallel_for(s, rows_, functors::DcsrRowsLeft{pending.data(), fresh.data(), left.data(), need.data(), full.data()});
    r.left = count_flagged(left);
    r.need = total(need);
    r.full = count_flagged(full) > 0;
  }
  r.inserted = total(fresh) - r.need;
  r.updated = total(updated);
  r.new_segments = total(opened);
  // A failed allocation may have moved the cursor past the end.
  if (cursor() > capacity()) set_cursor(capacity());
  return r;
}

DcsrUpdateStats DcsrMatrix::insert(const CooMatrix& batch) {
  SAGA_REQUIRE(batch.rows == rows_ && batch.cols == cols_, "DCSR insert: a {}x{} batch for a {}x{} matrix",
               batch.rows, batch.cols, rows_, cols_);
  SAGA_REQUIRE(batch.space() == space() || batch.entries() == 0, "DCSR insert: the batch lives on the {}, the matrix on the {}",
               to_string(batch.space()), to_string(space()));
  if (batch.entries() == 0) return {};
  const CsrMatrix B = coo_to_csr(batch);  // checks the indices, groups by row, sums repeats
  return insert_rows(B, params_.duplicates);
}

DcsrUpdateStats DcsrMatrix::add(double alpha, const CsrMatrix& B) {
  SAGA_REQUIRE(B.rows() == rows_ && B.cols() == cols_, "DCSR add: a {}x{} matrix to a {}x{} one", B.rows(), B.cols(),
               rows_, cols_);
  SAGA_REQUIRE(B.space() == space(), "DCSR add: B lives on the {}, the matrix on the {}", to_string(B.space()),
               to_string(space()));
  if (alpha == 1.0) return insert_rows(B, DcsrDuplicates::add);
  CsrMatrix S = B.clone();
  scale(alpha, S.mutable_val());
  return insert_rows(S, DcsrDuplicates::add);
}

DcsrUpdateStats DcsrMatrix::insert_rows(const CsrMatrix& B, DcsrDuplicates mode) {
  DcsrUpdateStats st;
  Array<std::int32_t> pending(rows_, space(), "DCSR rows to insert");
  parallel_for(space(), rows_, functors::FillInt32{pending.data(), 1});
  double slack = slack_;
  for (int attempt = 0;; ++attempt) {
    const PassResult r = insert_pass(B, pending, mode, slack);
    st.inserted += r.inserted;
    st.updated += r.updated;
    st.new_segments += r.new_segments;
    entries_ += r.inserted;
    segments_ += r.new_segments;
    if (r.inserted > 0) {
      sorted_ = false;
      if (compact_) set_compact({});
    }
    if (r.left == 0) break;
    // Rows left: a row reached k segments or the buffer is full. Compact
    // (every row one segment, no slack) and grow the buffer when it was full.
    const std::int64_t held = entries();
    const std::int64_t with_slack = held + r.need + r.left * static_cast<std::int64_t>(std::ceil(slack));
    std::int64_t cap = capacity();
    if (r.full || with_slack > cap) {
      if (held + r.need > limit() || attempt >= 2)
        throw InputError(fmt::format(
            "DCSR insert: {} new entries in {} rows do not fit: the matrix holds {} entries and max_entries is {} "
            "(the other rows of the batch were inserted; raise max_entries)",
            r.need, r.left, held, limit()));
      cap = std::min(limit(), std::max(with_slack, static_cast<std::int64_t>(std::ceil(capacity() * 2.0))));
      if (cap < with_slack) slack = 0;  // at the limit: no slack for the rows left
      st.grew = true;
    }
    defragment(cap);
    ++st.defragmentations;
  }
  return st;
}

DcsrUpdateStats DcsrMatrix::erase(const CooMatrix& positions) {
  SAGA_REQUIRE(positions.rows == rows_ && positions.cols == cols_, "DCSR erase: {}x{} positions for a {}x{} matrix",
               positions.rows, positions.cols, rows_, cols_);
  DcsrUpdateStats st;
  if (positions.entries() == 0) return st;
  const CsrMatrix P = coo_to_csr(positions);
  Array<std::int32_t> erased(rows_, space(), "DCSR erased per row");
  parallel_for(space(), rows_,
               functors::DcsrEraseRow{table(seg_, size_, nseg_, pitch_), col_.data(), val_.data(), P.row_ptr().data(),
                                      P.col().data(), erased.data()});
  st.erased = total(erased);
  entries_ -= st.erased;
  if (st.erased > 0 && compact_) set_compact({});
  return st;
}

void DcsrMatrix::spmv(double alpha, const Vector& x, double beta, Vector& y) const {
  SAGA_REQUIRE(x.size() == static_cast<std::size_t>(cols_) && y.size() == static_cast<std::size_t>(rows_),
               "DCSR SpMV: x has {} entries for {} columns, y {} for {} rows", x.size(), cols_, y.size(), rows_);
  SAGA_REQUIRE(x.space() == space() && y.space() == space(), "DCSR SpMV: vectors and matrix in different spaces");
  const functors::DcsrSpmvRow f{table(seg_, size_, nseg_, pitch_), col_.data(), val_.data(), x.data(), y.data(),
                                alpha, beta};
  if (space() == Space::device) {
    if (compact_) {  // CSR arrays: saga's binned CSR SpMV
      const cuda::CsrRef ref{rows_, cols_, static_cast<offset_t>(entries_), compact_row_ptr().data(), col_.data(),
                             val_.data()};
      SAGA_DEVICE_CALL(if (!spmv_plan_) spmv_plan_ = cuda::spmv_binned_plan(ref);
                       cuda::spmv_binned(alpha, ref, spmv_plan_.get(), x, beta, y));
      return;
    }
    SAGA_DEVICE_CALL(cuda::dcsr_spmv(f, rows_, entries_, mean_run_length(), spmv_row_lists_));
    return;
  }
  parallel_for(Space::host, rows_, f);
}

}  // namespace saga
