// The binned SpGEMM's sort rows: expand-sort-contract of (column, product) keys
// with CUB warp/block sorts, one row per group of threads (docs/spgemm.md).
// Included only by sparse/cuda/spgemm_binned.cu (one translation unit; the
// anonymous namespace keeps these kernels private to it).
#pragma once
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_scan.cuh>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/spgemm_binned_policy.cuh"

namespace saga::cuda {
namespace {

// ---- agent: one row per group of THREADS threads ---------------------------
template <int THREADS, int ITEMS, class Key, bool FILL>
struct RowEsc {
  static constexpr int kCap = THREADS * ITEMS;
  static constexpr int kPBits = [] {
    int b = 0;
    while ((1 << b) < kCap) ++b;
    return b;
  }();
  static constexpr bool kWarp = THREADS <= 32;
  static constexpr int kGroups = kWarp ? kWarpBlock / THREADS : 1;
  static constexpr int kBlock = kWarp ? kWarpBlock : THREADS;
  using Sort = std::conditional_t<kWarp, cub::WarpMergeSort<Key, ITEMS, THREADS>, cub::BlockRadixSort<Key, THREADS, ITEMS>>;
  using Scan = std::conditional_t<kWarp, cub::WarpScan<int, THREADS>, cub::BlockScan<int, THREADS>>;

  struct Storage {
    union {
      int off[kCap + 1];  // product offset of each entry of A's row (expansion)
      typename Sort::TempStorage sort;
      Key sorted[kCap];   // the sorted keys (contraction)
    } u;
    double vals[FILL ? kCap : 1];  // product values, by product index
    typename Scan::TempStorage scan;
  };

  struct Less {
    __device__ bool operator()(const Key& a, const Key& b) const { return a < b; }
  };

  __device__ static index_t column(Key k) { return static_cast<index_t>(FILL ? (k >> kPBits) : k); }

  __device__ static void sync(unsigned mask) {
    if constexpr (kWarp)
      __syncwarp(mask);
    else
      __syncthreads();
  }

  // count: nnz_out[row] = nnz(C_row), *nnz_total += it.
  // fill: writes C's row at crp[row]; flags a mismatch with C's row length.
  template <class Off>
  __device__ static void run(Storage& sm, index_t row, int lane, unsigned mask, const Operands<Off>& op, int end_bit,
                             int* nnz_out, unsigned long long* nnz_total, const Off* crp, index_t* ccol,
                             double* cval, int* mismatch) {
    const Off a0 = op.arp[row];
    const int m = static_cast<int>(op.arp[row + 1] - a0);

    // Product offsets of the row's entries (exclusive scan in chunks).
    int base = 0;
    for (int j0 = 0; j0 < m; j0 += THREADS) {
      const int j = j0 + lane;
      int len = 0;
      if (j < m) {
        const index_t k = op.aci[a0 + j];
        len = static_cast<int>(b_end(op, k) - b_begin(op, k));
      }
      int excl, chunk;
      Scan(sm.scan).ExclusiveSum(len, excl, chunk);
      if (j < m) sm.u.off[j] = base + excl;
      base += chunk;
      sync(mask);
    }
    if (lane == 0) sm.u.off[m] = base;
    sync(mask);
    const int products = base;
    const bool extra = has_extra(op, row);
    const int items = products + (extra ? 1 : 0);

    // Expand in blocked order: item i of thread t is product t*ITEMS + i.
    Key keys[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int p = lane * ITEMS + i;
      if (p < products) {
        int lo = 0, hi = m;  // off[lo] <= p < off[hi]
        while (hi - lo > 1) {
          const int mid = (lo + hi) / 2;
          if (sm.u.off[mid] <= p) lo = mid; else hi = mid;
        }
        const Off ka = a0 + lo;
        const Off kb = b_begin(op, op.aci[ka]) + (p - sm.u.off[lo]);
        const index_t c = op.bci[kb];
        if constexpr (FILL) {
          sm.vals[p] = op.av[ka] * op.bv[kb];
          keys[i] = (static_cast<Key>(c) << kPBits) | static_cast<Key>(p);
        } else {
          keys[i] = static_cast<Key>(c);
        }
      } else if (p < items) {  // the fused extra entry sorts last in its column
        const index_t c = op.e_col[row];
        if constexpr (FILL) {
          sm.vals[p] = op.e_val[row];
          keys[i] = (static_cast<Key>(c) << kPBits) | static_cast<Key>(p);
        } else {
          keys[i] = static_cast<Key>(c);
        }
      } else {
        keys[i] = std::numeric_limits<Key>::max();
      }
    }
    sync(mask);  // off[] is dead; its storage becomes the sort's

    if constexpr (kWarp)
      Sort(sm.u.sort).Sort(keys, Less{});
    else
      Sort(sm.u.sort).Sort(keys, 0, end_bit);
    sync(mask);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) sm.u.sorted[lane * ITEMS + i] = keys[i];
    sync(mask);

    // Contract: a head starts each run of equal columns.
    int heads = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int q = lane * ITEMS + i;
      if (q < items && (q == 0 || column(sm.u.sorted[q - 1]) != column(keys[i]))) ++heads;
    }
    int rank, total;
    Scan(sm.scan).ExclusiveSum(heads, rank, total);
    if constexpr (!FILL) {
      if (lane == 0) {
        nnz_out[row] = total;
        if (total) atomicAdd(nnz_total, static_cast<unsigned long long>(total));  // a block counter
      }
    } else {
      const Off c0 = crp[row];
      const int len = static_cast<int>(crp[row + 1] - c0);
      if (lane == 0 && len != total) atomicExch(mismatch, 1);
      constexpr Key kMask = (Key(1) << kPBits) - 1;
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const int q = lane * ITEMS + i;
        const index_t c = column(keys[i]);
        if (q < items && (q == 0 || column(sm.u.sorted[q - 1]) != c)) {
          double sum = 0.0, e = 0.0;
          bool has_e = false;
          for (int r = q; r < items && column(sm.u.sorted[r]) == c; ++r) {
            const int p = static_cast<int>(sm.u.sorted[r] & kMask);
            if (p < products) sum += sm.vals[p];
            else { e = sm.vals[p]; has_e = true; }
          }
          if (op.scale) sum *= op.scale[row];
          if (has_e) sum = e + sum;
          if (rank < len) {
            ccol[c0 + rank] = c;
            cval[c0 + rank] = sum;
          }
          ++rank;
        }
      }
    }
  }
};

template <int THREADS, int ITEMS, class Key, bool FILL, class Off>
__global__ void __launch_bounds__(RowEsc<THREADS, ITEMS, Key, FILL>::kBlock)
    row_esc_kernel(const index_t* ids, index_t count, Operands<Off> op, int end_bit, int* nnz_out,
                   unsigned long long* nnz_total, const Off* crp, index_t* ccol, double* cval, int* mismatch) {
  using Agent = RowEsc<THREADS, ITEMS, Key, FILL>;
  __shared__ typename Agent::Storage storage[Agent::kGroups];
  __shared__ unsigned long long block_nnz;  // count: nnz of the block's rows
  if (!FILL) {
    if (threadIdx.x == 0) block_nnz = 0;
    __syncthreads();
  }
  const int group = Agent::kWarp ? threadIdx.x / THREADS : 0;
  const int lane = Agent::kWarp ? threadIdx.x % THREADS : threadIdx.x;
  const std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * Agent::kGroups + group;
  if (g < count) {  // a whole logical warp (warp bins) or never (CTA bins) is idle
    unsigned mask = 0xffffffffu;
    if constexpr (Agent::kWarp && THREADS < 32)
      mask = ((1u << THREADS) - 1) << ((threadIdx.x % 32) / THREADS * THREADS);
    Agent::run(storage[group], ids[g], lane, mask, op, end_bit, nnz_out, &block_nnz, crp, ccol, cval, mismatch);
  }
  if (!FILL) {
    __syncthreads();
    if (threadIdx.x == 0 && block_nnz) atomicAdd(nnz_total, block_nnz);
  }
}

}  // namespace
}  // namespace saga::cuda
