// The binned SpGEMM's hash rows: a shared-memory hash set per row, deterministic
// per-team accumulation, one row per group of threads (docs/spgemm.md).
// Included only by sparse/cuda/spgemm_binned.cu (one translation unit; the
// anonymous namespace keeps these kernels private to it).
#pragma once
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_scan.cuh>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/spgemm_binned_policy.cuh"

namespace saga::cuda {
namespace {

// ---- agent: hash accumulator, one row per group of THREADS threads ----------
// Pass::count  inserts the row's columns into a shared hash set (atomicCAS:
//              the set does not depend on the order) and counts them.
// Pass::fill   inserts again, ranks the distinct columns (C's sorted row),
//              then accumulates the products into per-team dense rows.
// Pass::numeric takes C's row from C (structure known) and accumulates.
// Accumulation is deterministic without atomics: a team of `team` lanes (≤ 32,
// within one warp) walks its entries of A's row in order, its lanes over the
// row of B, whose columns are distinct, so no two lanes add to one sum in a
// step; the teams' partial rows are then added in team order.
template <int THREADS, int ITEMS, Pass PASS, class Off>
struct RowHash {
  static constexpr int kCap = THREADS * ITEMS;  // products (plus extra entry) per row
  static constexpr int kTable = 2 * kCap;       // hash slots: load factor <= 1/2
  static constexpr bool kWarp = THREADS <= 32;
  static constexpr int kGroups = kWarp ? kWarpBlock / THREADS : 1;
  static constexpr int kBlock = kWarp ? kWarpBlock : THREADS;
  static constexpr bool kAcc = PASS != Pass::count;
  using Scan = std::conditional_t<kWarp, cub::WarpScan<int, THREADS>, cub::BlockScan<int, THREADS>>;

  // Rows of A of at most kStaged entries stage their rows of B's bounds in
  // shared memory first (one load chain for all of them, in parallel);
  // longer rows walk A's row with a dependent chain per entry.
  static constexpr int kStaged = kCap / 4 > THREADS ? kCap / 4 : THREADS;
  struct Storage {
    union {
      int table[kTable];              // hash set of columns (-1: empty)
      double acc[kAcc ? kCap : 1];    // per-team partial rows, team t at [t*len, (t+1)*len)
    } u;
    int cols[kCap];                   // C's row, sorted
    unsigned long long base;          // where the count pass keeps the row's columns
    int off[kStaged + 1];             // product offset of each entry of A's row (exclusive scan)
    Off kb0[kStaged];                 // where each entry's row of B starts
    typename Scan::TempStorage scan;
  };

  __device__ static void sync(unsigned mask) {
    if constexpr (kWarp)
      __syncwarp(mask);
    else
      __syncthreads();
  }

  // The slot: c's bits above the slot bits folded into them, times an odd
  // constant (one to one on the low bits). Columns close together (Pᵀ(AP))
  // never collide; columns a multiple of the table size apart (i ± N on a 2D
  // grid: A·A of the 9-point stencil) collided in the plain product's low
  // bits, five to a slot.
  static constexpr int kTableBits = [] {
    int b = 0;
    while ((1 << b) < kTable) ++b;
    return b;
  }();
  __device__ static int insert(int* table, int c) {
    const unsigned u = static_cast<unsigned>(c);
    unsigned h = ((u ^ (u >> kTableBits)) * 0x9E3779B1u) & (kTable - 1);
    for (;;) {
      const int prev = atomicCAS(&table[h], -1, c);
      if (prev == -1) return 1;
      if (prev == c) return 0;
      h = (h + 1) & (kTable - 1);
    }
  }

  // Position of c in cols[0, n), or -1.
  __device__ static int find(const int* cols, int n, int c) {
    int lo = 0, hi = n;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (cols[mid] < c) lo = mid + 1; else hi = mid;
    }
    return lo < n && cols[lo] == c ? lo : -1;
  }

  // The rank table (lookup: table): `slots` (a power of two >= 2n) slots, the
  // slot of cols[q] holds q, compared through cols[rank]; the columns are
  // distinct, so a taken slot is another column's. Same slot function as
  // insert().
  __device__ static unsigned slot_of(int c, int slots) {
    const unsigned u = static_cast<unsigned>(c);
    return ((u ^ (u >> (__ffs(slots) - 1))) * 0x9E3779B1u) & (slots - 1);
  }
  __device__ static void insert_rank(int* ranks, int slots, const int* cols, int q) {
    unsigned h = slot_of(cols[q], slots);
    while (atomicCAS(&ranks[h], -1, q) != -1) h = (h + 1) & (slots - 1);
  }
  __device__ static int rank_of(const int* ranks, int slots, const int* cols, int c) {
    unsigned h = slot_of(c, slots);
    for (;;) {  // ends: at most half the slots are taken
      const int r = ranks[h];
      if (r < 0 || cols[r] == c) return r;
      h = (h + 1) & (slots - 1);
    }
  }

  // The set in u.table compacted into cols[0, n) and sorted (a bitonic
  // network over the next power of two, padding sorts last); returns n.
  __device__ static int compact_sort(Storage& sm, int lane, unsigned mask) {
    constexpr int kChunk = kTable / THREADS;  // slots per lane
    int here = 0;
#pragma unroll
    for (int i = 0; i < kChunk; ++i) here += sm.u.table[lane * kChunk + i] >= 0;
    int at, n;
    Scan(sm.scan).ExclusiveSum(here, at, n);
#pragma unroll
    for (int i = 0; i < kChunk; ++i) {
      const int c = sm.u.table[lane * kChunk + i];
      if (c >= 0) sm.cols[at++] = c;
    }
    sync(mask);
    int pow2 = 1;
    while (pow2 < n) pow2 *= 2;
    for (int q = n + lane; q < pow2; q += THREADS) sm.cols[q] = std::numeric_limits<int>::max();
    sync(mask);
    for (int size = 2; size <= pow2; size *= 2)
      for (int stride = size / 2; stride > 0; stride /= 2) {
        for (int i = lane; i < pow2; i += THREADS) {
          const int j = i ^ stride;
          if (j > i) {
            const int x = sm.cols[i], y = sm.cols[j];
            if ((x > y) == ((i & size) == 0)) {
              sm.cols[i] = y;
              sm.cols[j] = x;
            }
          }
        }
        sync(mask);
      }
    return n;
  }

  __device__ static void run(Storage& sm, index_t row, int lane, unsigned mask, const Operands<Off>& op, HashShape shape,
                             StoredCols stored, int* nnz_out, unsigned long long* nnz_total, const Off* crp,
                             index_t* ccol, double* cval, int* mismatch) {
    const Off a0 = op.arp[row];
    const int m = static_cast<int>(op.arp[row + 1] - a0);
    const int tb = shape.team < THREADS ? shape.team : THREADS;
    const int teams = THREADS / tb, team = lane / tb, tl = lane % tb;
    const bool extra = has_extra(op, row);
    int n = 0;
    Off c0 = 0;

    // Staged rows: the bounds of the rows of B and the product offsets, all
    // entries of A's row at once (an exclusive scan in chunks of THREADS).
    const bool staged = m <= kStaged;
    int products = 0;
    if (staged) {
      for (int j0 = 0; j0 < m; j0 += THREADS) {
        const int j = j0 + lane;
        int len = 0;
        if (j < m) {
          const index_t k = op.aci[a0 + j];
          const Off b0 = b_begin(op, k);
          len = static_cast<int>(b_end(op, k) - b0);
          sm.kb0[j] = b0;
        }
        int excl, chunk;
        Scan(sm.scan).ExclusiveSum(len, excl, chunk);
        if (j < m) sm.off[j] = products + excl;
        products += chunk;
        sync(mask);
      }
      if (lane == 0) sm.off[m] = products;
    }

    bool from_store = false;  // fill: the count pass kept this row's sorted columns
    if constexpr (PASS == Pass::fill) from_store = stored.start != nullptr && stored.start[row] >= 0;
    if constexpr (PASS != Pass::numeric) {
      if (!from_store) {
        for (int s = lane; s < kTable; s += THREADS) sm.u.table[s] = -1;
        sync(mask);
        int fresh = 0;
        if (staged) {
          // Insertion needs no order: each lane takes a contiguous share of the
          // products and loads four columns before inserting them, so the
          // loads overlap (the team walk below waits on three dependent loads
          // per entry of A; ncu: latency-bound).
          const int per = (products + THREADS - 1) / THREADS;
          int p = lane * per;
          const int pend = p + per < products ? p + per : products;
          if (p < pend) {
            int j = 0, hi = m;  // off[j] <= p < off[j + 1]
            while (hi - j > 1) {
              const int mid = (j + hi) / 2;
              if (sm.off[mid] <= p) j = mid; else hi = mid;
            }
            Off kb = sm.kb0[j] + (p - sm.off[j]);
            for (; p < pend; p += 4) {
              int c[4];
#pragma unroll
              for (int u = 0; u < 4; ++u) {
                c[u] = -1;
                if (p + u < pend) {
                  while (p + u >= sm.off[j + 1]) kb = sm.kb0[++j];
                  c[u] = op.bci[kb++];
                }
              }
#pragma unroll
              for (int u = 0; u < 4; ++u)
                if (c[u] >= 0) fresh += insert(sm.u.table, c[u]);
            }
          }
        } else {
          for (int j = team; j < m; j += teams) {
            const index_t k = op.aci[a0 + j];
            for (Off kb = b_begin(op, k) + tl, kend = b_end(op, k); kb < kend; kb += tb)
              fresh += insert(sm.u.table, op.bci[kb]);
          }
        }
        if (extra && lane == 0) fresh += insert(sm.u.table, op.e_col[row]);
        sync(mask);
        if constexpr (PASS == Pass::count) {
          if (stored.col == nullptr) {
            int excl, total;
            Scan(sm.scan).ExclusiveSum(fresh, excl, total);
            if (lane == 0) {
              nnz_out[row] = total;
              if (total) atomicAdd(nnz_total, static_cast<unsigned long long>(total));  // a block counter
            }
            return;
          }
          // Keep the sorted row for the fill, where its region has room.
          n = compact_sort(sm, lane, mask);
          if (lane == 0) {
            const int k = static_cast<int>(row % kStoreRegions);
            const unsigned long long at = atomicAdd(&stored.cursors[k], static_cast<unsigned long long>(n));
            const bool fits = static_cast<std::int64_t>(at) + n <= stored.region;
            sm.base = fits ? static_cast<unsigned long long>(k * stored.region + static_cast<std::int64_t>(at))
                           : ~0ull;
            stored.start[row] = fits ? static_cast<std::int64_t>(sm.base) : -1;
            nnz_out[row] = n;
            if (n) atomicAdd(nnz_total, static_cast<unsigned long long>(n));  // a block counter
          }
          sync(mask);
          if (sm.base != ~0ull)
            for (int q = lane; q < n; q += THREADS) stored.col[sm.base + q] = sm.cols[q];
          return;
        } else {
          n = compact_sort(sm, lane, mask);
          c0 = crp[row];
          const int len = static_cast<int>(crp[row + 1] - c0);
          if (lane == 0 && len != n) atomicExch(mismatch, 1);
          if (n > len) n = len;
          for (int q = lane; q < n; q += THREADS) ccol[c0 + q] = sm.cols[q];
        }
      } else {
        c0 = crp[row];
        n = static_cast<int>(crp[row + 1] - c0);
        const std::int64_t from = stored.start[row];
        for (int q = lane; q < n; q += THREADS) {
          const int c = stored.col[from + q];
          sm.cols[q] = c;
          ccol[c0 + q] = c;
        }
        sync(mask);
      }
    } else {
      c0 = crp[row];
      n = static_cast<int>(crp[row + 1] - c0);
      if (n > kCap) {  // not this product's structure: a row holds at most its products
        if (lane == 0) atomicExch(mismatch, 1);
        return;
      }
      for (int q = lane; q < n; q += THREADS) sm.cols[q] = ccol[c0 + q];
      sync(mask);
    }

    if constexpr (kAcc) {
      // lookup: table puts a rank table of `slots` (a power of two >= 2n) in
      // the first ints of u and the partial rows after it, where both fit;
      // otherwise the partial rows fill u and ranks come by binary search.
      int slots = 2;
      while (slots < 2 * n) slots *= 2;
      const bool ranked = shape.rank_table && n > 0 && (kTable - slots) / 2 >= n;
      int* ranks = sm.u.table;
      double* acc_all = ranked ? reinterpret_cast<double*>(sm.u.table + slots) : sm.u.acc;
      const int room = ranked ? (kTable - slots) / 2 : kCap;
      // Per-team partial rows; fewer teams (any count) when the row is long.
      const int used = n == 0 ? 1 : (teams < room / n ? teams : room / n);  // n <= kCap <= room
      if (ranked) {
        for (int q = lane; q < slots; q += THREADS) ranks[q] = -1;
        sync(mask);
        for (int q = lane; q < n; q += THREADS) insert_rank(ranks, slots, sm.cols, q);
      }
      for (int q = lane; q < used * n; q += THREADS) acc_all[q] = 0.0;
      sync(mask);
      if (team < used) {
        double* acc = acc_all + team * n;
        const unsigned team_mask = tb == 32 ? 0xffffffffu : ((1u << tb) - 1) << ((threadIdx.x % 32) / tb * tb);
        bool lost = false;
        for (int j = team; j < m; j += used) {
          const double a = op.av[a0 + j];
          Off b0, b1;
          if (staged) {
            b0 = sm.kb0[j];
            b1 = b0 + (sm.off[j + 1] - sm.off[j]);
          } else {
            const index_t k = op.aci[a0 + j];
            b0 = b_begin(op, k);
            b1 = b_end(op, k);
          }
          for (Off kb = b0 + tl; kb < b1; kb += tb) {
            const int c = op.bci[kb];
            const int r = ranked ? rank_of(ranks, slots, sm.cols, c) : find(sm.cols, n, c);
            if (r >= 0) acc[r] += a * op.bv[kb]; else lost = true;
          }
          __syncwarp(team_mask);
        }
        if (lost) atomicExch(mismatch, 1);
      }
      sync(mask);
      const int e_col = extra ? op.e_col[row] : -1;
      for (int q = lane; q < n; q += THREADS) {
        double v = acc_all[q];
        for (int t = 1; t < used; ++t) v += acc_all[t * n + q];
        if (op.scale) v *= op.scale[row];
        if (sm.cols[q] == e_col) v = op.e_val[row] + v;
        cval[c0 + q] = v;
      }
    }
  }
};

template <int THREADS, int ITEMS, Pass PASS, class Off>
__global__ void __launch_bounds__(RowHash<THREADS, ITEMS, PASS, Off>::kBlock)
    row_hash_kernel(const index_t* ids, index_t count, Operands<Off> op, HashShape shape, StoredCols stored, int* nnz_out,
                    unsigned long long* nnz_total, const Off* crp, index_t* ccol, double* cval, int* mismatch) {
  using Agent = RowHash<THREADS, ITEMS, PASS, Off>;
  // Dynamic: the largest bins need more than the 48 KB of static shared memory.
  extern __shared__ __align__(16) unsigned char dynamic_smem[];
  auto* storage = reinterpret_cast<typename Agent::Storage*>(dynamic_smem);
  __shared__ unsigned long long block_nnz;
  if (PASS == Pass::count) {
    if (threadIdx.x == 0) block_nnz = 0;
    __syncthreads();
  }
  const int group = Agent::kWarp ? threadIdx.x / THREADS : 0;
  const int lane = Agent::kWarp ? threadIdx.x % THREADS : threadIdx.x;
  const std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * Agent::kGroups + group;
  if (g < count) {
    unsigned mask = 0xffffffffu;
    if constexpr (Agent::kWarp && THREADS < 32)
      mask = ((1u << THREADS) - 1) << ((threadIdx.x % 32) / THREADS * THREADS);
    Agent::run(storage[group], ids[g], lane, mask, op, shape, stored, nnz_out, &block_nnz, crp, ccol, cval, mismatch);
  }
  if (PASS == Pass::count) {
    __syncthreads();
    if (threadIdx.x == 0 && block_nnz) atomicAdd(nnz_total, block_nnz);
  }
}

}  // namespace
}  // namespace saga::cuda
