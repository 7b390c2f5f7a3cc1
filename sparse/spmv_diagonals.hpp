#pragma once
// The diagonal copy of a stencil matrix (the binned SpMV's option
// `diagonals`, sparse/cuda/spmv_binned.cu; docs/spmv.md "Diagonal copies").
//
// A finite-difference matrix holds its entries on a few diagonals: every row r
// has its columns at r + o for o in one short list of offsets (3D 7-point: 0,
// ±1, ±N, ±N²), boundary rows a subset. Stored diagonal by diagonal — value
// (j, r) at j n + r, a pad where row r has no entry at offset o_j — the product
// reads no column index and no row pointer: 4 bytes an entry in float where
// CSR reads 8 (value and column) and 4 a row, and its loads of A and of x are
// coalesced. Each row sums its entries in ascending offset order, which is
// CSR's order where the row's columns are sorted, and skips the pads: every
// product equals the thread bin's bit for bit. The functions here are the rules
// (which matrices take the copy, what it costs) and a host model of the
// product, shared by the kernels and the host tests.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/hd.hpp"
#include "core/types.hpp"
#include "sparse/spmv_row_blocks.hpp"

namespace saga {

struct SpmvDiagonals {
  static constexpr int max_diagonals = 32;  // the offsets a matrix may use (3D 27-point: 27)
  // The copy's entries over the matrix's: at most 1 / min_fill (boundary rows'
  // pads; 3D 7-point N=64 has 1.016).
  static constexpr double min_fill = 0.85;
  // Fewer warps of rows an SM: each thread's chain of loads is exposed (level
  // 1 of 3D 27-pt N=128, 79507 rows of 27 on 132 SMs, 19 warps an SM: 18.9 µs
  // against 14.8 in the vector rows, H200), and the bins serve it; as the
  // sliced rows' bound (SpmvSliced::min_warps_per_sm).
  static constexpr int min_warps_per_sm = 20;
};

// Whether a matrix of `rows` rows and `nnz` entries whose longest row has
// max_row entries may take a diagonal copy of max_row diagonals on a GPU of
// `sms` multiprocessors: the pattern
// must still be checked (every entry on one of a probe row's offsets, the
// columns ascending within each row).
inline bool spmv_diagonals_fit(std::int64_t rows, std::int64_t nnz, std::int64_t max_row, int sms) {
  if (rows < std::int64_t{32} * SpmvDiagonals::min_warps_per_sm * sms) return false;
  if (max_row <= 0 || max_row > SpmvDiagonals::max_diagonals) return false;
  return static_cast<double>(nnz) >= SpmvDiagonals::min_fill * static_cast<double>(rows) * static_cast<double>(max_row);
}

// The probe row whose columns give the offsets: the first row from the middle
// on that holds max_row entries (an interior point of a grid: the middle row
// itself may lie on a face, x = 0), looked for among `window` rows whose row
// pointers ptr[0 .. window] are given. -1 where none does.
inline std::int64_t spmv_diagonals_probe(const offset_t* ptr, std::int64_t window, std::int64_t max_row) {
  for (std::int64_t i = 0; i < window; ++i)
    if (static_cast<std::int64_t>(ptr[i + 1] - ptr[i]) == max_row) return i;
  return -1;
}
// Rows the probe looks through from the middle (a 3D grid's next interior
// point is N + 1 rows on: enough up to N = 4095).
constexpr std::int64_t kSpmvDiagonalsProbeWindow = 4096;
// The probe's window of a matrix of `rows` rows: [first, first + count).
struct SpmvDiagonalsWindow {
  std::int64_t first, count;
};
SAGA_HD inline SpmvDiagonalsWindow spmv_diagonals_window(std::int64_t rows) {
  const std::int64_t first = rows / 2, rest = rows - first;
  return {first, rest < kSpmvDiagonalsProbeWindow ? rest : kSpmvDiagonalsProbeWindow};
}

// The offsets of probe row r (its columns minus r) into offset[0 .. its
// length); false where they are not strictly ascending (not the order the
// products sum in). The device probe (diagonal_probe_kernel) and the host's
// spmv_diagonals_of share it.
SAGA_HD inline bool spmv_diagonals_offsets(std::int64_t r, const offset_t* row_ptr, const index_t* col,
                                           index_t* offset) {
  bool ascending = true;
  for (offset_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
    const std::int64_t j = k - row_ptr[r];
    offset[j] = static_cast<index_t>(col[k] - r);
    ascending = ascending && (j == 0 || offset[j] > offset[j - 1]);
  }
  return ascending;
}

// The copy's bytes: a value of `value_bytes` for every diagonal of every row.
inline std::int64_t spmv_diagonals_bytes(std::int64_t rows, int diagonals, int value_bytes) {
  return rows * diagonals * value_bytes;
}

// The pad: a quiet NaN, never a stored value (a matrix holding a NaN takes no
// copy), so that a row skips it with one comparison.
template <class Value>
SAGA_HD inline Value spmv_diagonal_pad() {
  return static_cast<Value>(NAN);
}

// Row r of a CSR matrix laid on the diagonals `offset` (sorted, ascending):
// writes dst[j * stride] for every diagonal j (the value, or the pad) and
// returns false where the row does not fit (an entry off the diagonals, columns
// not strictly ascending, a NaN value). With val and dst null it checks the
// pattern alone. The device kernels and the host tests share it.
template <class Value>
SAGA_HD inline bool spmv_diagonal_row(std::int64_t r, const offset_t* row_ptr, const index_t* col, const Value* val,
                              const index_t* offset, int diagonals, Value* dst, std::int64_t stride) {
  offset_t k = row_ptr[r];
  const offset_t end = row_ptr[r + 1];
  bool fits = true;
  for (int j = 0; j < diagonals; ++j) {
    Value v = spmv_diagonal_pad<Value>();
    if (k < end && static_cast<std::int64_t>(col[k]) - r == offset[j]) {
      if (val) {  // (null: the pattern alone is checked)
        v = val[k];
        fits = fits && !(v != v);  // a NaN would read as a pad
      }
      ++k;
    }
    if (dst) dst[j * stride] = v;
  }
  return fits && k == end;  // every entry met, in ascending column order
}

// The diagonals' offsets of a host CSR matrix as the device finds them
// (make_diagonal_rows, sparse/cuda/spmv_binned.cu): the rule, the probe row's
// offsets, then every row checked; empty where the matrix takes no copy. For
// tools and tests without a GPU.
inline std::vector<index_t> spmv_diagonals_of(std::int64_t rows, std::int64_t nnz, const offset_t* row_ptr,
                                              const index_t* col, std::int64_t max_row, int sms) {
  if (!spmv_diagonals_fit(rows, nnz, max_row, sms)) return {};
  const SpmvDiagonalsWindow w = spmv_diagonals_window(rows);
  const std::int64_t at = spmv_diagonals_probe(row_ptr + w.first, w.count, max_row);
  if (at < 0) return {};
  std::vector<index_t> offset(static_cast<std::size_t>(max_row));
  if (!spmv_diagonals_offsets(w.first + at, row_ptr, col, offset.data())) return {};
  const int diagonals = static_cast<int>(offset.size());
  for (std::int64_t r = 0; r < rows; ++r)
    if (!spmv_diagonal_row<float>(r, row_ptr, col, nullptr, offset.data(), diagonals, nullptr, rows)) return {};
  return offset;
}

// The route of a matrix whose pattern lies on the diagonals but that has no
// copy (the cycle had no room for it): short rows keep the thread bin, which
// sums each row as the copy does, rather than the small matrices' vector rows,
// so that two solvers whose room differs give the same bits. The device's
// products (run_binned) and the host model (tools/gather_model.cpp) share it.
inline void spmv_route_without_diagonal_copy(SpmvRouteOptions& o, std::int64_t max_row) {
  if (max_row <= o.thread_max_row) o.small_vector = false;
}

// The host model of the kernel's product for row r: sum of v (j, r) x[r + o_j]
// over the diagonals in order, pads skipped — the thread bin's sum of the
// row's entries in CSR order, the same arithmetic.
template <class Value, class X>
inline double spmv_diagonal_row_sum(std::int64_t r, std::int64_t rows, const Value* diag, const index_t* offset,
                                    int diagonals, X&& x) {
  double s = 0.0;
  for (int j = 0; j < diagonals; ++j) {
    const Value a = diag[j * rows + r];
    if (a == a) s += a * x(r + offset[j]);
  }
  return s;
}

}  // namespace saga
