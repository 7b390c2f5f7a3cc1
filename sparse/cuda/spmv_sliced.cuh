#pragma once
// Sliced rows: the binned SpMV's path for matrices whose rows all hold 9 to 64
// entries (2D 9-point, 3D 27-point, the coarse operators and restrictions of
// 3D 7-point; spmv_sliced_fit, sparse/spmv_row_blocks.hpp).
//
// The rows are cut into slices of 32 consecutive rows, one warp each, one
// thread a row. Within a slice the rows are ranked by length, longest first
// (ties by row), and the slice's entries — exactly its rows' CSR range
// [row_ptr[32 s], row_ptr[32 s + 32]) — are stored again step by step: entry 0
// of every row in rank order, then entry 1 of every row that has one, and so
// on. At step k the rows still running are ranks 0 .. c_k - 1, so the warp's
// load is c_k consecutive columns and c_k consecutive values: coalesced, with
// no padding, no shared memory and no barrier, and each thread sums its row in
// CSR order (the thread bin's order). Step k's entries start at row_ptr[32 s]
// + c_0 + ... + c_{k-1}; the warp counts c_k with a ballot, so nothing but a
// 4-byte slot a row is stored besides the copy: slot[32 s + rank] = (length
// << 5) | (row - 32 s).
//
// The row blocks stage the same coalesced loads in shared memory and sum
// them after a CTA barrier; the sliced rows were 10-18% faster (H200,
// forty-first session, docs/spmv.md), at the price of a copy of the columns and
// values (kept as analyses of the matrix: the columns and slots with the
// pattern, the values until they change).
#include <cstdint>

#include "sparse/cuda/block_reduce.cuh"
#include "sparse/cuda/launch.cuh"

namespace saga::cuda {

// slot[32 s + rank] for every slice s (one warp a slice): each row's rank by
// length among the slice's rows, longest first, ties by row.
// (static: a kernel defined in a header, one copy per translation unit.)
static __global__ void slice_slots_kernel(index_t n, const offset_t* __restrict__ rp, unsigned* __restrict__ slot) {
  const std::int64_t t = global_thread();
  const int lane = threadIdx.x % 32;
  const std::int64_t s0 = t - lane;
  if (s0 >= n) return;  // the whole warp
  const int len = t < n ? static_cast<int>(rp[t + 1] - rp[t]) : -1;  // rows past n rank last
  int rank = 0;
  for (int j = 0; j < 32; ++j) {
    const int other = __shfl_sync(0xffffffffu, len, j);
    rank += other > len || (other == len && j < lane);
  }
  if (t < n) slot[s0 + rank] = (static_cast<unsigned>(len) << 5) | static_cast<unsigned>(lane);
}

// One thread's row of a slice stored step by step: its `len` entries from
// src[first ...] to dst, entry k after the slice's running rows of steps
// 0 .. k - 1 (the slice's entries start at `at`; its rows longest first).
template <class T>
__device__ inline void copy_slice_steps(int len, offset_t first, offset_t at, int lane, const T* __restrict__ src,
                                        T* __restrict__ dst) {
  const int longest = __shfl_sync(0xffffffffu, len, 0);
  for (int k = 0; k < longest; ++k) {
    const unsigned running = __ballot_sync(0xffffffffu, len > k);
    if (len > k) dst[at + lane] = src[first + k];
    at += __popc(running);
  }
}

// dst = src (the columns or the values, CSR order) in slice order.
template <class T>
__global__ void slice_entries_kernel(index_t n, const offset_t* __restrict__ rp, const unsigned* __restrict__ slot,
                                     const T* __restrict__ src, T* __restrict__ dst) {
  const std::int64_t t = global_thread();
  const int lane = threadIdx.x % 32;
  const std::int64_t s0 = t - lane;
  if (s0 >= n) return;
  const unsigned info = t < n ? slot[t] : 0u;
  const int len = static_cast<int>(info >> 5);
  const offset_t first = t < n ? rp[s0 + (info & 31u)] : 0;
  copy_slice_steps(len, first, rp[s0], lane, src, dst);
}

// Row sum of one thread of a slice: `len` its row's entries, `longest` the
// slice's first (longest) row, `at` where the slice's entries start in the
// copy. U entries of a row are loaded before any is used. Shared with the
// sorted slices (spmv_sorted.cuh), whose slices are 32 sorted rows.
template <class Value, class In, int U>
__device__ __forceinline__ double slice_row_sum(int len, int longest, offset_t at, int lane,
                                                const index_t* __restrict__ ci, const Value* __restrict__ v, In x) {
  double s = 0.0;
  // At U = 4 the last group may pass the longest row: its steps there run
  // no row (their ballots are 0, every load and use is under len > k + u),
  // so the slice's last longest % 4 steps load together like the others
  // instead of one dependent round each (3D 27-pt's fine passes 3-5%
  // faster, forty-fourth session). At U = 8 the last longest % 8 steps go
  // one at a time, as before: predicated there, R0 of 3D 7-pt N=128 was 4%
  // slower.
  constexpr bool kPredicatedTail = U <= 4;
  int k = 0;
  for (; kPredicatedTail ? k < longest : k + U <= longest; k += U) {
    index_t c[U];
    Value a[U];
    if constexpr (U <= 4) {
      // Every step's position first (the ballots), then the U loads back to
      // back: a ballot between two loads kept ptxas from issuing them
      // together (H200, forty-second session: 2D 9-pt N=4096 0.584 -> 0.522
      // ms, 3D 27-pt N=160 0.380 -> 0.346).
      offset_t e[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        e[u] = at + lane;
        at += __popc(__ballot_sync(0xffffffffu, len > k + u));
      }
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (len > k + u) {
          c[u] = ci[e[u]];
          a[u] = v[e[u]];
        }
    } else {
      // At U = 8 the same order lost (R0 of 3D 7-pt N=128 0.046 -> 0.051
      // ms): each step's loads follow its ballot.
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const unsigned running = __ballot_sync(0xffffffffu, len > k + u);
        if (len > k + u) {
          c[u] = ci[at + lane];
          a[u] = v[at + lane];
        }
        at += __popc(running);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (len > k + u) s += a[u] * x(c[u]);
  }
  if constexpr (!kPredicatedTail) {
    for (; k < longest; ++k) {
      const unsigned running = __ballot_sync(0xffffffffu, len > k);
      if (len > k) s += v[at + lane] * x(ci[at + lane]);
      at += __popc(running);
    }
  }
  return s;
}

// One product over the sliced copy: s = (A x)_r for each row, then out(r, s).
// The output's own loads (Out::pre) are issued before the row's entries,
// except where Out::kLateInSlices asks for them after the sum at U = 4. Every
// CTA writes one partial of the fused dot where `partial` is set.
template <class Out, class Value, class In, int U>
__global__ __launch_bounds__(256) void sliced_rows_kernel(index_t n, const offset_t* __restrict__ rp,
                                                          const unsigned* __restrict__ slot,
                                                          const index_t* __restrict__ ci,
                                                          const Value* __restrict__ v, In x, Out out,
                                                          double* __restrict__ partial) {
  wait_for_prior_grid();
  const std::int64_t t = global_thread();
  const int lane = threadIdx.x % 32;
  const std::int64_t s0 = t - lane;
  double mine = 0.0;
  if (s0 < n) {  // the same for the whole warp
    const unsigned info = t < n ? slot[t] : 0u;
    const int len = static_cast<int>(info >> 5);
    const index_t r = static_cast<index_t>(s0 + (info & 31u));
    // Out::kLateInSlices: the output's own loads wait for the sum (RelaxOut).
    constexpr bool late = U <= 4 && Out::kLateInSlices;
    typename Out::Pre pre{};
    if constexpr (!late) {
      if (t < n) pre = out.pre(r);
    }
    const int longest = __shfl_sync(0xffffffffu, len, 0);
    const double s = slice_row_sum<Value, In, U>(len, longest, rp[s0], lane, ci, v, x);
    if constexpr (late) {
      if (t < n) mine = finish_row(out, r, s);
    } else {
      if (t < n) mine = out(r, s, pre);
    }
  }
  if (partial) write_block_partial<256>(mine, partial);
}

}  // namespace saga::cuda
