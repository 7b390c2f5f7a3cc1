// Row-binned SpGEMM (000_… §3.3-3.4, docs/spgemm.md): every row of C is formed
// by a group of threads sized to the row's work, in registers and shared
// memory, instead of one device-wide sort.
//
//   analysis  per row of A: products Σ nnz(B_k) and nnz(A_i) -> a bin; rows are
//             ordered by bin (a stable 4-bit radix sort of the row ids), so each
//             bin is one launch over a contiguous list of rows (Alg. 2).
//   count     per bin: each row's distinct columns -> nnz(C_i); scan -> row_ptr.
//   fill      per bin: C's sorted columns and values (count-then-fill).
//   long rows more products than the largest bin holds: in dense shared-memory
//             accumulators where B's columns fit one (spgemm_dense_rows.cu: ~25k
//             on the H100), else by segmented merge (spgemm_merge_rows.cu;
//             long_rows: esc runs the reference global ESC on those rows); in
//             row slices within the memory budget.
//
// The rows themselves: spgemm_binned_thread_rows.cuh (up to 32 products, one
// thread), spgemm_binned_sort_rows.cuh (CUB sorts of (column, product) keys),
// spgemm_binned_hash_rows.cuh (shared-memory hash sets); the bins and the
// shared types: spgemm_binned_policy.cuh. This file: analysis, plan,
// dispatch, the product and the component.
//
// Determinism: every value of C is a sum in an order fixed by the input alone
// (docs/spgemm.md), so C is bitwise the same run after run; no floating-point
// atomics anywhere. Policy (bin shapes) / agents (one row per thread group) /
// dispatch (launch_bin) follow CUB's split.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include "core/log.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"
#include "sparse/cuda/spgemm_binned_hash_rows.cuh"
#include "sparse/cuda/spgemm_binned_policy.cuh"
#include "sparse/cuda/spgemm_binned_sort_rows.cuh"
#include "sparse/cuda/spgemm_binned_thread_rows.cuh"
#include "sparse/cuda/spgemm_dense_rows.hpp"
#include "sparse/cuda/spgemm_merge_rows.hpp"

namespace saga::cuda {

namespace {

// ---- analysis ---------------------------------------------------------------
// `lanes` threads per row (about eight entries of A's row per lane: 1 for the
// short rows of A·T and A·P, up to a warp for the long rows of R on coarse
// levels): products of the row and its bin. The totals are summed with integer
// atomics (exact and order-free), aggregated first: a warp sums its rows' products with shuffles
// and the items of each bin among its rows with one reduction per group of
// lanes of that bin; the block adds its counters to the global ones once,
// after a grid-stride loop. (Eight lanes per row and a shared-memory atomic
// per row took 350 us for 2M rows on the H100, half of a fused P.)
// counts[0]: products; counts[1 + 2 kAllBins + b]: items (products plus
// extra entries) of the rows of bin b, each row's counted up to 2^26 (the
// items size the thread bins' buffers, whose rows hold <= 32).
template <class Off>
__global__ void analyse_rows_kernel(index_t rows, int lanes, Operands<Off> op, std::uint8_t* bin, index_t* ids,
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
    Off a0 = 0, a1 = 0;
    if (row < rows) {
      a0 = op.arp[row];
      a1 = op.arp[row + 1];
      for (Off k = a0 + sub; k < a1; k += lanes) {
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


__global__ void bin_bounds_kernel(const std::uint8_t* bin, index_t rows, unsigned long long* begin,
                                  unsigned long long* end) {
  for (std::int64_t i = global_thread(); i < rows; i += grid_stride()) {
    const int b = bin[i];
    if (i == 0 || bin[i - 1] != b) begin[b] = static_cast<unsigned long long>(i);
    if (i == rows - 1 || bin[i + 1] != b) end[b] = static_cast<unsigned long long>(i + 1);
  }
}

// ---- dispatch ---------------------------------------------------------------
template <class Off>
struct LaunchArgs {
  const index_t* ids;
  index_t count;
  Operands<Off> op;
  int col_bits;
  bool hash;      // hash accumulator (else sort-based ESC rows)
  HashShape shape;  // hash rows: team and lookup
  StoredCols stored;  // hash rows: columns kept by the count for the fill
  int* nnz_out;
  unsigned long long* nnz_total;
  const Off* crp;
  index_t* ccol;
  double* cval;
  int* mismatch;
  DirectOut direct;  // thread bins: the direct pass's buffer (fill: which rows it stored)
};

template <int THREADS, int ITEMS, class Key, bool FILL, class Off>
void launch_sort(const LaunchArgs<Off>& a) {
  using Agent = RowEsc<THREADS, ITEMS, Key, FILL>;
  const int end_bit = a.col_bits + (FILL ? Agent::kPBits : 0);
  const unsigned grid = static_cast<unsigned>((a.count + Agent::kGroups - 1) / Agent::kGroups);
  row_esc_kernel<THREADS, ITEMS, Key, FILL, Off><<<grid, Agent::kBlock, 0, ::saga::device_stream()>>>(
      a.ids, a.count, a.op, end_bit, a.nnz_out, a.nnz_total, a.crp, a.ccol, a.cval, a.mismatch);
  SAGA_CUDA_LAUNCH(FILL ? "binned SpGEMM fill (sort)" : "binned SpGEMM count (sort)");
}

template <int THREADS, int ITEMS, Pass PASS, class Off>
void launch_hash(const LaunchArgs<Off>& a) {
  using Agent = RowHash<THREADS, ITEMS, PASS, Off>;
  const unsigned grid = static_cast<unsigned>((a.count + Agent::kGroups - 1) / Agent::kGroups);
  constexpr std::size_t bytes = sizeof(typename Agent::Storage) * Agent::kGroups;
  static_assert(bytes <= 200 * 1024, "a hash bin's shared memory must fit one SM");
  if constexpr (bytes > 48 * 1024) {
    // Once per device and process; cheap to repeat, so no flag is kept.
    SAGA_CUDA(cudaFuncSetAttribute(row_hash_kernel<THREADS, ITEMS, PASS, Off>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  }
  row_hash_kernel<THREADS, ITEMS, PASS, Off><<<grid, Agent::kBlock, bytes, ::saga::device_stream()>>>(
      a.ids, a.count, a.op, a.shape, a.stored, a.nnz_out, a.nnz_total, a.crp, a.ccol, a.cval, a.mismatch);
  SAGA_CUDA_LAUNCH(PASS == Pass::count ? "binned SpGEMM count (hash)" : "binned SpGEMM fill (hash)");
}

template <int ITEMS, Pass PASS, class Off>
void launch_thread(const LaunchArgs<Off>& a) {
  const unsigned grid = static_cast<unsigned>((a.count + kWarpBlock - 1) / kWarpBlock);
  row_thread_kernel<ITEMS, PASS, Off><<<grid, kWarpBlock, 0, ::saga::device_stream()>>>(
      a.ids, a.count, a.op, a.nnz_out, a.nnz_total, a.crp, a.ccol, a.cval, a.mismatch, a.direct);
  SAGA_CUDA_LAUNCH(PASS == Pass::count ? "binned SpGEMM count (thread)" : "binned SpGEMM fill (thread)");
}

template <int B, class Off>
void launch_bin(const LaunchArgs<Off>& a, Pass pass) {
  constexpr int T = group_threads(B), I = group_items(B);
  if constexpr (B < kThreadBins) {
    if (pass == Pass::count) return launch_thread<I, Pass::count, Off>(a);
    if (pass == Pass::direct) return launch_thread<I, Pass::direct, Off>(a);
    return launch_thread<I, Pass::fill, Off>(a);
  } else if constexpr (B >= kHashOnlyFrom) {
    if (pass == Pass::count) return launch_hash<T, I, Pass::count, Off>(a);
    if (pass == Pass::fill) return launch_hash<T, I, Pass::fill, Off>(a);
    return launch_hash<T, I, Pass::numeric, Off>(a);
  } else {
    // The numeric phase uses the fill's method, so that it reproduces a fresh
    // product bitwise.
    if (a.hash) {
      if (pass == Pass::count) return launch_hash<T, I, Pass::count, Off>(a);
      if (pass == Pass::fill) return launch_hash<T, I, Pass::fill, Off>(a);
      return launch_hash<T, I, Pass::numeric, Off>(a);
    }
    constexpr int pbits = RowEsc<T, I, std::uint32_t, true>::kPBits;
    if (pass == Pass::count) return launch_sort<T, I, std::uint32_t, false, Off>(a);
    if (a.col_bits + pbits <= 32) return launch_sort<T, I, std::uint32_t, true, Off>(a);
    launch_sort<T, I, std::uint64_t, true, Off>(a);
  }
}

template <class Off>
void launch(int bin, const LaunchArgs<Off>& a, Pass pass) {
  switch (bin) {
    case 0: return launch_bin<0, Off>(a, pass);
    case 1: return launch_bin<1, Off>(a, pass);
    case 2: return launch_bin<2, Off>(a, pass);
    case 3: return launch_bin<3, Off>(a, pass);
    case 4: return launch_bin<4, Off>(a, pass);
    case 5: return launch_bin<5, Off>(a, pass);
    case 6: return launch_bin<6, Off>(a, pass);
    case 7: return launch_bin<7, Off>(a, pass);
    case 8: return launch_bin<8, Off>(a, pass);
    case 9: return launch_bin<9, Off>(a, pass);
    case 10: return launch_bin<10, Off>(a, pass);
  }
  static_assert(kBins == 11, "launch() names every bin");
}

// ---- long rows: gathered, formed apart (dense, merge or ESC), copied back ----
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

// ---- offsets -----------------------------------------------------------------
// A 64-bit build (docs/design.md, "Index widths") stores every matrix's row
// offsets in 8 bytes, also those of the many products that never pass 2^31
// nonzeros, and its kernels then count positions in 64 bits (the setup's A·P
// and Pᵀ(AP) at 3D 7-pt N=512 were 9-11% slower than in the default build).
// There a product whose A and B fit 32-bit offsets counts positions in 32
// bits: it reads a 32-bit copy of A's offsets, B's as they are (taken as 32-bit
// positions, Operands), and in its fill a copy of C's where C fits too: 4 B a
// row of A and of C, made per product within the budget
// (SpgemmOptions::budget_now), so the kernels run as in the default build.
// The same entries in the same order: the same bits. A 32-bit build copies
// nothing (Off is offset_t there).
std::int64_t offsets_bytes(index_t rows) { return (static_cast<std::int64_t>(rows) + 1) * 4; }

struct ProductOperands {
  Operands<offset_t> wide;
  Operands<std::int32_t> narrow{};  // valid when has_narrow()
  Array<std::int32_t> arp;          // a 64-bit build's copy of A's offsets, when made
  bool has_narrow() const { return arp.size() > 0; }
  // The copies' bytes: A's and C's (counted whether or not C fits).
  std::int64_t copy_bytes() const { return has_narrow() ? 2 * static_cast<std::int64_t>(arp.size()) * 4 : 0; }
  int offset_bits() const { return has_narrow() ? 32 : 8 * static_cast<int>(sizeof(offset_t)); }
};

Array<std::int32_t> narrow_copy(const CsrMatrix& M, const char* what) {
  Array<std::int32_t> rp(static_cast<std::size_t>(M.rows()) + 1, Space::device, what);
  prim::narrow_offsets(M.row_ptr().data(), rp.data(), rp.size());
  return rp;
}

ProductOperands operands(const CsrMatrix& A, const CsrMatrix& B, const double* scale, const index_t* e_col,
                         const double* e_val, const SpgemmOptions& opt) {
  ProductOperands po;
  po.wide = {A.row_ptr().data(), A.col().data(), A.val().data(), B.row_ptr().data(), B.col().data(), B.val().data(),
             scale, e_col, e_val};
  if constexpr (kWideOffsets) {
    const std::int64_t bytes = 2 * offsets_bytes(A.rows());  // A's and C's
    if (A.rows() > 0 && fits_narrow_offsets(A.nnz()) && fits_narrow_offsets(B.nnz()) &&
        bytes <= static_cast<std::int64_t>(opt.budget_now())) {
      try {
        po.arp = narrow_copy(A, "binned SpGEMM 32-bit offsets of A");
      } catch (const DeviceOutOfMemory&) {
        return po;  // the 64-bit offsets, as they are
      }
      po.narrow = {po.arp.data(), po.wide.aci, po.wide.av, po.wide.brp, po.wide.bci, po.wide.bv, scale, e_col, e_val};
    }
  }
  return po;
}

// f(the operands the kernels read): the 32-bit copies where they were made.
template <class F>
void with_operands(const ProductOperands& po, F&& f) {
  if constexpr (kWideOffsets) {
    if (po.has_narrow()) return f(po.narrow);
  }
  f(po.wide);
}

// `multiple`: the fused product's check of E (a device flag), read back with
// the plan's counts rather than in a host synchronisation of its own.
BinnedPlan make_plan(const CsrMatrix& A, const CsrMatrix& B, const ProductOperands& op,
                     const int* multiple = nullptr) {
  BinnedPlan plan;
  const index_t m = A.rows();
  plan.rows = m;
  plan.a_nnz = A.nnz();
  plan.b_nnz = B.nnz();
  plan.b_rows = B.rows();
  plan.b_cols = B.cols();
  plan.extra = op.wide.e_col != nullptr;
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
  const int lanes = lanes_for(static_cast<double>(A.nnz()) / m, 8);  // m > 0 here
  with_operands(op, [&](const auto& o) {
    analyse_rows_kernel<<<grid_capped(static_cast<std::int64_t>(m) * lanes, 2048), kThreads, 0,
                          ::saga::device_stream()>>>(m, lanes, o, bin.data(), ids.data(), counts.data());
    SAGA_CUDA_LAUNCH("binned SpGEMM analysis");
  });

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

// How the long rows are formed (the `long_rows` option): `dense` in dense
// accumulators where B is narrow enough (spgemm_dense_rows.hpp), else as
// kWideLongRows; `merge` by segmented merge (spgemm_merge_rows.hpp); `esc` by
// the global ESC on those rows.
enum class LongRowMethod { dense, merge, esc };
LongRowMethod long_row_method(const std::string& name) {
  return name == "dense" ? LongRowMethod::dense : name == "merge" ? LongRowMethod::merge : LongRowMethod::esc;
}
// Long rows into a B too wide for the dense accumulators, under `dense`: the
// segmented merge, measured faster than the global ESC on every long-row
// product of the bench (H100: R-MAT 2^20 A·A's long rows 60.8 against 62.4 ms,
// benchmarks/results/spgemm_merge_rows_h100.md), in two thirds of its memory,
// and with sums that do not depend on the row slices.
constexpr LongRowMethod kWideLongRows = LongRowMethod::merge;

LongRows long_rows_product(const CsrMatrix& A, const CsrMatrix& B, const BinnedPlan& plan, const SpgemmOptions& opt,
                           LongRowMethod method, SpgemmStats* esc_stats) {
  LongRows lr;
  const index_t n = plan.count(kLongBin);
  if (n == 0) return lr;
  const CsrMatrix A_long = gather_rows(A, plan.rows_of(kLongBin), n);
  if (method == LongRowMethod::dense && !dense_rows_fit(B.cols())) method = kWideLongRows;
  switch (method) {
    case LongRowMethod::dense: lr.C = spgemm_dense_rows(A_long, B, opt, esc_stats); break;
    case LongRowMethod::merge: lr.C = spgemm_merge_rows(A_long, B, opt, esc_stats); break;
    case LongRowMethod::esc: lr.C = spgemm_esc(A_long, B, opt, esc_stats); break;
  }
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
  LongRowMethod long_rows = LongRowMethod::dense;  // rows of more than 8192 products
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

template <class Off>
LaunchArgs<Off> args_for(const BinnedPlan& plan, int b, const Operands<Off>& op, int col_bits,
                         const BinnedConfig& cfg) {
  LaunchArgs<Off> a{};
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
void fill_pass(const BinnedPlan& plan, const ProductOperands& op, int col_bits, const LongRows& lr, CsrMatrix& C,
               const BinnedConfig& cfg, Pass pass, bool check, const char* what, DirectOut stored = {},
               StoredCols kept = {}) {
  Array<int> mismatch(1, Space::device, "binned SpGEMM structure check");
  SAGA_CUDA(cudaMemsetAsync(mismatch.data(), 0, sizeof(int), ::saga::device_stream()));
  // C's arrays are written through raw pointers: the matrix keeps its analyses.
  index_t* ccol = const_cast<index_t*>(C.col().data());
  double* cval = const_cast<double*>(C.val().data());
  auto fill_bins = [&](const auto& o, const auto* crp) {
    for (int b = 0; b < kBins; ++b) {
      if (plan.count(b) == 0) continue;
      auto a = args_for(plan, b, o, col_bits, cfg);
      a.crp = crp;
      a.ccol = ccol;
      a.cval = cval;
      a.mismatch = mismatch.data();
      a.direct = stored;  // rows the direct pass already wrote are skipped
      a.stored = kept;    // hash rows whose columns the count pass kept
      launch(b, a, pass);
    }
  };
  // Where the product counts in 32 bits, C's offsets are copied too if C fits
  // them; otherwise (or without room for the copy) the fill counts in 64 bits.
  Array<std::int32_t> crp;
  if (op.has_narrow() && fits_narrow_offsets(C.nnz())) {
    try {
      crp = narrow_copy(C, "binned SpGEMM 32-bit offsets of C");
    } catch (const DeviceOutOfMemory&) {
      // no room for the copy: the fill below reads C's own offsets
    }
  }
  if (crp.size())
    fill_bins(op.narrow, crp.data());
  else
    fill_bins(op.wide, C.row_ptr().data());
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

CsrMatrix binned_product(const CsrMatrix& A, const CsrMatrix& B, const ProductOperands& op, BinnedPlan plan,
                         const BinnedConfig& cfg, SpgemmStats* stats) {
  const SpgemmOptions& opt = cfg.opt;
  const index_t m = A.rows(), n = B.cols();
  const int col_bits = prim::bits_for(n);
  SpgemmStats esc_stats;
  const LongRows lr = long_rows_product(A, B, plan, opt, cfg.long_rows, &esc_stats);

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
  with_operands(op, [&](const auto& o) {
    for (int b = 0; b < kBins; ++b) {
      if (plan.count(b) == 0) continue;
      auto a = args_for(plan, b, o, col_bits, cfg);
      a.nnz_out = nnz_row.data();
      a.nnz_total = total.data();
      a.direct = out;
      a.stored = kept;
      launch(b, a, direct && b < kThreadBins ? Pass::direct : Pass::count);
    }
  });
  if (lr.done) {
    scatter_lengths_kernel<<<grid_for(plan.count(kLongBin)), kThreads, 0, ::saga::device_stream()>>>(
        plan.rows_of(kLongBin), plan.count(kLongBin), lr.C.row_ptr().data(), nnz_row.data(), total.data());
    SAGA_CUDA_LAUNCH("binned SpGEMM long-row lengths");
  }
  const std::int64_t nnz = static_cast<std::int64_t>(total.get(0));
  checked_offset(nnz, "SpGEMM result");  // throws, naming the size, before the offsets scan
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
                             (lr.done ? esc_stats.workspace_bytes + static_cast<std::int64_t>(lr.C.nnz()) * 12 : 0) +
                             op.copy_bytes();
    stats->offset_bits = op.offset_bits();
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
    const ProductOperands op = operands(A, B, nullptr, nullptr, nullptr, cfg_.opt);
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
    // Fused only where E has at most one entry per row and no row is a long
    // row (formed apart); otherwise the unfused default (same values).
    ProductOperands op = operands(A, B, s.data(), e_col.data(), e_val.data(), cfg_.opt);
    BinnedPlan plan = make_plan(A, B, op, multiple.data());
    if (!plan.extra_multiple && plan.count(kLongBin) == 0)
      return binned_product(A, B, op, std::move(plan), cfg_, stats);
    op = ProductOperands();  // the unfused product makes its own
    return SpgemmAlgorithm::multiply_scaled_add(A, B, s, E, stats);
  }

  bool fuses_scaled_add() const override { return true; }

  void multiply_numeric(const CsrMatrix& A, const CsrMatrix& B, CsrMatrix& C, SpgemmStats* stats) const override {
    SAGA_REQUIRE(C.rows() == A.rows() && C.cols() == B.cols(),
                 "SpGEMM numeric phase: C is {}x{}, the product is {}x{}", C.rows(), C.cols(), A.rows(), B.cols());
    const ProductOperands op = operands(A, B, nullptr, nullptr, nullptr, cfg_.opt);
    auto make = [&](const CsrMatrix&) { return make_plan(A, B, op); };
    BinnedPlan* plan = &C.structural_analysis<BinnedPlan>("spgemm.binned.plan", make);
    if (plan->a_nnz != A.nnz() || plan->b_nnz != B.nnz() || plan->b_rows != B.rows() || plan->b_cols != B.cols() ||
        plan->extra) {
      *plan = make_plan(A, B, op);
    }
    SpgemmStats esc_stats;
    const LongRows lr = long_rows_product(A, B, *plan, cfg_.opt, cfg_.long_rows, &esc_stats);
    fill_pass(*plan, op, prim::bits_for(B.cols()), lr, C, cfg_, Pass::numeric, true, "SpGEMM numeric phase");
    if (stats) {
      stats->products = plan->products;
      stats->nnz_c = C.nnz();
      stats->slices = esc_stats.slices;
      stats->budget_bytes = esc_stats.budget_bytes;
      stats->long_rows = plan->count(kLongBin);
      stats->workspace_bytes = (lr.done ? esc_stats.workspace_bytes : 0) + op.copy_bytes();
      stats->offset_bits = op.offset_bits();
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
    std::string long_rows = "dense";
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
      v("long_rows", long_rows,
        "rows of more than 8192 products: dense (a CTA per chunk of the row adds its rows of B into a dense "
        "accumulator of B's columns in shared memory, where they fit: about 25k on the H100; else as merge), merge "
        "(segmented merge: sorted tiles of 2048 products merged in binary-tree rounds) or esc (the global "
        "expand-sort-contract over those rows)",
        one_of({"dense", "merge", "esc"}));
      v("team", team,
        "hash rows: lanes per entry of A's row (1, 2, 4, 8, 16 or 32); 0 chooses the mean length of the rows of B "
        "read, rounded to the nearest power of two",
        in_range(0, 32));
      v("memory_budget_mib", memory_budget_mib,
        "device memory the rows too long for a CTA may use per slice (the global ESC's expansion, the merge's "
        "buffers, the dense accumulators' partial rows), the direct buffer, and the hash rows' kept columns (MiB)",
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
    c.long_rows = long_row_method(p.long_rows);
    SAGA_REQUIRE((p.team & (p.team - 1)) == 0, "amg.spgemm.team: {} (expected 0, 1, 2, 4, 8, 16 or 32)", p.team);
    c.team_lanes = p.team;
    c.hash_from_capacity = p.hash_from_products;
    return std::make_unique<BinnedSpgemm>(c);
  }
};
}  // namespace
void add_spgemm_binned(SpgemmRegistry& r) { r.add<Binned>(); }

}  // namespace saga::cuda
