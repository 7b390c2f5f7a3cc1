#pragma once
// Per-row functors of DcsrMatrix (sparse/dcsr.cpp), shared by both backends
// through parallel_for. A row's entries are its segments' used parts, in
// segment order: segment s of row i is [seg[s*pitch + 2i], seg[s*pitch + 2i + 1])
// and the row's `size` entries fill them front to back.
#include <cstdint>

#include "core/hd.hpp"
#include "core/types.hpp"
#include "sparse/sorted_row.hpp"

namespace saga::functors {

// Bump allocation of n entries on the shared cursor. On the device the lanes
// of a warp that allocate together make one atomic add and take consecutive
// ranges in lane order: the new segments of neighbouring rows lie side by side,
// so a later SpMV reads them coalesced as it reads CSR rows (docs/dcsr.md).
SAGA_HD inline unsigned long long dcsr_bump(unsigned long long* cursor, unsigned long long n) {
#ifdef __CUDA_ARCH__
  const unsigned mask = __activemask();
  const int lane = static_cast<int>(threadIdx.x % 32);
  unsigned long long before = 0, sum = 0;  // this lane's offset, the warp's total
  for (int src = 0; src < 32; ++src) {
    const unsigned long long v = __shfl_sync(mask, n, src);  // undefined for inactive src: skipped
    if ((mask >> src) & 1u) {
      sum += v;
      if (src < lane) before += v;
    }
  }
  const int leader = __ffs(static_cast<int>(mask)) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(cursor, sum);
  return __shfl_sync(mask, base, leader) + before;
#else
  return __atomic_fetch_add(cursor, n, __ATOMIC_RELAXED);
#endif
}

struct DcsrRows {  // the segment table of a matrix
  offset_t* seg;
  offset_t* size;
  std::int32_t* nseg;
  std::int64_t pitch;
  SAGA_HD offset_t& start(std::int64_t i, int s) const { return seg[s * pitch + 2 * i]; }
  SAGA_HD offset_t& end(std::int64_t i, int s) const { return seg[s * pitch + 2 * i + 1]; }
  // f(a, n) for each used run [a, a + n) of row i's segments, in order; f
  // returns false to stop early.
  template <class F>
  SAGA_HD void for_each_run(std::int64_t i, F&& f) const {
    offset_t left = size[i];
    for (int s = 0; s < nseg[i] && left > 0; ++s) {
      const offset_t a = start(i, s);
      offset_t n = end(i, s) - a;
      if (n > left) n = left;
      if (!f(a, n)) return;
      left -= n;
    }
  }
  // Physical position of the entry at logical position w of row i.
  SAGA_HD offset_t locate(std::int64_t i, offset_t w) const {
    for (int s = 0;; ++s) {
      const offset_t len = end(i, s) - start(i, s);
      if (w < len) return start(i, s) + w;
      w -= len;
    }
  }
};

// Row i of a CSR matrix as row i's only segment, without slack.
// Only slot 0 is written: slots at or past a row's segment count are never
// read (every reader stops at nseg[i]), so a conversion moves no bytes for them.
struct DcsrFromCsr {
  DcsrRows t;
  const offset_t* rp;
  SAGA_HD void operator()(std::int64_t i) const {
    t.start(i, 0) = rp[i];
    t.end(i, 0) = rp[i + 1];
    t.size[i] = rp[i + 1] - rp[i];
    t.nseg[i] = t.size[i] > 0 ? 1 : 0;
  }
};

// The row_ptr of a compact DCSR (every row one run, in row order): row i's
// first segment starts it, the entry count ends it.
struct DcsrCompactRowPtr {
  DcsrRows t;
  index_t rows;
  offset_t entries;
  offset_t* rp;
  SAGA_HD void operator()(std::int64_t i) const { rp[i] = i < rows ? t.start(i, 0) : entries; }
};

// The bump allocator's cursor set on the device (a kernel, not a host copy:
// a copy from pageable host memory waits for the stream first).
struct DcsrSetCursor {
  unsigned long long* cursor;
  unsigned long long value;
  SAGA_HD void operator()(std::int64_t) const { *cursor = value; }
};

// Blank rows: row i's first segment is [i w, (i+1) w).
struct DcsrBlank {
  DcsrRows t;
  offset_t width;
  SAGA_HD void operator()(std::int64_t i) const {  // slot 0 only, as DcsrFromCsr
    t.start(i, 0) = static_cast<offset_t>(i * width);
    t.end(i, 0) = static_cast<offset_t>((i + 1) * width);
    t.size[i] = 0;
    t.nseg[i] = width > 0 ? 1 : 0;
  }
};

// Copies row i's entries to [start[i], start[i] + size) of new buffers (no
// comparisons, no sort): defragmentation and to_csr. The host runs the row
// loop below; the device kernels (sparse/cuda/dcsr_cuda.cu) give a row V
// lanes, or a CTA, that call move() on consecutive entries.
struct DcsrCompact {
  DcsrRows t;
  const index_t* col;
  const double* val;
  const offset_t* start;
  index_t* out_col;
  double* out_val;
  index_t* out_row;  // optional: the row index of every entry (COO)
  // Entry `from` of row i to position `to` of the new buffers.
  SAGA_HD void move(std::int64_t i, offset_t from, offset_t to) const {
    out_col[to] = col[from];
    out_val[to] = val[from];
    if (out_row) out_row[to] = static_cast<index_t>(i);
  }
  SAGA_HD void operator()(std::int64_t i) const {
    offset_t w = start[i];
    t.for_each_run(i, [&](offset_t a, offset_t n) {
      for (offset_t q = 0; q < n; ++q) move(i, a + q, w + q);
      w += n;
      return true;
    });
  }
};

// After a DcsrCompact into new buffers: row i is the one segment
// [start[i], start[i] + size). The segments left behind are cleared, so that
// the table is the same whatever order the bump allocator placed them in
// (host and device agree bitwise).
struct DcsrOneSegment {
  DcsrRows t;
  const offset_t* start;
  SAGA_HD void operator()(std::int64_t i) const {
    for (int s = 1; s < t.nseg[i]; ++s) t.start(i, s) = t.end(i, s) = 0;
    t.start(i, 0) = start[i];
    t.end(i, 0) = start[i] + t.size[i];
    t.nseg[i] = t.size[i] > 0 ? 1 : 0;
  }
};

// Inserts row i of a batch (a CSR with unique columns per row) into row i of
// the matrix, all or nothing. pending[i] on entry: 1 to insert, 0 to skip; on
// exit: 0 done, 1 the row would need more than k segments, 2 the buffer had no
// room. fresh[i]: the entries the row appends (also when it could not).
struct DcsrInsertRow {
  enum Mode : int { keep = 0, add = 1, replace = 2 };
  DcsrRows t;
  index_t* col;
  double* val;
  unsigned long long* cursor;
  std::int64_t capacity;
  int k;
  offset_t slack;
  int mode;
  const offset_t* brp;
  const index_t* bcol;
  const double* bval;
  offset_t* found;            // per batch entry: physical position of its column in the row, or -1
  std::int32_t* pending;
  std::int32_t* fresh;
  std::int32_t* updated;
  std::int32_t* opened;
  SAGA_HD void operator()(std::int64_t i) const {
    if (!pending[i]) return;
    const offset_t b0 = brp[i], b1 = brp[i + 1];
    fresh[i] = updated[i] = opened[i] = 0;
    if (b0 == b1) {
      pending[i] = 0;
      return;
    }
    const offset_t sz = t.size[i];
    const int ns = t.nseg[i];
    // 1. Which batch columns the row holds already (not with `keep`).
    std::int32_t n_new = 0, n_found = 0;
    for (offset_t b = b0; b < b1; ++b) {
      offset_t at = -1;
      if (mode != keep)
        t.for_each_run(i, [&](offset_t a, offset_t n) {
          for (offset_t q = 0; q < n; ++q)
            if (col[a + q] == bcol[b]) {
              at = a + q;
              return false;
            }
          return true;
        });
      found[b] = at;
      if (at < 0)
        ++n_new;
      else
        ++n_found;
    }
    fresh[i] = n_new;
    // 2. Room: the segments' spare entries after the row's end (erasures may
    // leave more than the last segment's tail), then a new segment.
    offset_t held = 0;
    for (int s = 0; s < ns; ++s) held += t.end(i, s) - t.start(i, s);
    const offset_t spare = held - sz;
    offset_t seg_start = 0, seg_len = 0;
    if (n_new > spare) {
      if (ns == k) {
        pending[i] = 1;
        return;
      }
      seg_len = n_new - spare + slack;
      const unsigned long long at = dcsr_bump(cursor, static_cast<unsigned long long>(seg_len));
      if (at + static_cast<unsigned long long>(seg_len) > static_cast<unsigned long long>(capacity)) {
        pending[i] = 2;
        return;
      }
      seg_start = static_cast<offset_t>(at);
    }
    // 3. Write: update the entries found, append the others.
    offset_t w = 0;  // appended so far
    for (offset_t b = b0; b < b1; ++b) {
      if (found[b] >= 0) {
        if (mode == add)
          val[found[b]] += bval[b];
        else
          val[found[b]] = bval[b];
        continue;
      }
      const offset_t at = w < spare ? t.locate(i, sz + w) : seg_start + (w - spare);
      col[at] = bcol[b];
      val[at] = bval[b];
      ++w;
    }
    if (seg_len > 0) {
      t.start(i, ns) = seg_start;
      t.end(i, ns) = seg_start + seg_len;
      t.nseg[i] = ns + 1;
      opened[i] = 1;
    }
    t.size[i] = sz + n_new;
    updated[i] = n_found;
    pending[i] = 0;
  }
};

// The rows an insertion pass left (pending 1: k segments, 2: no room): per
// row a flag, the entries it still needs, and whether the buffer was full
// (counted on the device: no read-back of the per-row arrays).
struct DcsrRowsLeft {
  const std::int32_t* pending;
  const std::int32_t* fresh;
  std::int32_t* left;
  std::int32_t* need;
  std::int32_t* full;
  SAGA_HD void operator()(std::int64_t i) const {
    left[i] = pending[i] != 0;
    need[i] = pending[i] != 0 ? fresh[i] : 0;
    full[i] = pending[i] == 2;
  }
};

// Removes from row i every entry whose column is in row i of `positions` (a
// CSR with sorted columns), keeping the order of the others.
struct DcsrEraseRow {
  DcsrRows t;
  index_t* col;
  double* val;
  const offset_t* prp;
  const index_t* pcol;
  std::int32_t* erased;
  SAGA_HD void operator()(std::int64_t i) const {
    erased[i] = 0;
    const offset_t p0 = prp[i], p1 = prp[i + 1];
    if (p0 == p1) return;
    const offset_t sz = t.size[i];
    offset_t w = 0;
    for (offset_t r = 0; r < sz; ++r) {
      const offset_t from = t.locate(i, r);
      const index_t c = col[from];
      const offset_t lo = first_column_at_least(pcol, p0, p1, c);  // in the sorted positions
      if (lo < p1 && pcol[lo] == c) continue;
      if (w != r) {
        const offset_t to = t.locate(i, w);
        col[to] = c;
        val[to] = val[from];
      }
      ++w;
    }
    erased[i] = sz - w;
    t.size[i] = w;
  }
};

// y[i] = alpha (A x)_i + beta y[i] over row i's segments (beta = 0 ignores y).
struct DcsrSpmvRow {
  DcsrRows t;
  const index_t* col;
  const double* val;
  const double* x;
  double* y;
  double alpha, beta;
  SAGA_HD void operator()(std::int64_t i) const {
    double s = 0.0;
    t.for_each_run(i, [&](offset_t a, offset_t n) {
      for (offset_t e = a; e < a + n; ++e) s += val[e] * x[col[e]];
      return true;
    });
    y[i] = beta == 0.0 ? alpha * s : alpha * s + beta * y[i];
  }
};

// start[perm[j]] = sorted_start[j] (defragmentation ordered by row length).
struct DcsrScatterStarts {
  const index_t* perm;
  const offset_t* sorted_start;
  offset_t* start;
  SAGA_HD void operator()(std::int64_t j) const { start[perm[j]] = sorted_start[j]; }
};
struct DcsrGatherSizes {
  const index_t* perm;
  const offset_t* size;
  offset_t* out;
  SAGA_HD void operator()(std::int64_t j) const { out[j] = size[perm[j]]; }
};


}  // namespace saga::functors
