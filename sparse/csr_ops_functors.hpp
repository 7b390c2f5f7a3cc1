#pragma once
// Per-row functors of sparse/csr_ops.cpp, shared by both backends.
#include <cmath>

#include "core/hd.hpp"
#include "core/splitmix.hpp"
#include "core/types.hpp"
#include "sparse/sorted_row.hpp"

namespace saga::functors {

// V: the type the values are stored in (double, or float for a matrix stored
// in single precision, CsrMatrix::store_values_single).
template <class V>
struct ExtractDiagonal {
  const offset_t* rp;
  const index_t* ci;
  const V* v;
  double* d;
  std::int32_t* bad;    // optional: 1 where the diagonal is missing / not positive / not finite
  bool invert = false;  // d = 1 / a_ii (inverse_diagonal: one pass)
  SAGA_HD void operator()(std::int64_t i) const {
    const offset_t lo = first_column_at_least(ci, rp[i], rp[i + 1], static_cast<index_t>(i));
    double x = 0.0;
    if (lo < rp[i + 1] && ci[lo] == i) x = v[lo];
    d[i] = invert ? 1.0 / x : x;
    if (bad) bad[i] = !(x > 0.0) || !(x - x == 0.0);  // x - x is NaN for Inf and NaN
  }
};

// bad[i] = 1 where row i breaks a CSR invariant: its bounds decrease or leave
// [0, nnz), or a column is outside [0, cols) or not above the previous one
// (CsrMatrix::validate, on whichever backend holds the matrix).
struct CheckCsrRow {
  const offset_t* rp;
  const index_t* ci;
  index_t cols;
  offset_t nnz;
  std::int32_t* bad;
  SAGA_HD void operator()(std::int64_t i) const {
    const offset_t a = rp[i], b = rp[i + 1];
    bool ok = a >= 0 && a <= b && b <= nnz;
    for (offset_t k = a; ok && k < b; ++k) {
      const index_t c = ci[k];
      ok = c >= 0 && c < cols && (k == a || ci[k - 1] < c);
    }
    bad[i] = !ok;
  }
};

// flags[i] = 1 where row i of A and of B differ in pattern (same shapes).
struct PatternDiffers {
  const offset_t* arp;
  const offset_t* brp;
  const index_t* acol;
  const index_t* bcol;
  std::int32_t* flags;
  SAGA_HD void operator()(std::int64_t i) const {
    std::int32_t d = arp[i] != brp[i] || arp[i + 1] != brp[i + 1];
    for (offset_t k = arp[i]; !d && k < arp[i + 1]; ++k) d = acol[k] != bcol[k];
    flags[i] = d;
  }
};

// a[i] = value (an int32 array set to one value).
struct FillInt32 {
  std::int32_t* a;
  std::int32_t value;
  SAGA_HD void operator()(std::int64_t i) const { a[i] = value; }
};

// out[i] = in[i] as a 32-bit index; bad[i] = 1 where in[i] is outside [lo, hi]
// (64-bit CSR arrays narrowed to saga's 32-bit ones).
struct NarrowIndex {
  const std::int64_t* in;
  std::int32_t* out;
  std::int32_t* bad;
  std::int64_t lo, hi;
  SAGA_HD void operator()(std::int64_t i) const {
    const std::int64_t v = in[i];
    bad[i] = v < lo || v > hi;
    out[i] = static_cast<std::int32_t>(v);
  }
};

struct WidenIndex {
  const std::int32_t* in;
  std::int64_t* out;
  SAGA_HD void operator()(std::int64_t i) const { out[i] = in[i]; }
};

// u_i = scale[g] e[g], g = agg[i] (0 where g < 0): T e for a tentative
// prolongator of one column per aggregate (spmv_smoothed_prolongation).
struct GatherAggregated {
  const index_t* agg;
  const double *scale, *e;
  double* u;
  SAGA_HD void operator()(std::int64_t i) const {
    const index_t g = agg[i];
    u[i] = g < 0 ? 0.0 : scale[g] * e[g];
  }
};

struct Reciprocal {
  double* d;
  SAGA_HD void operator()(std::int64_t i) const { d[i] = 1.0 / d[i]; }
};

struct ScaleRows {
  const offset_t* rp;
  double* v;
  const double* d;
  SAGA_HD void operator()(std::int64_t i) const {
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) v[k] *= d[i];
  }
};

// d[i] = Σ_j |a_ij| (L1-Jacobi diagonal, Gershgorin bounds).
template <class V>
struct RowAbsSums {
  const offset_t* rp;
  const V* v;
  double* d;
  SAGA_HD void operator()(std::int64_t i) const {
    double s = 0.0;
    for (offset_t k = rp[i]; k < rp[i + 1]; ++k) {
      const double a = v[k];
      s += a < 0 ? -a : a;
    }
    d[i] = s;
  }
};

// out[i] = in[i] converted (rounded to nearest for double -> float): a
// matrix's values stored in the other precision.
template <class From, class To>
struct ConvertValues {
  const From* in;
  To* out;
  SAGA_HD void operator()(std::int64_t i) const { out[i] = static_cast<To>(in[i]); }
};
using ValuesToSingle = ConvertValues<double, float>;
using ValuesToDouble = ConvertValues<float, double>;

// Merge of two sorted rows: counts (out == nullptr) or writes alpha a + beta b.
struct AddRows {
  const offset_t *arp, *brp;
  const index_t *aci, *bci;
  const double *av, *bv;
  double alpha, beta;
  offset_t* count;         // count pass
  const offset_t* out_rp;  // fill pass
  index_t* out_col;
  double* out_val;
  SAGA_HD void operator()(std::int64_t i) const {
    offset_t ka = arp[i], kb = brp[i];
    const offset_t ea = arp[i + 1], eb = brp[i + 1];
    offset_t out = out_rp ? out_rp[i] : 0, n = 0;
    while (ka < ea || kb < eb) {
      const index_t ca = ka < ea ? aci[ka] : 0x7fffffff, cb = kb < eb ? bci[kb] : 0x7fffffff;
      const index_t c = ca < cb ? ca : cb;
      double x = 0.0;
      if (ca == c) x += alpha * av[ka++];
      if (cb == c) x += beta * bv[kb++];
      if (out_rp) {
        out_col[out + n] = c;
        out_val[out + n] = x;
      }
      ++n;
    }
    if (!out_rp) count[i] = n;
  }
};

// x[i] = output i+1 of splitmix64 seeded with `seed`, as a double in [0, 1):
// the generator's state after i+1 steps is seed + (i+1)·γ, so every entry is
// computed independently and the vector equals the sequential stream bitwise.
struct RandomUniform {
  double* x;
  std::uint64_t seed;
  SAGA_HD void operator()(std::int64_t i) const {
    x[i] = unit_uniform(splitmix64_at(seed, static_cast<std::uint64_t>(i + 1)));
  }
};

// Row blocks and their stacking (sparse/csr_ops.cpp: row_block, stack_rows).
// dst[i] = src[i] - src[0] + add for i in [0, n]: row pointers moved to start
// at `add` (src points at the block's first row pointer).
struct RebaseRowPtr {
  const offset_t* src;
  offset_t* dst;
  offset_t add;
  SAGA_HD void operator()(std::int64_t i) const { dst[i] = src[i] - src[0] + add; }
};
// dst[k] = src[k] - shift (columns of a block moved to start at 0).
struct ShiftColumns {
  const index_t* src;
  index_t* dst;
  index_t shift;
  SAGA_HD void operator()(std::int64_t k) const { dst[k] = src[k] - shift; }
};
template <class V>
struct CopyValuesOf {
  const V* src;
  V* dst;
  SAGA_HD void operator()(std::int64_t k) const { dst[k] = src[k]; }
};
using CopyValues = CopyValuesOf<double>;
using CopySingleValues = CopyValuesOf<float>;
// span[0] = min, span[1] = max over rows r0 + i (i in [0, n)) of their first
// and last columns (sorted rows): atomic min / max of integers, so the result
// does not depend on the order (span starts at {0x7fffffff, -1}).
SAGA_HD inline void atomic_min_index(index_t* p, index_t v) {
#ifdef __CUDA_ARCH__
  atomicMin(p, v);
#else
  index_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}
SAGA_HD inline void atomic_max_index(index_t* p, index_t v) {
#ifdef __CUDA_ARCH__
  atomicMax(p, v);
#else
  index_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v > old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}
SAGA_HD inline void atomic_add_index(index_t* p, index_t v) {  // integer sums: the same in any order
#ifdef __CUDA_ARCH__
  atomicAdd(p, v);
#else
  __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}
struct RowsColumnSpan {
  const offset_t* rp;  // at the first row
  const index_t* ci;
  index_t* span;
  SAGA_HD void operator()(std::int64_t i) const {
    const offset_t b = rp[i], e = rp[i + 1];
    if (b == e) return;
    atomic_min_index(span, ci[b]);
    atomic_max_index(span + 1, ci[e - 1]);
  }
};

// The rows with an entry in columns [c0, c1) (a row's columns are sorted: one
// binary search each): span[0] = the first, span[1] = the last.
struct RowsWithColumnsIn {
  const offset_t* rp;
  const index_t* ci;
  index_t c0, c1;
  index_t* span;
  SAGA_HD void operator()(std::int64_t i) const {
    const offset_t end = rp[i + 1], lo = first_column_at_least(ci, rp[i], end, c0);
    if (lo == end || ci[lo] >= c1) return;
    atomic_min_index(span, static_cast<index_t>(i));
    atomic_max_index(span + 1, static_cast<index_t>(i));
  }
};

// Row i's entries with columns in [c0, c1), the columns shifted by -c0
// (build_csr_two_pass: counts, then fills).
template <class V>
struct ColumnBlockRows {
  const offset_t* rp;
  const index_t* ci;
  const V* v;
  index_t c0, c1;
  offset_t* count;         // count pass
  const offset_t* out_rp;  // fill pass
  index_t* out_col;
  V* out_val;
  SAGA_HD void operator()(std::int64_t i) const {
    const offset_t end = rp[i + 1], lo = first_column_at_least(ci, rp[i], end, c0);
    offset_t n = 0;
    for (offset_t k = lo; k < end && ci[k] < c1; ++k, ++n)
      if (out_rp) {
        out_col[out_rp[i] + n] = ci[k] - c0;
        out_val[out_rp[i] + n] = v[k];
      }
    if (!out_rp) count[i] = n;
  }
};

}  // namespace saga::functors
