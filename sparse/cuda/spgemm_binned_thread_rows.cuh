// The binned SpGEMM's thread rows: one row per thread, sorted in registers, written
// through a per-warp staging buffer (docs/spgemm.md).
// Included only by sparse/cuda/spgemm_binned.cu (one translation unit; the
// anonymous namespace keeps these kernels private to it).
#pragma once
#include <cub/block/block_scan.cuh>

#include <cstdint>
#include <limits>

#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/spgemm_binned_policy.cuh"

namespace saga::cuda {
namespace {

// ---- agent: one row per thread, in registers (000_… "thread" rows) --------
// The row's products are expanded into ITEMS registers (a cursor walks A's
// row and the rows of B; every index is a compile-time constant after
// unrolling, so nothing spills), sorted by column with a bitonic network and
// contracted sequentially. The network is fixed, so the order in which equal
// columns are summed is the same in every run. The fused extra entry of E is
// merged into the sorted row as it is written.

// At least 4 (32 items), 6 (16 items) or 8 (8 items) blocks per SM: the
// register budget that keeps the fill's occupancy where it was before the
// look-ahead loads.
template <int ITEMS, Pass PASS, class Off>
__global__ void __launch_bounds__(kWarpBlock, ITEMS > 16 ? 4 : (ITEMS > 8 ? 6 : 8))
    row_thread_kernel(const index_t* ids, index_t count, Operands<Off> op, int* nnz_out, unsigned long long* nnz_total,
                      const Off* crp, index_t* ccol, double* cval, int* mismatch, DirectOut direct) {
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
    Off ka = valid ? op.arp[row] : 0;
    const Off a1 = valid ? op.arp[row + 1] : 0;
    Off kb = 0, kend = 0;
    double a = 0.0;
    // The next entry of A's row and its row of B's bounds are loaded one
    // entry ahead, so that their load chain (A's column -> B's row bounds)
    // overlaps the expansion of the current row of B instead of stalling it.
    Off nb = 0, nend = 0;
    double na = 0.0;
    auto load_next = [&] {
      if (ka < a1) {
        const index_t k = op.aci[ka];
        if constexpr (kValues) na = op.av[ka];
        nb = b_begin(op, k);
        nend = b_end(op, k);
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

}  // namespace
}  // namespace saga::cuda
