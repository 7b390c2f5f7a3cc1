#pragma once
// Sorted slices: the binned SpMV's path for power-law matrices (a row past the
// row blocks' base units; SpmvSorted, sparse/spmv_row_blocks.hpp).
//
// The rows of at most SpmvSorted::max_row entries ("short") are sorted by
// length, longest first (ties by row), within windows of SpmvSorted::window
// rows, and each window's sorted short rows are cut into slices of 32
// positions (the last one padded with empty positions). A slice's entries are
// stored again step by step, as the sliced rows store theirs
// (spmv_sliced.cuh): entry 0 of every row in position order, then entry 1 of
// every row that has one, ... — so at step k the running rows are positions
// 0 .. c_k - 1 and a warp's loads are coalesced; the sort makes a slice's rows
// about as long as each other, so few lanes idle. Rows of max_row + 1 .. chunk
// entries (spmv_sorted_chunk, or the option sorted_chunk) are listed ("mid": a
// warp each), longer ones split in chunks of `chunk` entries (a CTA each; the
// one that completes a row adds its chunk sums in chunk order).
//
// Why: the row blocks of a power-law matrix stage every product in shared
// memory behind a CTA barrier and then sum rows of mixed lengths; here a
// thread sums its row from coalesced loads, 8 in flight, with no barrier and
// no row pointer. docs/spmv.md (fifty-seventh session) has the measurements.
#include <cub/block/block_radix_sort.cuh>
#include <cstdint>

#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/spmv_sliced.cuh"
#include "sparse/spmv_row_blocks.hpp"

namespace saga::cuda {

constexpr int kSortThreads = 256;
constexpr int kSortItems = SpmvSorted::window / kSortThreads;
static_assert(kSortThreads * kSortItems == SpmvSorted::window, "a window is one CTA's items");

// Window w's short rows, longest first (ties by row), into
// sorted[w window ...], their count into count[w] and the slices of 32 they
// fill into slices[w]. One CTA a window.
static __global__ __launch_bounds__(kSortThreads) void sorted_windows_kernel(index_t n,
                                                                             const offset_t* __restrict__ rp,
                                                                             index_t* __restrict__ sorted,
                                                                             index_t* __restrict__ count,
                                                                             index_t* __restrict__ slices) {
  using Sort = cub::BlockRadixSort<unsigned, kSortThreads, kSortItems, index_t>;
  __shared__ typename Sort::TempStorage temp;
  __shared__ int shorts;
  if (threadIdx.x == 0) shorts = 0;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * SpmvSorted::window;
  // Key: max_row - length for a short row (longest first), past every short
  // key for the others; blocked items, so a stable sort keeps ties in row order.
  constexpr unsigned kNotShort = SpmvSorted::max_row + 1;
  unsigned key[kSortItems];
  index_t row[kSortItems];
  int mine = 0;
#pragma unroll
  for (int i = 0; i < kSortItems; ++i) {
    const std::int64_t r = first + threadIdx.x * kSortItems + i;
    const offset_t len = r < n ? rp[r + 1] - rp[r] : SpmvSorted::max_row + 1;
    const bool is_short = len <= SpmvSorted::max_row;
    key[i] = is_short ? static_cast<unsigned>(SpmvSorted::max_row - len) : kNotShort;
    row[i] = static_cast<index_t>(r);
    mine += is_short;
  }
  __syncthreads();
  atomicAdd(&shorts, mine);  // an integer count: the same in any order
  Sort(temp).Sort(key, row, 0, 7);
#pragma unroll
  for (int i = 0; i < kSortItems; ++i) {
    const int at = threadIdx.x * kSortItems + i;
    if (key[i] != kNotShort) sorted[first + at] = row[i];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    count[blockIdx.x] = shorts;
    slices[blockIdx.x] = (shorts + 31) / 32;
  }
}

// The positions: window w's slices start at slice_first[w]; position p of
// them holds the window's p-th sorted short row, or nothing (row -1, length 0)
// past its count.
static __global__ void sorted_positions_kernel(index_t windows, const offset_t* __restrict__ rp,
                                               const index_t* __restrict__ sorted, const index_t* __restrict__ count,
                                               const index_t* __restrict__ slice_first,
                                               index_t* __restrict__ pos_row, unsigned* __restrict__ pos_len) {
  const std::int64_t t = global_thread();
  const std::int64_t w = t / SpmvSorted::window;
  if (w >= windows) return;
  const int i = static_cast<int>(t % SpmvSorted::window);
  const index_t slices = slice_first[w + 1] - slice_first[w];
  if (i >= 32 * slices) return;
  const std::int64_t p = std::int64_t{32} * slice_first[w] + i;
  if (i < count[w]) {
    const index_t r = sorted[t];
    pos_row[p] = r;
    pos_len[p] = static_cast<unsigned>(rp[r + 1] - rp[r]);
  } else {
    pos_row[p] = -1;
    pos_len[p] = 0;
  }
}

// entries[q] = the entries of slice q (one warp a slice).
static __global__ void sorted_slice_entries_kernel(index_t slices, const unsigned* __restrict__ pos_len,
                                                   index_t* __restrict__ entries) {
  const std::int64_t t = global_thread();
  const std::int64_t q = t / 32;
  if (q >= slices) return;
  int len = static_cast<int>(pos_len[t]);
  for (int off = 16; off > 0; off /= 2) len += __shfl_xor_sync(0xffffffffu, len, off);
  if (t % 32 == 0) entries[q] = len;
}

// dst = src (the columns or the values, CSR order) in slice order, the
// slices starting at start[q].
template <class T>
__global__ void sorted_copy_kernel(index_t slices, const offset_t* __restrict__ rp, const index_t* __restrict__ pos_row,
                                   const unsigned* __restrict__ pos_len, const offset_t* __restrict__ start,
                                   const T* __restrict__ src, T* __restrict__ dst) {
  const std::int64_t t = global_thread();
  const std::int64_t q = t / 32;
  if (q >= slices) return;  // the whole warp
  const int lane = static_cast<int>(t % 32);
  const int len = static_cast<int>(pos_len[t]);
  const index_t r = pos_row[t];
  const offset_t first = r >= 0 ? rp[r] : 0;
  copy_slice_steps(len, first, start[q], lane, src, dst);
}

// The flags of both lists, from one read of the row pointers: the rows the
// warps take (max_row + 1 .. chunk entries: mid[r] = 1) and the longer ones
// (is_long[r] = 1, in chunks[r] chunks of `chunk` entries).
static __global__ void sorted_flags_kernel(index_t n, const offset_t* __restrict__ rp, int chunk,
                                           index_t* __restrict__ mid, index_t* __restrict__ is_long,
                                           index_t* __restrict__ chunks) {
  const std::int64_t r = global_thread();
  if (r >= n) return;
  const offset_t len = rp[r + 1] - rp[r];
  mid[r] = len > SpmvSorted::max_row && len <= chunk;
  is_long[r] = len > chunk;
  chunks[r] = len > chunk ? static_cast<index_t>((len + chunk - 1) / chunk) : 0;
}
// For every flagged row r (at: the flags' exclusive scan): mid[at[r]] = r,
// with its first entry and length beside it, so that a warp reads its row's
// bounds with the row instead of after it.
static __global__ void sorted_mid_list_kernel(index_t n, const offset_t* __restrict__ rp,
                                              const index_t* __restrict__ at, index_t* __restrict__ mid,
                                              offset_t* __restrict__ mid_start, unsigned* __restrict__ mid_len) {
  const std::int64_t r = global_thread();
  if (r >= n) return;
  if (at[r + 1] != at[r]) {
    mid[at[r]] = static_cast<index_t>(r);
    mid_start[at[r]] = rp[r];
    mid_len[at[r]] = static_cast<unsigned>(rp[r + 1] - rp[r]);
  }
}

}  // namespace saga::cuda
