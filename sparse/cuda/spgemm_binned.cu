// Row-binned ESC SpGEMM (000_… §3.3-3.4, docs/spgemm.md): every row of C is
// expanded, sorted and contracted by a group of threads sized to the row's
// work, in registers and shared memory, instead of one device-wide sort.
//
//   analysis  per row of A: products Σ nnz(B_k) and nnz(A_i) -> a bin; rows are
//             ordered by bin (a stable 4-bit radix sort of the row ids), so each
//             bin is one launch over a contiguous list of rows (Alg. 2).
//   count     per bin: expand column keys, sort, count distinct -> nnz(C_i).
//   fill      per bin: expand (column << PBITS | product index) keys with the
//             products in shared memory, sort, and sum each run of equal columns
//             in product order -> C's columns and values (count-then-fill).
//   long rows more products than the largest bin holds: the reference global
//             ESC on those rows only, in row slices within the memory budget.
//
// Determinism: the product index in the low key bits makes the sort order total,
// and each column's sum runs sequentially in product order (the order of the
// host Gustavson), so C is bitwise the same run after run; no floating-point
// atomics anywhere. Policy (bin shapes) / agent (RowEsc) / dispatch
// (launch_bin) follow CUB's split.
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_scan.cuh>

#include <array>
#include <limits>
#include <vector>

#include "core/log.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {

// ---- policy -----------------------------------------------------------------
// Bin b holds rows whose expansion (products, plus the fused extra entry) and
// whose nnz(A_i) both fit capacity(b) = threads x items. Bins 0-2 are one
// thread per row, the row sorted in its registers (8, 16, 32 products: the
// fused P of 2D/3D stencils, A·A of the 5-point, A·P of 7-point stencils);
// groups of up to 32 threads are logical warps (several rows per 128-thread
// block); larger groups are a whole CTA per row. The shapes were tuned on the
// H100 (docs/spgemm.md).
constexpr int kBins = 11;
__host__ __device__ constexpr int group_threads(int b) {
  constexpr int t[kBins] = {1, 1, 1, 16, 32, 32, 128, 256, 256, 512, 1024};
  return t[b];
}
__host__ __device__ constexpr int group_items(int b) {
  constexpr int t[kBins] = {8, 16, 32, 4, 4, 8, 4, 4, 8, 8, 8};
  return t[b];
}
constexpr int kThreadBins = 3;  // bins 0-2: one thread per row, in registers
constexpr int kHashOnlyFrom = 9;  // bins 9, 10: hash rows only (a sort would not fit shared memory)
__host__ __device__ constexpr int capacity(int b) { return group_threads(b) * group_items(b); }
constexpr int kLongBin = kBins;       // more than capacity(kBins - 1)
constexpr int kEmptyBin = kBins + 1;  // no products (and no extra entry)
constexpr int kAllBins = kBins + 2;
constexpr int kWarpBlock = 128;       // threads per block for logical-warp bins

// The operands of one product C = diag(s) (A B) + E as raw device pointers.
// scale and e_col/e_val are optional (null): E has at most one entry per row,
// e_col[i] < 0 when row i has none.
struct Operands {
  const offset_t* arp;
  const index_t* aci;
  const double* av;
  const offset_t* brp;
  const index_t* bci;
  const double* bv;
  const double* scale;
  const index_t* e_col;
  const double* e_val;
};

__device__ inline bool has_extra(const Operands& op, index_t row) { return op.e_col && op.e_col[row] >= 0; }

// ---- analysis ---------------------------------------------------------------
// `lanes` threads per row (1 for the short rows of A·T and A·P, up to a warp
// for the long rows of R on coarse levels; analysis_lanes()): products of the
// row and its bin. The totals are summed with integer atomics (exact and
// order-free), aggregated first: a warp sums its rows' products with shuffles
// and the items of each bin among its rows with one reduction per group of
// lanes of that bin; the block adds its counters to the global ones once,
// after a grid-stride loop. (Eight lanes per row and a shared-memory atomic
// per row took 350 us for 2M rows on the H100, half of a fused P.)
// counts[0]: products; counts[1 + 2 kAllBins + b]: items (products plus
// extra entries) of the rows of bin b, each row's counted up to 2^26 (the
// items size the thread bins' buffers, whose rows hold <= 32).
__global__ void analyse_rows_kernel(index_t rows, int lanes, Operands op, std::uint8_t* bin, index_t* ids,
                                    unsigned long long* counts) {
  __shared__ unsigned long long block_products, block_items[kAllBins];
  if (threadIdx.x == 0) block_products = 0;
  if (threadIdx.x < kAllBins) block_items[threadIdx.x] = 0;
  __syncthreads();
  const int lane = threadIdx.x % 32, sub = lane % lanes;
  unsigned long long products = 0;  // lane 0 of the warp
  const std::int64_t work = static_cast<std::int64_t>(rows) * lanes;
  // t - lane is the warp's first thread: the loop is uniform over the warp.
  for (std::int64_t t = global_thread(); t - lane < work; t += grid_stride()) {
    const std::int64_t row = t / lanes;
    std::int64_t s = 0;
    offset_t a0 = 0, a1 = 0;
    if (row < rows) {
      a0 = op.arp[row];
      a1 = op.arp[row + 1];
      for (offset_t k = a0 + sub; k < a1; k += lanes) {
        const index_t c = op.aci[k];
        s += op.brp[c + 1] - op.brp[c];
      }
    }
    for (int off = lanes / 2; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off, lanes);
    int b = kEmptyBin;
    unsigned items = 0;
    if (row < rows && sub == 0) {
      const std::int64_t need_items = s + (has_extra(op, row) ? 1 : 0);
      const std::int64_t need = need_items > a1 - a0 ? need_items : a1 - a0;
      if (need_items) {
        b = kLongBin;
#pragma unroll
        for (int i = kBins - 1; i >= 0; --i)
          if (need <= capacity(i)) b = i;
      }
      bin[row] = static_cast<std::uint8_t>(b);
      ids[row] = static_cast<index_t>(row);
      items = static_cast<unsigned>(need_items < (1 << 26) ? need_items : (1 << 26));
    } else {
      s = 0;  // only the row's first lane holds its sum
    }
    for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) products += static_cast<unsigned long long>(s);
    const unsigned peers = __match_any_sync(0xffffffffu, b);
    const unsigned sum = __reduce_add_sync(peers, items);
    if (lane == __ffs(peers) - 1 && sum) atomicAdd(&block_items[b], static_cast<unsigned long long>(sum));
  }
  if (lane == 0 && products) atomicAdd(&block_products, products);
  __syncthreads();
  if (threadIdx.x == 0 && block_products) atomicAdd(counts, block_products);
  if (threadIdx.x < kAllBins && block_items[threadIdx.x])
    atomicAdd(counts + 1 + 2 * kAllBins + threadIdx.x, block_items[threadIdx.x]);
}

// Lanes per row of the analysis: about eight entries of A's row per lane.
int analysis_lanes(std::int64_t nnz, index_t rows) {
  const double mean = rows ? static_cast<double>(nnz) / rows : 0.0;
  int lanes = 1;
  while (lanes < 32 && lanes * 8 < mean) lanes *= 2;
  return lanes;
}

__global__ void bin_bounds_kernel(const std::uint8_t* bin, index_t rows, unsigned long long* begin,
                                  unsigned long long* end) {
  for (std::int64_t i = global_thread(); i < rows; i += grid_stride()) {
    const int b = bin[i];
    if (i == 0 || bin[i - 1] != b) begin[b] = static_cast<unsigned long long>(i);
    if (i == rows - 1 || bin[i + 1] != b) end[b] = static_cast<unsigned long long>(i + 1);
  }
}

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
  __device__ static void run(Storage& sm, index_t row, int lane, unsigned mask, const Operands& op, int end_bit,
                             int* nnz_out, unsigned long long* nnz_total, const offset_t* crp, index_t* ccol,
                             double* cval, int* mismatch) {
    const offset_t a0 = op.arp[row];
    const int m = static_cast<int>(op.arp[row + 1] - a0);

    // Product offsets of the row's entries (exclusive scan in chunks).
    int base = 0;
    for (int j0 = 0; j0 < m; j0 += THREADS) {
      const int j = j0 + lane;
      int len = 0;
      if (j < m) {
        const index_t k = op.aci[a0 + j];
        len = static_cast<int>(op.brp[k + 1] - op.brp[k]);
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
        const offset_t ka = a0 + lo;
        const offset_t kb = op.brp[op.aci[ka]] + (p - sm.u.off[lo]);
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
      const offset_t c0 = crp[row];
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

template <int THREADS, int ITEMS, class Key, bool FILL>
__global__ void __launch_bounds__(RowEsc<THREADS, ITEMS, Key, FILL>::kBlock)
    row_esc_kernel(const index_t* ids, index_t count, Operands op, int end_bit, int* nnz_out,
                   unsigned long long* nnz_total, const offset_t* crp, index_t* ccol, double* cval, int* mismatch) {
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
// direct: thread rows only: count and write each row as it finishes into a
// bump-allocated buffer (assembly: direct).
enum class Pass { count, fill, numeric, direct };

// How a hash row works, per product: lanes per entry of A's row (a power of
// two <= 32) and whether the fill looks a column's rank up in a rank table
// (`lookup: table`) or by binary search over the sorted row (`search`).
struct HashShape {
  int team = 1;
  bool rank_table = false;
};

// Hash rows' sorted columns kept from the count pass for the fill
// (`hash_columns: keep`): the count pass sorts each row's distinct columns
// anyway to keep them, and the fill then skips the insertion, compaction and
// sort (it becomes a numeric pass plus a copy). The buffer is split into
// kStoreRegions regions with a cursor each, chosen by row id, so that
// millions of rows do not queue on one atomic; a row that does not fit its
// region gets start -1 and is recounted by the fill.
constexpr int kStoreRegions = 32;
struct StoredCols {
  unsigned long long* cursors = nullptr;  // kStoreRegions
  std::int64_t region = 0;                // entries per region
  index_t* col = nullptr;
  std::int64_t* start = nullptr;          // per row of A
};

template <int THREADS, int ITEMS, Pass PASS>
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
    offset_t kb0[kStaged];            // where each entry's row of B starts
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

  __device__ static void run(Storage& sm, index_t row, int lane, unsigned mask, const Operands& op, HashShape shape,
                             StoredCols stored, int* nnz_out, unsigned long long* nnz_total, const offset_t* crp,
                             index_t* ccol, double* cval, int* mismatch) {
    const offset_t a0 = op.arp[row];
    const int m = static_cast<int>(op.arp[row + 1] - a0);
    const int tb = shape.team < THREADS ? shape.team : THREADS;
    const int teams = THREADS / tb, team = lane / tb, tl = lane % tb;
    const bool extra = has_extra(op, row);
    int n = 0;
    offset_t c0 = 0;

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
          const offset_t b0 = op.brp[k];
          len = static_cast<int>(op.brp[k + 1] - b0);
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
            offset_t kb = sm.kb0[j] + (p - sm.off[j]);
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
            for (offset_t kb = op.brp[k] + tl; kb < op.brp[k + 1]; kb += tb) fresh += insert(sm.u.table, op.bci[kb]);
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
          offset_t b0, b1;
          if (staged) {
            b0 = sm.kb0[j];
            b1 = b0 + (sm.off[j + 1] - sm.off[j]);
          } else {
            const index_t k = op.aci[a0 + j];
            b0 = op.brp[k];
            b1 = op.brp[k + 1];
          }
          for (offset_t kb = b0 + tl; kb < b1; kb += tb) {
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

template <int THREADS, int ITEMS, Pass PASS>
__global__ void __launch_bounds__(RowHash<THREADS, ITEMS, PASS>::kBlock)
    row_hash_kernel(const index_t* ids, index_t count, Operands op, HashShape shape, StoredCols stored, int* nnz_out,
                    unsigned long long* nnz_total, const offset_t* crp, index_t* ccol, double* cval, int* mismatch) {
  using Agent = RowHash<THREADS, ITEMS, PASS>;
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


// ---- agent: one row per thread, in registers (000_… "thread" rows) --------
// The row's products are expanded into ITEMS registers (a cursor walks A's
// row and the rows of B; every index is a compile-time constant after
// unrolling, so nothing spills), sorted by column with a bitonic network and
// contracted sequentially. The network is fixed, so the order in which equal
// columns are summed is the same in every run. The fused extra entry of E is
// merged into the sorted row as it is written.
// Where rows written as they finish go (Pass::direct): each block reserves
// its rows' total with one atomic on `cursor`; a row that does not fit below
// `capacity` gets start -1 and is filled by the fill pass instead.
struct DirectOut {
  unsigned long long* cursor = nullptr;
  std::int64_t capacity = 0;
  index_t* col = nullptr;
  double* val = nullptr;
  std::int64_t* start = nullptr;  // per row of A; also read by the fill pass to skip stored rows
};

// At least 4 (32 items), 6 (16 items) or 8 (8 items) blocks per SM: the
// register budget that keeps the fill's occupancy where it was before the
// look-ahead loads.
template <int ITEMS, Pass PASS>
__global__ void __launch_bounds__(kWarpBlock, ITEMS > 16 ? 4 : (ITEMS > 8 ? 6 : 8))
    row_thread_kernel(const index_t* ids, index_t count, Operands op, int* nnz_out, unsigned long long* nnz_total,
                      const offset_t* crp, index_t* ccol, double* cval, int* mismatch, DirectOut direct) {
  constexpr bool kValues = PASS != Pass::count;
  constexpr index_t kNone = std::numeric_limits<index_t>::max();
  using BlockScan = cub::BlockScan<int, kWarpBlock>;
  __shared__ typename BlockScan::TempStorage scan;
  __shared__ unsigned long long block_nnz, block_base;
  if (PASS == Pass::count) {
    if (threadIdx.x == 0) block_nnz = 0;
    __syncthreads();
  }
  const std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool valid = g < count;
  const index_t row = valid ? ids[g] : 0;
  index_t key[ITEMS];
  double val[kValues ? ITEMS : 1];
  {
    offset_t ka = valid ? op.arp[row] : 0;
    const offset_t a1 = valid ? op.arp[row + 1] : 0;
    offset_t kb = 0, kend = 0;
    double a = 0.0;
    // The next entry of A's row and its row of B's bounds are loaded one
    // entry ahead, so that their load chain (A's column -> B's row bounds)
    // overlaps the expansion of the current row of B instead of stalling it.
    offset_t nb = 0, nend = 0;
    double na = 0.0;
    auto load_next = [&] {
      if (ka < a1) {
        const index_t k = op.aci[ka];
        if constexpr (kValues) na = op.av[ka];
        nb = op.brp[k];
        nend = op.brp[k + 1];
      }
    };
    load_next();
#pragma unroll
    for (int p = 0; p < ITEMS; ++p) {
      while (kb == kend && ka < a1) {
        kb = nb;
        kend = nend;
        a = na;
        ++ka;
        load_next();
      }
      if (kb < kend) {
        key[p] = op.bci[kb];
        if constexpr (kValues) val[p] = a * op.bv[kb];
        ++kb;
      } else {
        key[p] = kNone;
        if constexpr (kValues) val[p] = 0.0;
      }
    }
  }
#pragma unroll
  for (int size = 2; size <= ITEMS; size *= 2)
#pragma unroll
    for (int stride = size / 2; stride > 0; stride /= 2)
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const int j = i ^ stride;
        if (j > i) {
          const bool up = (i & size) == 0;
          if ((key[i] > key[j]) == up) {
            const index_t t = key[i];
            key[i] = key[j];
            key[j] = t;
            if constexpr (kValues) {
              const double u = val[i];
              val[i] = val[j];
              val[j] = u;
            }
          }
        }
      }
  const index_t e_col = valid && has_extra(op, row) ? op.e_col[row] : kNone;

  // Distinct columns, with the extra entry's.
  int n = 0;
  if (PASS == Pass::count || PASS == Pass::direct) {
    bool e_seen = false;
#pragma unroll
    for (int p = 0; p < ITEMS; ++p) {
      if (key[p] != kNone && (p == 0 || key[p] != key[p - 1])) ++n;
      e_seen |= key[p] == e_col;
    }
    if (e_col != kNone && !e_seen) ++n;
  }
  if constexpr (PASS == Pass::count) {
    if (valid) {
      nnz_out[row] = n;
      if (n) atomicAdd(&block_nnz, static_cast<unsigned long long>(n));
    }
    __syncthreads();
    if (threadIdx.x == 0 && block_nnz) atomicAdd(nnz_total, block_nnz);
    return;
  }

  // Where the row goes: C (fill, numeric) or the direct buffer.
  std::int64_t c0 = 0;
  int len = 0;
  bool write = valid;
  if constexpr (PASS == Pass::direct) {
    int offset, block_total;
    BlockScan(scan).ExclusiveSum(n, offset, block_total);
    if (threadIdx.x == 0) {
      block_base = block_total ? atomicAdd(direct.cursor, static_cast<unsigned long long>(block_total)) : 0;
      if (block_total) atomicAdd(nnz_total, static_cast<unsigned long long>(block_total));
    }
    __syncthreads();
    c0 = static_cast<std::int64_t>(block_base) + offset;
    len = n;
    const bool fits = c0 + n <= direct.capacity;
    if (valid) {
      nnz_out[row] = n;
      direct.start[row] = fits ? c0 : -1;
    }
    write = valid && fits;
  } else {
    if (valid && direct.start && direct.start[row] >= 0) write = false;  // stored by the direct pass
    if (write) {
      c0 = crp[row];
      len = static_cast<int>(crp[row + 1] - c0);
    }
  }
  // The rows are written through a per-warp staging buffer, kStage entries of
  // each row per round, so that a warp's stores cover whole sectors: a thread
  // storing its own row touched a sector per entry, and ncu showed the fill of
  // A·P (3D 7-pt) bound by L2 store traffic (804 us, L2 65%, DRAM 18%).
  // Each round repeats the contraction (registers only) and stages the
  // entries [lo, lo + kStage) of every row; round 0 also counts the row.
  constexpr int kStage = 16, kStride = kStage + 1;  // odd stride: no bank conflicts
  __shared__ index_t stage_col[kWarpBlock / 32][32 * kStride];
  __shared__ double stage_val[kWarpBlock / 32][32 * kStride];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  index_t* out_col = PASS == Pass::direct ? direct.col : ccol;
  double* out_val = PASS == Pass::direct ? direct.val : cval;
  const double s = valid && op.scale ? op.scale[row] : 1.0;
  const double e = e_col != kNone ? op.e_val[row] : 0.0;
  int rows_out = 0;  // entries of this row to store (all rows of the warp after round 0)
  int rounds = 1;
  for (int round = 0; round < rounds; ++round) {
    const int lo = round * kStage;
    int r = 0;
    bool e_done = e_col == kNone;
    auto put = [&](index_t c, double v) {
      if (r >= lo && r < lo + kStage && r < len) {
        stage_col[warp][lane * kStride + (r - lo)] = c;
        stage_val[warp][lane * kStride + (r - lo)] = v;
      }
      ++r;
    };
    double sum = 0.0;
#pragma unroll
    for (int p = 0; p < ITEMS; ++p) {
      if (key[p] == kNone) continue;
      sum += val[p];
      if (p + 1 == ITEMS || key[p + 1] != key[p]) {  // the run of key[p] ends here
        const index_t c = key[p];
        if (!e_done && e_col < c) {
          put(e_col, e);
          e_done = true;
        }
        double v = op.scale ? sum * s : sum;
        if (!e_done && e_col == c) {
          v = e + v;
          e_done = true;
        }
        put(c, v);
        sum = 0.0;
      }
    }
    if (!e_done) put(e_col, e);
    if (round == 0) {
      if (write && r != len) atomicExch(mismatch, 1);
      rows_out = write ? (r < len ? r : len) : 0;
      const int most = __reduce_max_sync(0xffffffffu, rows_out);
      rounds = (most + kStage - 1) / kStage;
    }
    __syncwarp();
    // Row l's entries [lo, lo + kStage) go out as one contiguous run.
    for (int idx = lane; idx < 32 * kStage; idx += 32) {
      const int l = idx / kStage, q = idx % kStage;
      const int nl = __shfl_sync(0xffffffffu, rows_out, l);
      const std::int64_t cl = __shfl_sync(0xffffffffu, c0, l);
      if (lo + q < nl) {
        out_col[cl + lo + q] = stage_col[warp][l * kStride + q];
        out_val[cl + lo + q] = stage_val[warp][l * kStride + q];
      }
    }
    __syncwarp();
  }
}

// Rows written by the direct pass, moved to their place in C (a thread per row).
__global__ void place_direct_rows(const index_t* ids, index_t count, const std::int64_t* start, const index_t* dcol,
                                  const double* dval, const offset_t* crp, index_t* ccol, double* cval) {
  for (std::int64_t g = global_thread(); g < count; g += grid_stride()) {
    const index_t row = ids[g];
    const std::int64_t from = start[row];
    if (from < 0) continue;
    const offset_t c0 = crp[row], n = crp[row + 1] - c0;
    for (offset_t q = 0; q < n; ++q) {
      ccol[c0 + q] = dcol[from + q];
      cval[c0 + q] = dval[from + q];
    }
  }
}

// ---- dispatch ---------------------------------------------------------------
struct LaunchArgs {
  const index_t* ids;
  index_t count;
  Operands op;
  int col_bits;
  bool hash;      // hash accumulator (else sort-based ESC rows)
  HashShape shape;  // hash rows: team and lookup
  StoredCols stored;  // hash rows: columns kept by the count for the fill
  int* nnz_out;
  unsigned long long* nnz_total;
  const offset_t* crp;
  index_t* ccol;
  double* cval;
  int* mismatch;
  DirectOut direct;  // thread bins: the direct pass's buffer (fill: which rows it stored)
};

template <int THREADS, int ITEMS, class Key, bool FILL>
void launch_sort(const LaunchArgs& a) {
  using Agent = RowEsc<THREADS, ITEMS, Key, FILL>;
  const int end_bit = a.col_bits + (FILL ? Agent::kPBits : 0);
  const unsigned grid = static_cast<unsigned>((a.count + Agent::kGroups - 1) / Agent::kGroups);
  row_esc_kernel<THREADS, ITEMS, Key, FILL><<<grid, Agent::kBlock, 0, ::saga::device_stream()>>>(
      a.ids, a.count, a.op, end_bit, a.nnz_out, a.nnz_total, a.crp, a.ccol, a.cval, a.mismatch);
  SAGA_CUDA_LAUNCH(FILL ? "binned SpGEMM fill (sort)" : "binned SpGEMM count (sort)");
}

template <int THREADS, int ITEMS, Pass PASS>
void launch_hash(const LaunchArgs& a) {
  using Agent = RowHash<THREADS, ITEMS, PASS>;
  const unsigned grid = static_cast<unsigned>((a.count + Agent::kGroups - 1) / Agent::kGroups);
  constexpr std::size_t bytes = sizeof(typename Agent::Storage) * Agent::kGroups;
  static_assert(bytes <= 200 * 1024, "a hash bin's shared memory must fit one SM");
  if constexpr (bytes > 48 * 1024) {
    // Once per device and process; cheap to repeat, so no flag is kept.
    SAGA_CUDA(cudaFuncSetAttribute(row_hash_kernel<THREADS, ITEMS, PASS>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  }
  row_hash_kernel<THREADS, ITEMS, PASS><<<grid, Agent::kBlock, bytes, ::saga::device_stream()>>>(
      a.ids, a.count, a.op, a.shape, a.stored, a.nnz_out, a.nnz_total, a.crp, a.ccol, a.cval, a.mismatch);
  SAGA_CUDA_LAUNCH(PASS == Pass::count ? "binned SpGEMM count (hash)" : "binned SpGEMM fill (hash)");
}

template <int ITEMS, Pass PASS>
void launch_thread(const LaunchArgs& a) {
  const unsigned grid = static_cast<unsigned>((a.count + kWarpBlock - 1) / kWarpBlock);
  row_thread_kernel<ITEMS, PASS><<<grid, kWarpBlock, 0, ::saga::device_stream()>>>(
      a.ids, a.count, a.op, a.nnz_out, a.nnz_total, a.crp, a.ccol, a.cval, a.mismatch, a.direct);
  SAGA_CUDA_LAUNCH(PASS == Pass::count ? "binned SpGEMM count (thread)" : "binned SpGEMM fill (thread)");
}

template <int B>
void launch_bin(const LaunchArgs& a, Pass pass) {
  constexpr int T = group_threads(B), I = group_items(B);
  if constexpr (B < kThreadBins) {
    if (pass == Pass::count) return launch_thread<I, Pass::count>(a);
    if (pass == Pass::direct) return launch_thread<I, Pass::direct>(a);
    return launch_thread<I, Pass::fill>(a);
  } else if constexpr (B >= kHashOnlyFrom) {
    if (pass == Pass::count) return launch_hash<T, I, Pass::count>(a);
    if (pass == Pass::fill) return launch_hash<T, I, Pass::fill>(a);
    return launch_hash<T, I, Pass::numeric>(a);
  } else {
    // The numeric phase uses the fill's method, so that it reproduces a fresh
    // product bitwise.
    if (a.hash) {
      if (pass == Pass::count) return launch_hash<T, I, Pass::count>(a);
      if (pass == Pass::fill) return launch_hash<T, I, Pass::fill>(a);
      return launch_hash<T, I, Pass::numeric>(a);
    }
    constexpr int pbits = RowEsc<T, I, std::uint32_t, true>::kPBits;
    if (pass == Pass::count) return launch_sort<T, I, std::uint32_t, false>(a);
    if (a.col_bits + pbits <= 32) return launch_sort<T, I, std::uint32_t, true>(a);
    launch_sort<T, I, std::uint64_t, true>(a);
  }
}

void launch(int bin, const LaunchArgs& a, Pass pass) {
  switch (bin) {
    case 0: return launch_bin<0>(a, pass);
    case 1: return launch_bin<1>(a, pass);
    case 2: return launch_bin<2>(a, pass);
    case 3: return launch_bin<3>(a, pass);
    case 4: return launch_bin<4>(a, pass);
    case 5: return launch_bin<5>(a, pass);
    case 6: return launch_bin<6>(a, pass);
    case 7: return launch_bin<7>(a, pass);
    case 8: return launch_bin<8>(a, pass);
    case 9: return launch_bin<9>(a, pass);
    case 10: return launch_bin<10>(a, pass);
  }
  static_assert(kBins == 11, "launch() names every bin");
}

// ---- long rows: the reference global ESC on a row subset --------------------
__global__ void gather_lengths_kernel(const index_t* ids, index_t count, const offset_t* rp, offset_t* len) {
  for (std::int64_t i = global_thread(); i < count; i += grid_stride()) len[i] = rp[ids[i] + 1] - rp[ids[i]];
}

// One warp per row: copies row ids[i] of (src_rp, ...) to row i of dst, or,
// with to_rows, row i of src to row ids[i] of dst.
// A destination row of another length is flagged in *mismatch, not written.
__global__ void copy_rows_kernel(const index_t* ids, index_t count, bool to_rows, const offset_t* src_rp,
                                 const index_t* src_col, const double* src_val, const offset_t* dst_rp,
                                 index_t* dst_col, double* dst_val, int* mismatch) {
  const std::int64_t w = global_thread() / 32;
  const int lane = threadIdx.x % 32;
  if (w >= count) return;
  const index_t s = to_rows ? static_cast<index_t>(w) : ids[w];
  const index_t d = to_rows ? ids[w] : static_cast<index_t>(w);
  const offset_t s0 = src_rp[s], n = src_rp[s + 1] - s0, d0 = dst_rp[d];
  if (dst_rp[d + 1] - d0 != n) {
    if (lane == 0) atomicExch(mismatch, 1);
    return;
  }
  for (offset_t k = lane; k < n; k += 32) {
    dst_col[d0 + k] = src_col[s0 + k];
    dst_val[d0 + k] = src_val[s0 + k];
  }
}

__global__ void scatter_lengths_kernel(const index_t* ids, index_t count, const offset_t* rp, int* nnz_out,
                                       unsigned long long* nnz_total) {
  for (std::int64_t i = global_thread(); i < count; i += grid_stride()) {
    const offset_t n = rp[i + 1] - rp[i];
    nnz_out[ids[i]] = n;
    if (n) atomicAdd(nnz_total, static_cast<unsigned long long>(n));
  }
}

CsrMatrix gather_rows(const CsrMatrix& A, const index_t* ids, index_t count) {
  Array<offset_t> len(count, Space::device, "binned SpGEMM long-row lengths");
  gather_lengths_kernel<<<grid_for(count), kThreads, 0, ::saga::device_stream()>>>(ids, count, A.row_ptr().data(),
                                                                                     len.data());
  SAGA_CUDA_LAUNCH("gather_lengths");
  Array<offset_t> rp(static_cast<std::size_t>(count) + 1, Space::device, "binned SpGEMM long rows of A");
  prim::exclusive_scan_total(len.data(), rp.data(), count);
  const offset_t nnz = rp.get(count);
  Array<index_t> col(nnz, Space::device, "binned SpGEMM long rows of A");
  Array<double> val(nnz, Space::device, "binned SpGEMM long rows of A");
  Array<int> flag(1, Space::device, "binned SpGEMM gather check");
  SAGA_CUDA(cudaMemsetAsync(flag.data(), 0, sizeof(int), ::saga::device_stream()));
  copy_rows_kernel<<<grid_for(static_cast<std::int64_t>(count) * 32), kThreads, 0, ::saga::device_stream()>>>(
      ids, count, false, A.row_ptr().data(), A.col().data(), A.val().data(), rp.data(), col.data(), val.data(),
      flag.data());
  SAGA_CUDA_LAUNCH("gather_rows");
  return CsrMatrix(count, A.cols(), std::move(rp), std::move(col), std::move(val));
}

}  // namespace

// ---- the plan: rows of C grouped by bin -----------------------------------
struct BinnedPlan {
  index_t rows = 0;
  std::array<index_t, kAllBins> begin{}, end{};
  std::array<std::int64_t, kAllBins> items{};  // products plus extra entries, per bin
  Array<index_t> ids;  // rows of A, ordered by bin
  std::int64_t products = 0;
  std::int64_t workspace_bytes = 0;
  // What the plan was made for (a numeric phase checks its operands against it).
  offset_t a_nnz = 0, b_nnz = 0;
  index_t b_rows = 0, b_cols = 0;
  bool extra = false;
  bool extra_multiple = false;  // E had a row of more than one entry (the fused product does not apply)

  index_t count(int b) const { return end[b] - begin[b]; }
  const index_t* rows_of(int b) const { return ids.data() + begin[b]; }
};

namespace {

Operands operands(const CsrMatrix& A, const CsrMatrix& B, const double* scale, const index_t* e_col,
                  const double* e_val) {
  return {A.row_ptr().data(), A.col().data(), A.val().data(), B.row_ptr().data(), B.col().data(), B.val().data(),
          scale, e_col, e_val};
}

// `multiple`: the fused product's check of E (a device flag), read back with
// the plan's counts rather than in a host synchronisation of its own.
BinnedPlan make_plan(const CsrMatrix& A, const CsrMatrix& B, const Operands& op, const int* multiple = nullptr) {
  BinnedPlan plan;
  const index_t m = A.rows();
  plan.rows = m;
  plan.a_nnz = A.nnz();
  plan.b_nnz = B.nnz();
  plan.b_rows = B.rows();
  plan.b_cols = B.cols();
  plan.extra = op.e_col != nullptr;
  plan.ids = Array<index_t>(m, Space::device, "binned SpGEMM rows by bin");
  if (m == 0) return plan;
  Array<std::uint8_t> bin(m, Space::device, "binned SpGEMM bin of each row");
  Array<index_t> ids(m, Space::device, "binned SpGEMM row ids");
  // [0]: products; [1, 1 + kAllBins): first row of each bin; then the ends,
  // the items per bin, and the flag `multiple`. One copy to the host brings
  // all of them.
  constexpr int kFlag = 1 + 3 * kAllBins;
  Array<unsigned long long> counts(kFlag + 1, Space::device, "binned SpGEMM plan counts");
  SAGA_CUDA(cudaMemsetAsync(counts.data(), 0, counts.size() * sizeof(unsigned long long), ::saga::device_stream()));
  const int lanes = analysis_lanes(A.nnz(), m);
  analyse_rows_kernel<<<grid_capped(static_cast<std::int64_t>(m) * lanes, 2048), kThreads, 0,
                        ::saga::device_stream()>>>(m, lanes, op, bin.data(), ids.data(), counts.data());
  SAGA_CUDA_LAUNCH("binned SpGEMM analysis");

  // Stable sort of the row ids by bin (4 key bits: one radix pass).
  Array<std::uint8_t> sorted_bin(m, Space::device, "binned SpGEMM sorted bins");
  std::size_t temp_bytes = 0;
  SAGA_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, bin.data(), sorted_bin.data(), ids.data(),
                                            plan.ids.data(), static_cast<std::int64_t>(m), 0, 4,
                                            ::saga::device_stream()));
  Array<std::uint8_t> temp(temp_bytes, Space::device, "binned SpGEMM sort temporary storage");
  SAGA_CUDA(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, bin.data(), sorted_bin.data(), ids.data(),
                                            plan.ids.data(), static_cast<std::int64_t>(m), 0, 4,
                                            ::saga::device_stream()));
  bin_bounds_kernel<<<grid_for(m), kThreads, 0, ::saga::device_stream()>>>(sorted_bin.data(), m, counts.data() + 1,
                                                                           counts.data() + 1 + kAllBins);
  SAGA_CUDA_LAUNCH("binned SpGEMM bin bounds");
  if (multiple)  // an int into the zeroed low bytes of a (little-endian) 64-bit slot
    SAGA_CUDA(cudaMemcpyAsync(counts.data() + kFlag, multiple, sizeof(int), cudaMemcpyDeviceToDevice,
                              ::saga::device_stream()));
  const std::vector<unsigned long long> h = counts.to_vector();
  plan.extra_multiple = h[kFlag] != 0;
  for (int b = 0; b < kAllBins; ++b) {
    plan.begin[b] = static_cast<index_t>(h[1 + b]);
    plan.end[b] = static_cast<index_t>(h[1 + kAllBins + b]);
  }
  plan.products = static_cast<std::int64_t>(h[0]);
  for (int b = 0; b < kAllBins; ++b) plan.items[b] = static_cast<std::int64_t>(h[1 + 2 * kAllBins + b]);
  plan.workspace_bytes = static_cast<std::int64_t>(m) * (2 * sizeof(std::uint8_t) + 2 * sizeof(index_t)) +
                         static_cast<std::int64_t>(temp_bytes);
  return plan;
}

// Count-then-fill (or fill only, when C's structure is given). Returns C's
// long-row part for reuse by the fill when it ran the count.
struct LongRows {
  CsrMatrix C;
  bool done = false;
};

LongRows long_rows_product(const CsrMatrix& A, const CsrMatrix& B, const BinnedPlan& plan, const SpgemmOptions& opt,
                           SpgemmStats* esc_stats) {
  LongRows lr;
  const index_t n = plan.count(kLongBin);
  if (n == 0) return lr;
  const CsrMatrix A_long = gather_rows(A, plan.rows_of(kLongBin), n);
  lr.C = spgemm_esc(A_long, B, opt, esc_stats);
  lr.done = true;
  return lr;
}

// The component's settings.
struct BinnedConfig {
  SpgemmOptions opt;
  // rows of bins >= kThreadBins: "hash", "sort", or "auto" (hash from
  // hash_from_capacity products per row up, sort below; docs/spgemm.md).
  std::string rows = "auto";
  int hash_from_capacity = 128;
  // "count": count, then fill every row; "direct": rows of up to 32 products
  // are written as they finish (DCSR-style bump allocation, 004_… §3.2) and
  // moved into C after the scan, so their count pass is the fill.
  std::string assembly = "count";
  std::string lookup = "search";  // hash rows' fill: search (binary) or table (rank table)
  bool keep_columns = true;       // hash rows: the count pass keeps the sorted columns for the fill
  int team_lanes = 0;             // hash rows: lanes per entry of A's row; 0: from the product
  bool hash(int bin) const {
    return rows == "hash" || (rows == "auto" && capacity(bin) >= hash_from_capacity);
  }
};

// Lanes per entry of A's row: the mean length of the rows of B the product
// reads, rounded to the nearest power of two (at most a warp).
int team_size(const BinnedPlan& plan) {
  const double mean = plan.a_nnz ? static_cast<double>(plan.products) / plan.a_nnz : 1.0;
  int t = 1;
  while (t < 32 && t < mean) t *= 2;
  if (t > 1 && mean <= 0.75 * t) t /= 2;  // nearest: Pᵀ(AP) reads rows of 8.1 entries, 8 lanes not 16
  return t;
}

LaunchArgs args_for(const BinnedPlan& plan, int b, const Operands& op, int col_bits, const BinnedConfig& cfg) {
  LaunchArgs a{};
  a.ids = plan.rows_of(b);
  a.count = plan.count(b);
  a.op = op;
  a.col_bits = col_bits;
  a.hash = cfg.hash(b);
  a.shape.team = cfg.team_lanes > 0 ? cfg.team_lanes : team_size(plan);
  a.shape.rank_table = cfg.lookup == "table";
  return a;
}

// Fill pass over all bins into C's (given) structure; long rows are copied
// from lr. Throws when C's row lengths do not match the product's.
// `check`: read the structure flag back (a host synchronisation); a fresh
// product's structure comes from its own count pass and needs no check.
void fill_pass(const BinnedPlan& plan, const Operands& op, int col_bits, const LongRows& lr, CsrMatrix& C,
               const BinnedConfig& cfg, Pass pass, bool check, const char* what, DirectOut stored = {},
               StoredCols kept = {}) {
  Array<int> mismatch(1, Space::device, "binned SpGEMM structure check");
  SAGA_CUDA(cudaMemsetAsync(mismatch.data(), 0, sizeof(int), ::saga::device_stream()));
  // C's arrays are written through raw pointers: the matrix keeps its analyses.
  index_t* ccol = const_cast<index_t*>(C.col().data());
  double* cval = const_cast<double*>(C.val().data());
  for (int b = 0; b < kBins; ++b) {
    if (plan.count(b) == 0) continue;
    LaunchArgs a = args_for(plan, b, op, col_bits, cfg);
    a.crp = C.row_ptr().data();
    a.ccol = ccol;
    a.cval = cval;
    a.mismatch = mismatch.data();
    a.direct = stored;  // rows the direct pass already wrote are skipped
    a.stored = kept;    // hash rows whose columns the count pass kept
    launch(b, a, pass);
  }
  const index_t nl = plan.count(kLongBin);
  if (nl) {
    SAGA_REQUIRE(lr.done, "binned SpGEMM: long rows were not computed");
    copy_rows_kernel<<<grid_for(static_cast<std::int64_t>(nl) * 32), kThreads, 0, ::saga::device_stream()>>>(
        plan.rows_of(kLongBin), nl, true, lr.C.row_ptr().data(), lr.C.col().data(), lr.C.val().data(),
        C.row_ptr().data(), ccol, cval, mismatch.data());
    SAGA_CUDA_LAUNCH("binned SpGEMM long rows");
  }
  SAGA_REQUIRE(!check || mismatch.get(0) == 0, "{}: C does not have the structure of this product (a row's length differs)",
               what);
}

CsrMatrix binned_product(const CsrMatrix& A, const CsrMatrix& B, const Operands& op, BinnedPlan plan,
                         const BinnedConfig& cfg, SpgemmStats* stats) {
  const SpgemmOptions& opt = cfg.opt;
  const index_t m = A.rows(), n = B.cols();
  const int col_bits = prim::bits_for(n);
  SpgemmStats esc_stats;
  const LongRows lr = long_rows_product(A, B, plan, opt, &esc_stats);

  // Count; with assembly: direct, the thread bins' rows are also written, as
  // they finish, into a buffer of their upper bound (within the budget).
  Array<int> nnz_row(m, Space::device, "binned SpGEMM nnz per row of C");
  Array<unsigned long long> total(2, Space::device, "binned SpGEMM nnz(C) and direct cursor");
  if (m) SAGA_CUDA(cudaMemsetAsync(nnz_row.data(), 0, m * sizeof(int), ::saga::device_stream()));
  SAGA_CUDA(cudaMemsetAsync(total.data(), 0, 2 * sizeof(unsigned long long), ::saga::device_stream()));
  std::int64_t direct_items = 0;
  for (int b = 0; b < kThreadBins; ++b) direct_items += plan.items[b];
  direct_items = std::min<std::int64_t>(direct_items, static_cast<std::int64_t>(opt.budget_now() / 12));
  const bool direct = cfg.assembly == "direct" && direct_items > 0;
  DirectOut out;
  Array<index_t> direct_col;
  Array<double> direct_val;
  Array<std::int64_t> direct_start;
  if (direct) {
    direct_col = Array<index_t>(direct_items, Space::device, "binned SpGEMM rows written as they finish");
    direct_val = Array<double>(direct_items, Space::device, "binned SpGEMM rows written as they finish");
    direct_start = Array<std::int64_t>(m, Space::device, "binned SpGEMM direct row starts");
    out = DirectOut{total.data() + 1, direct_items, direct_col.data(), direct_val.data(), direct_start.data()};
  }
  // The hash rows' sorted columns, kept by the count for the fill: room for
  // at most their products, nnz(A) + nnz(B) (a third of the operands' bytes,
  // which the setup's memory model covers; Pᵀ(AP) and A·P of the seed
  // stencils fit, A·A of wide rows partly) and the budget. Rows past the room
  // are recounted by the fill.
  std::int64_t hash_items = 0;
  for (int b = kThreadBins; b < kBins; ++b)
    if (b >= kHashOnlyFrom || cfg.hash(b)) hash_items += plan.items[b];
  const std::int64_t keep_items =
      std::min({hash_items, static_cast<std::int64_t>(A.nnz()) + static_cast<std::int64_t>(B.nnz()),
                static_cast<std::int64_t>(opt.budget_now() / sizeof(index_t))});
  StoredCols kept;
  Array<index_t> kept_col;
  Array<std::int64_t> kept_start;
  Array<unsigned long long> kept_cursors;
  // Kept only where the room holds an eighth of the products or more: the
  // setup's products have 3-10 products per column of C and fit; where most
  // rows would not fit (A·A of R-MAT: 932M products, room for 21M), the count
  // pass would sort rows for nothing (R-MAT A·A 207 -> 246 ms, 3D 27-pt A·A
  // 21 -> 26 ms on the H100).
  if (cfg.keep_columns && keep_items >= kStoreRegions && 8 * keep_items >= hash_items) {
    kept_col = Array<index_t>(keep_items, Space::device, "binned SpGEMM hash rows' kept columns");
    kept_start = Array<std::int64_t>(m, Space::device, "binned SpGEMM hash rows' kept starts");
    kept_cursors = Array<unsigned long long>(kStoreRegions, Space::device, "binned SpGEMM kept-column cursors");
    SAGA_CUDA(cudaMemsetAsync(kept_cursors.data(), 0, kStoreRegions * sizeof(unsigned long long),
                              ::saga::device_stream()));
    kept = StoredCols{kept_cursors.data(), keep_items / kStoreRegions, kept_col.data(), kept_start.data()};
  }
  for (int b = 0; b < kBins; ++b) {
    if (plan.count(b) == 0) continue;
    LaunchArgs a = args_for(plan, b, op, col_bits, cfg);
    a.nnz_out = nnz_row.data();
    a.nnz_total = total.data();
    a.direct = out;
    a.stored = kept;
    launch(b, a, direct && b < kThreadBins ? Pass::direct : Pass::count);
  }
  if (lr.done) {
    scatter_lengths_kernel<<<grid_for(plan.count(kLongBin)), kThreads, 0, ::saga::device_stream()>>>(
        plan.rows_of(kLongBin), plan.count(kLongBin), lr.C.row_ptr().data(), nnz_row.data(), total.data());
    SAGA_CUDA_LAUNCH("binned SpGEMM long-row lengths");
  }
  const std::int64_t nnz = static_cast<std::int64_t>(total.get(0));
  checked_offset(nnz, "SpGEMM result");  // throws, naming the size, before the int32 scan
  Array<offset_t> row_ptr(static_cast<std::size_t>(m) + 1, Space::device, "SpGEMM row_ptr");
  prim::exclusive_scan_total(nnz_row.data(), row_ptr.data(), m);
  nnz_row = Array<int>();

  // Fill.
  CsrMatrix C(m, n, std::move(row_ptr), Array<index_t>(nnz, Space::device, "SpGEMM col"),
              Array<double>(nnz, Space::device, "SpGEMM val"));
  fill_pass(plan, op, col_bits, lr, C, cfg, Pass::fill, false, "binned SpGEMM", out, kept);
  if (direct)
    for (int b = 0; b < kThreadBins; ++b) {
      if (plan.count(b) == 0) continue;
      place_direct_rows<<<grid_for(plan.count(b)), kThreads, 0, ::saga::device_stream()>>>(
          plan.rows_of(b), plan.count(b), direct_start.data(), direct_col.data(), direct_val.data(),
          C.row_ptr().data(), const_cast<index_t*>(C.col().data()), const_cast<double*>(C.val().data()));
      SAGA_CUDA_LAUNCH("binned SpGEMM direct rows");
    }
  if (stats) {
    stats->products = plan.products;
    stats->nnz_c = nnz;
    stats->slices = esc_stats.slices;
    stats->budget_bytes = esc_stats.budget_bytes;
    stats->long_rows = plan.count(kLongBin);
    stats->workspace_bytes = plan.workspace_bytes + static_cast<std::int64_t>(m) * sizeof(int) +
                             (direct ? direct_items * 12 + static_cast<std::int64_t>(m) * 8 : 0) +
                             (kept.col ? keep_items * 4 + static_cast<std::int64_t>(m) * 8 : 0) +
                             (lr.done ? esc_stats.workspace_bytes + static_cast<std::int64_t>(lr.C.nnz()) * 12 : 0);
  }
  // Kept with C for a numeric-only recomputation (dropped when C changes).
  C.structural_analysis<BinnedPlan>("spgemm.binned.plan", [&](const CsrMatrix&) { return std::move(plan); });
  return C;
}

// Entries of E (at most one per row) as per-row arrays; false when a row has
// more than one entry or E has the wrong shape.
__global__ void single_entry_kernel(index_t rows, const offset_t* rp, const index_t* col, const double* val,
                                    index_t* e_col, double* e_val, int* multiple) {
  for (std::int64_t i = global_thread(); i < rows; i += grid_stride()) {
    const offset_t n = rp[i + 1] - rp[i];
    if (n > 1) atomicExch(multiple, 1);
    e_col[i] = n ? col[rp[i]] : -1;
    e_val[i] = n ? val[rp[i]] : 0.0;
  }
}

class BinnedSpgemm : public SpgemmAlgorithm {
 public:
  explicit BinnedSpgemm(BinnedConfig cfg) : cfg_(cfg) {}

  CsrMatrix multiply(const CsrMatrix& A, const CsrMatrix& B, SpgemmStats* stats) const override {
    const Operands op = operands(A, B, nullptr, nullptr, nullptr);
    return binned_product(A, B, op, make_plan(A, B, op), cfg_, stats);
  }

  CsrMatrix multiply_scaled_add(const CsrMatrix& A, const CsrMatrix& B, const Vector& s, const CsrMatrix& E,
                                SpgemmStats* stats) const override {
    SAGA_REQUIRE(E.rows() == A.rows() && E.cols() == B.cols() && s.size() == static_cast<std::size_t>(A.rows()),
                 "SpGEMM scaled add: E is {}x{} and s has {} entries for a {}x{} product", E.rows(), E.cols(),
                 s.size(), A.rows(), B.cols());
    const index_t m = A.rows();
    Array<index_t> e_col(m, Space::device, "fused SpGEMM extra columns");
    Array<double> e_val(m, Space::device, "fused SpGEMM extra values");
    Array<int> multiple(1, Space::device, "fused SpGEMM check");
    SAGA_CUDA(cudaMemsetAsync(multiple.data(), 0, sizeof(int), ::saga::device_stream()));
    if (m) {
      single_entry_kernel<<<grid_for(m), kThreads, 0, ::saga::device_stream()>>>(
          m, E.row_ptr().data(), E.col().data(), E.val().data(), e_col.data(), e_val.data(), multiple.data());
      SAGA_CUDA_LAUNCH("fused SpGEMM extra entries");
    }
    // Fused only where E has at most one entry per row and no row needs the
    // global ESC; otherwise the unfused default (same values).
    const Operands op = operands(A, B, s.data(), e_col.data(), e_val.data());
    BinnedPlan plan = make_plan(A, B, op, multiple.data());
    if (!plan.extra_multiple && plan.count(kLongBin) == 0)
      return binned_product(A, B, op, std::move(plan), cfg_, stats);
    return SpgemmAlgorithm::multiply_scaled_add(A, B, s, E, stats);
  }

  bool fuses_scaled_add() const override { return true; }

  void multiply_numeric(const CsrMatrix& A, const CsrMatrix& B, CsrMatrix& C, SpgemmStats* stats) const override {
    SAGA_REQUIRE(C.rows() == A.rows() && C.cols() == B.cols(),
                 "SpGEMM numeric phase: C is {}x{}, the product is {}x{}", C.rows(), C.cols(), A.rows(), B.cols());
    const Operands op = operands(A, B, nullptr, nullptr, nullptr);
    auto make = [&](const CsrMatrix&) { return make_plan(A, B, op); };
    BinnedPlan* plan = &C.structural_analysis<BinnedPlan>("spgemm.binned.plan", make);
    if (plan->a_nnz != A.nnz() || plan->b_nnz != B.nnz() || plan->b_rows != B.rows() || plan->b_cols != B.cols() ||
        plan->extra) {
      *plan = make_plan(A, B, op);
    }
    SpgemmStats esc_stats;
    const LongRows lr = long_rows_product(A, B, *plan, cfg_.opt, &esc_stats);
    fill_pass(*plan, op, prim::bits_for(B.cols()), lr, C, cfg_, Pass::numeric, true, "SpGEMM numeric phase");
    if (stats) {
      stats->products = plan->products;
      stats->nnz_c = C.nnz();
      stats->slices = esc_stats.slices;
      stats->budget_bytes = esc_stats.budget_bytes;
      stats->long_rows = plan->count(kLongBin);
      stats->workspace_bytes = lr.done ? esc_stats.workspace_bytes : 0;
    }
  }

 private:
  BinnedConfig cfg_;
};

struct Binned {
  static constexpr const char* name = "binned";
  static constexpr const char* summary =
      "row-binned SpGEMM: rows grouped by work, each row in registers/shared memory (hash or sorted ESC), count then "
      "fill; fused smoothed prolongator; numeric-only phase (device default)";
  static constexpr bool runs_on_host = false, runs_on_device = true;
  struct Params {
    std::string rows = "auto";
    int hash_from_products = 128;
    std::string assembly = "count";
    std::string lookup = "search";
    std::string hash_columns = "keep";
    int team = 0;
    double memory_budget_mib = 2048;
    template <class V>
    void visit(V& v) {
      v("rows", rows,
        "how a row of more than 32 products is contracted: hash (shared-memory hash set, deterministic per-team "
        "accumulators), sort (expand-sort-contract of (column, product) keys with CUB warp/block sorts), or auto "
        "(hash from hash_from_products up); rows of up to 32 products are sorted in one thread's registers",
        one_of({"auto", "hash", "sort"}));
      v("hash_from_products", hash_from_products,
        "rows: auto uses the hash rows for bins of at least this many products (64, 128, ... 8192)", at_least(64));
      v("assembly", assembly,
        "count (count the rows of C, then fill them) or direct (rows of up to 32 products are written as they "
        "finish into a buffer of their upper bound, within memory_budget_mib, and moved into C)",
        one_of({"count", "direct"}));
      v("lookup", lookup,
        "how the fill of a hash row finds a column's place in C's sorted row: search (binary search) or table (a "
        "rank table in the hash set's shared memory, where the row leaves room for it)",
        one_of({"search", "table"}));
      v("hash_columns", hash_columns,
        "keep (the count pass of a hash row keeps its sorted columns, within memory_budget_mib, and the fill "
        "uses them) or recount (the fill inserts and sorts the row again)",
        one_of({"keep", "recount"}));
      v("team", team,
        "hash rows: lanes per entry of A's row (1, 2, 4, 8, 16 or 32); 0 chooses the mean length of the rows of B "
        "read, rounded to the nearest power of two",
        in_range(0, 32));
      v("memory_budget_mib", memory_budget_mib,
        "device memory the global ESC of rows too long for a CTA may use per slice, the direct buffer, and the hash "
        "rows' kept columns (MiB)",
        positive());
    }
  };
  static std::unique_ptr<SpgemmAlgorithm> make(const Params& p) {
    BinnedConfig c;
    c.opt.memory_budget_bytes = static_cast<std::size_t>(p.memory_budget_mib * 1048576.0);
    c.rows = p.rows;
    c.assembly = p.assembly;
    c.lookup = p.lookup;
    c.keep_columns = p.hash_columns == "keep";
    SAGA_REQUIRE((p.team & (p.team - 1)) == 0, "amg.spgemm.team: {} (expected 0, 1, 2, 4, 8, 16 or 32)", p.team);
    c.team_lanes = p.team;
    c.hash_from_capacity = p.hash_from_products;
    return std::make_unique<BinnedSpgemm>(c);
  }
};
}  // namespace
void add_spgemm_binned(SpgemmRegistry& r) { r.add<Binned>(); }

}  // namespace saga::cuda
