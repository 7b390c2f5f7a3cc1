#pragma once
// Diagonal rows: the binned SpMV's path for stencil matrices that have a
// diagonal copy (option `diagonals`; the rules and the layout in
// sparse/spmv_diagonals.hpp). One thread a row, as the thread bin, but the
// row's values come from the copy, diagonal by diagonal (value (j, r) at
// j n + r: a warp's loads are 32 consecutive values), and its columns are r +
// o_j: no column index, no row pointer, and the gathers of x coalesced. Pads
// (NaN) are skipped, so each row adds the same products in the same order as
// the thread bin: every product and fused dot equals the thread bin's bit for
// bit.
#include <cstdint>

#include "sparse/cuda/block_reduce.cuh"
#include "sparse/cuda/launch.cuh"
#include "sparse/spmv_diagonals.hpp"

namespace saga::cuda {

// The probe (one block; sparse/spmv_diagonals.hpp): the first row of the
// window [first, first + count) holding max_row entries gives the offsets;
// bad[0] = 1 where none does or its columns are not ascending. (static:
// kernels defined in a header, one copy per translation unit.)
constexpr int kProbeThreads = 1024;
static __global__ __launch_bounds__(kProbeThreads) void diagonal_probe_kernel(
    index_t first, index_t count, const offset_t* __restrict__ rp, const index_t* __restrict__ ci, offset_t max_row,
    index_t* __restrict__ offset, int* __restrict__ bad) {
  __shared__ index_t at;
  if (threadIdx.x == 0) at = count;
  __syncthreads();
  for (index_t i = threadIdx.x; i < count; i += kProbeThreads)
    if (rp[first + i + 1] - rp[first + i] == max_row) atomicMin(&at, i);  // (the least: the same every run)
  __syncthreads();
  if (threadIdx.x == 0 && (at == count || !spmv_diagonals_offsets(first + at, rp, ci, offset))) *bad = 1;
}

// bad[0] = 1 where some row does not lie on the diagonals `offset` (an entry
// off them, or columns not strictly ascending); nothing read where the probe
// found no offsets.
static __global__ void diagonal_pattern_kernel(index_t n, const offset_t* __restrict__ rp,
                                               const index_t* __restrict__ ci, const index_t* __restrict__ offset,
                                               int diagonals, int* __restrict__ bad) {
  const std::int64_t r = global_thread();
  if (r >= n || *static_cast<volatile int*>(bad) != 0) return;
  if (!spmv_diagonal_row<float>(r, rp, ci, nullptr, offset, diagonals, nullptr, n)) *bad = 1;
}

// The copy's values: dst[j n + r] for every row (pads where it has no entry);
// bad[0] = 1 where a value is a NaN (it would read as a pad).
template <class Value>
__global__ void diagonal_values_kernel(index_t n, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                                       const Value* __restrict__ v, const index_t* __restrict__ offset,
                                       int diagonals, Value* __restrict__ dst, int* __restrict__ bad) {
  const std::int64_t r = global_thread();
  if (r >= n) return;
  if (!spmv_diagonal_row<Value>(r, rp, ci, v, offset, diagonals, dst + r, n)) *bad = 1;
}

// One product over the copy: s = (A x)_r, then out(r, s) as the thread bin
// writes it. The diagonals go in groups of 4: the group's values, then its
// gathers of x, all issued before the sums use them.
template <class Out, class Value, class In>
__global__ __launch_bounds__(256) void diagonal_rows_kernel(index_t n, const Value* __restrict__ v,
                                                            const index_t* __restrict__ offset, int diagonals,
                                                            In x, Out out, double* __restrict__ partial) {
  constexpr int kGroup = 4;
  wait_for_prior_grid();
  const std::int64_t r = global_thread();
  double mine = 0.0;
  if (r < n) {
    double s = 0.0;
    for (int j0 = 0; j0 < diagonals; j0 += kGroup) {
      Value a[kGroup];
      double xv[kGroup];
#pragma unroll
      for (int u = 0; u < kGroup; ++u)
        a[u] = j0 + u < diagonals ? v[static_cast<std::int64_t>(j0 + u) * n + r] : spmv_diagonal_pad<Value>();
#pragma unroll
      for (int u = 0; u < kGroup; ++u)
        xv[u] = a[u] == a[u] ? x(static_cast<index_t>(r + __ldg(offset + j0 + u))) : 0.0;
#pragma unroll
      for (int u = 0; u < kGroup; ++u)
        if (a[u] == a[u]) s += a[u] * xv[u];
    }
    mine = finish_row(out, static_cast<index_t>(r), s);
  }
  if (partial) write_block_partial<256>(mine, partial);
}

}  // namespace saga::cuda
