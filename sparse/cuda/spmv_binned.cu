// Adaptive-binned SpMV: the ACSR of 004 §2.1/§4.2 (rows grouped by length, a
// code path per group, long rows split across CTAs), with the groups kept as
// contiguous row blocks (CSR-Adaptive) so that y is written and x read in row
// order. The analysis (kept on the matrix as "spmv.binned") finds the longest
// row, cuts the rows into CTA blocks of `units` work units (a row costs its
// length + 1: at most `units` rows and about `units` entries per block; about
// 2304 units, spread so that the blocks fill whole waves, SpmvRowBlocks;
// rounded up to blocks of at most that on power-law matrices)
// and lists the rows longer than `units`. Then, by row length (the order is
// spmv_binned_route's, sparse/spmv_row_blocks.hpp, with the vector and dense
// rows of lane_rows_kernel below; tiny matrices, and the warp bin's wherever
// the vector rows fit, take the vector rows):
//  - thread bin: when no row is longer than thread_max_row (stencils, P), one
//    thread per row straight from global memory; L1 turns the strided loads of
//    short rows into full lines, and nothing else is read (docs/spmv.md: this
//    beats staging by 20-30% on 5- and 7-point matrices);
//  - warp bin: else when no row is longer than warp_max_row (9-point), each
//    warp stages the products of 32 (or 16) consecutive rows in its own slice of
//    shared memory, coalesced and without a CTA barrier, then sums each row
//    (the thread bin's per-thread L1 working set overflows at 9 entries a row);
//  - row blocks: the CTA stages the products v[k]·x[col[k]] of its entry range
//    in shared memory with coalesced loads, then V lanes per row (V from the
//    block's mean length and entries_per_lane) sum them;
//  - rows longer than 32 V (and up to `units`) in a block of shorter ones: one
//    warp each, in row order (round-robin over the warps);
//  - rows longer than `units`: a CTA per chunk of `units` entries, then one
//    thread per row sums its chunk sums in chunk order;
//  - sliced rows: before all of the above but the dense rows and the thread
//    bin, matrices of many rows of at most 64 entries read a copy of their
//    entries stored slice by slice (sparse/cuda/spmv_sliced.cuh), where the
//    device memory has room for it;
//  - sorted slices: power-law matrices (a row past the row blocks' base
//    units) read their rows of at most 64 entries sorted by length in slices of
//    32, one thread a row, from a copy (sparse/cuda/spmv_sorted.cuh), longer
//    rows a warp each or in CTA chunks, where the device memory has room;
//  - diagonal rows: before everything, stencil matrices whose entries lie on at
//    most 32 diagonals read a copy of their values stored diagonal by diagonal
//    (sparse/cuda/spmv_diagonals.cuh): no column index, no row pointer, where
//    the device memory has room for it.
// Every sum has a fixed order, so results are bitwise reproducible. The
// kernels take an output functor (y = αAx + βz, the residual, a Jacobi sweep,
// y = Ax with x·y) so that the solve's fused products cost one pass over A.
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "core/device.hpp"
#include "core/log.hpp"
#include "sparse/cuda/block_reduce.cuh"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"
#include "sparse/cuda/spmv_diagonals.cuh"
#include "sparse/cuda/spmv_sliced.cuh"
#include "sparse/cuda/spmv_sorted.cuh"
#include "sparse/spmv_diagonals.hpp"
#include "sparse/spmv_row_blocks.hpp"

namespace saga::cuda {

namespace {
constexpr int kBlock = 256;               // threads per CTA
// Default work units per row block (entries + rows); products staged per CTA:
// units + 32 (rows start in the first `units`, short ones end within 32 more),
// 18.7 KB of dynamic shared memory at 2304.
constexpr int kUnits = SpmvRowBlocks::default_units;
constexpr int kMinUnits = SpmvRowBlocks::min_units;
constexpr int kMaxUnits = SpmvRowBlocks::max_units;  // the staging's shared memory: 64.3 KB

// ---- output functors: what happens to s = (A x)_r ------------------------------------------
// Each returns the row's share of a fused dot product (0 when there is none).
// Each also splits into pre(r) — the row's loads, which a kernel may issue
// early, before the product's own loads — and (r, s, pre) (the stores).
// kLateInSlices: the sliced rows issue pre(r) after the sum instead (see RelaxOut).
struct AxpbyOut {  // y = alpha s + beta z (z may be y; beta = 0 ignores z)
  static constexpr bool kLateInSlices = false;
  double alpha, beta;
  const double* z;
  double* y;
  struct Pre {
    double z;
  };
  __device__ Pre pre(index_t r) const { return {beta == 0.0 ? 0.0 : z[r]}; }
  __device__ double operator()(index_t r, double s, const Pre& p) const {
    y[r] = beta == 0.0 ? alpha * s : alpha * s + beta * p.z;
    return 0.0;
  }
};
struct RelaxOut {  // x_out = x + omega w (b - s), and b . x_out
  // The sliced rows at 4 entries a thread read x, b and w after the sum: early,
  // their three loads went ahead of the row's first entries and held 6 more
  // registers through the loop (double: 40 instead of 32). Late, the pass took
  // 0.164 -> 0.150 ms on 3D 27-pt N=128's float fine matrix, 0.039 -> 0.036 on
  // level 1 of 3D 7-pt N=128 (H200, forty-third session); the one-load outputs
  // lost 1-2% late, and every output lost at 8 entries a thread.
  static constexpr bool kLateInSlices = true;
  const double *x, *b, *w;
  double omega;
  double* x_out;
  struct Pre {
    double x, b, w;
  };
  __device__ Pre pre(index_t r) const { return {x[r], b[r], w[r]}; }
  __device__ double operator()(index_t r, double s, const Pre& p) const {
    const double xo = p.x + omega * p.w * (p.b - s);
    x_out[r] = xo;
    return p.b * xo;
  }
};
struct DotOut {  // y = s, and x . y
  static constexpr bool kLateInSlices = false;
  const double* x;
  double* y;
  struct Pre {
    double x;
  };
  __device__ Pre pre(index_t r) const { return {x[r]}; }
  __device__ double operator()(index_t r, double s, const Pre& p) const {
    y[r] = s;
    return p.x * s;
  }
};

struct ProlongOut {  // x_out = x + u - omega w s, u = scale[g] e[g] (g = agg[r]; 0 where g < 0)
  static constexpr bool kLateInSlices = false;
  const index_t* agg;
  const double *scale, *e, *x, *w;
  double omega;
  double* x_out;
  struct Pre {
    double x, w, u;
  };
  __device__ Pre pre(index_t r) const {
    const index_t g = agg[r];
    return {x[r], w[r], g < 0 ? 0.0 : scale[g] * e[g]};
  }
  __device__ double operator()(index_t r, double s, const Pre& p) const {
    x_out[r] = p.x + p.u - omega * p.w * s;
    return 0.0;
  }
};

struct RelaxFromZeroOut {  // x = omega (w .* b) (row r's own entry) and r = b - s, s = A x
  static constexpr bool kLateInSlices = false;
  const double *b, *w;
  double omega;
  double *x, *res;
  struct Pre {
    double b, w;
  };
  __device__ Pre pre(index_t r) const { return {b[r], w[r]}; }
  __device__ double operator()(index_t r, double s, const Pre& p) const {
    x[r] = omega * (p.w * p.b);
    res[r] = p.b - s;
    return 0.0;
  }
};

// Row r's output where its loads were not issued early: pre(r), then the stores.
template <class Out>
__device__ inline double finish_row(const Out& out, index_t r, double s) {
  return out(r, s, out.pre(r));
}

// ---- input accessors: x_c as the kernels read it -------------------------------------------------
struct DirectX {  // x itself, through the read-only cache
  const double* __restrict__ p;
  __device__ double operator()(index_t c) const { return __ldg(p + c); }
};
struct AggregatedX {  // u_c = scale[g] e[g], g = agg[c]: a tentative prolongation T e read in place
  const index_t* __restrict__ agg;
  const double* __restrict__ scale;
  const double* __restrict__ e;
  __device__ double operator()(index_t c) const {
    const index_t g = __ldg(agg + c);
    return g < 0 ? 0.0 : __ldg(scale + g) * __ldg(e + g);
  }
};
struct RelaxedFromZeroX {  // x_c = omega (w_c b_c): a relaxation sweep from 0 (multiply()'s rounding), read in place
  const double* __restrict__ w;
  const double* __restrict__ b;
  double omega;
  __device__ double operator()(index_t c) const { return omega * (__ldg(w + c) * __ldg(b + c)); }
};

// ---- the analysis ------------------------------------------------------------------------------
struct BinnedPlan {
  int units = kUnits;     // work units per CTA block (about max_units: less for small matrices, whole waves)
  offset_t max_row = 0;   // the longest row
  index_t blocks = 0;     // CTAs of the row kernel
  index_t long_rows = 0;  // rows of more than `units` entries
  index_t chunks = 0;     // their chunks of `units` entries
  Array<index_t> block_row;    // blocks + 1: first row of each CTA block
  Array<index_t> long_row;     // long_rows
  Array<index_t> chunk_ptr;    // long_rows + 1: first chunk of each long row
  Array<index_t> chunk_owner;  // chunks: which long row (index into long_row)
  Array<double> chunk_sum;     // chunks
  Array<unsigned> row_done;    // long_rows: chunks of each long row summed in this product (0 between products)
  // The chunks' CTAs finish the long rows themselves (no long_rows_kernel)
  // where the row blocks fill at most one wave of 6 CTAs an SM (coarse levels,
  // spmv_blocks_in_one_small_wave): their products take a few microseconds, so
  // a launch saved counts. Not on large matrices: the count and the fence make
  // every chunk CTA longer, which cost R-MAT 1-6% (thirty-sixth session).
  bool finish_in_chunks = false;
  // A row longer than the base and staged blocks (spmv_blocks_round_up:
  // power-law degrees): the units from power_law_units, the carveout from
  // power_law_ctas.
  bool power_law = false;
  // Every row holds every column (spmv_dense_rows_fit, the pattern checked
  // here): lane_rows_kernel<..., true>, dense_lanes lanes a row.
  bool dense = false;
  int dense_lanes = 32;
};

// Block b owns the rows r whose work offset w(r) = row_ptr[r] + r lies in
// [b units, (b+1) units): block_row[b] = min{r : w(r) >= b units}.
__global__ void block_rows_kernel(index_t n, const offset_t* __restrict__ rp, int units, index_t blocks,
                                  index_t* block_row) {
  const std::int64_t r = global_thread();
  if (r > n) return;
  const std::int64_t w = static_cast<std::int64_t>(rp[r]) + r;
  const std::int64_t w_prev = r == 0 ? -1 : static_cast<std::int64_t>(rp[r - 1]) + r - 1;
  const std::int64_t lo = w_prev < 0 ? 0 : w_prev / units + 1, hi = w / units;
  for (std::int64_t b = lo; b <= hi && b < blocks; ++b) block_row[b] = static_cast<index_t>(r);
  if (r == n) block_row[blocks] = n;
}
// Long-row flags and chunk counts, and the longest row (an integer max:
// the same result in any order).
__global__ void long_flags_kernel(index_t n, const offset_t* __restrict__ rp, int units, index_t* is_long,
                                  index_t* chunks, int* max_row) {
  const std::int64_t r = global_thread();
  if (r >= n) return;
  const offset_t len = rp[r + 1] - rp[r];
  is_long[r] = len > units;
  chunks[r] = len > units ? (len + units - 1) / units : 0;
  atomicMax(max_row, static_cast<int>(len));
}
__global__ void long_list_kernel(index_t n, const offset_t* __restrict__ rp, int units, const index_t* pos,
                                 const index_t* chunk_start, index_t* long_row, index_t* chunk_ptr) {
  const std::int64_t r = global_thread();
  if (r >= n) return;
  if (rp[r + 1] - rp[r] > units) {
    long_row[pos[r]] = static_cast<index_t>(r);
    chunk_ptr[pos[r]] = chunk_start[r];
  }
  if (r == n - 1) chunk_ptr[pos[n]] = chunk_start[n];
}
__global__ void chunk_owner_kernel(index_t long_rows, const index_t* chunk_ptr, index_t* owner) {
  const std::int64_t i = global_thread();
  if (i >= long_rows) return;
  for (index_t c = chunk_ptr[i]; c < chunk_ptr[i + 1]; ++c) owner[c] = static_cast<index_t>(i);
}

// Flags *bad where the pattern is not dense: row r starting elsewhere than
// r cols, or entry k holding another column than k mod cols.
__global__ void dense_pattern_kernel(index_t n, index_t cols, const offset_t* __restrict__ rp,
                                     const index_t* __restrict__ ci, int* bad) {
  const std::int64_t i = global_thread();
  const std::int64_t nnz = static_cast<std::int64_t>(n) * cols;
  if (i <= n && static_cast<std::int64_t>(rp[i]) != i * cols) *bad = 1;
  if (i < nnz && ci[i] != i % cols) *bad = 1;
}

BinnedPlan make_plan(const CsrRef& A, int max_units, int unstaged_mean, int power_law_units) {
  BinnedPlan p;
  const index_t n = A.rows;
  const std::int64_t total = static_cast<std::int64_t>(A.nnz) + n;
  const cudaStream_t st = ::saga::device_stream();
  Array<index_t> is_long(n, Space::device, "SpMV long-row flags"), chunks(n, Space::device, "SpMV chunk counts");
  Array<index_t> pos(static_cast<std::size_t>(n) + 1, Space::device, "SpMV long-row positions");
  Array<index_t> chunk_start(static_cast<std::size_t>(n) + 1, Space::device, "SpMV chunk offsets");
  Array<int> max_row = Array<int>::zeros(1, Space::device, "SpMV longest row");
  // The blocks of `units` and the long rows past them (two scans); the
  // longest row comes with the flags, so the plan waits for the device once.
  const auto cut = [&](int units) {
    p.units = units;
    p.blocks = static_cast<index_t>(total / p.units + 1);
    p.finish_in_chunks = spmv_blocks_in_one_small_wave(total, p.units, multiprocessor_count());
    p.block_row = Array<index_t>(static_cast<std::size_t>(p.blocks) + 1, Space::device, "SpMV block rows");
    block_rows_kernel<<<grid_for(static_cast<std::int64_t>(n) + 1), kThreads, 0, st>>>(n, A.rp, p.units,
                                                                                       p.blocks, p.block_row.data());
    SAGA_CUDA_LAUNCH("block_rows_kernel");
    long_flags_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.rp, p.units, is_long.data(), chunks.data(),
                                                        max_row.data());
    SAGA_CUDA_LAUNCH("long_flags_kernel");
    prim::exclusive_scan_total(is_long.data(), pos.data(), n);
    prim::exclusive_scan_total(chunks.data(), chunk_start.data(), n);
    p.max_row = max_row.get(0);
    p.long_rows = pos.get(n);
  };
  // Whole waves (sparse/spmv_row_blocks.hpp; docs/spmv.md): whole waves of 24
  // made level 1 and R0 5-8% faster (thirty-fourth session); base 2304 instead
  // of 2048 and whole small waves (coarse levels in one wave of 790 blocks, not 827 or ~880)
  // the cycles of 27-pt N=128 and 3D 7-pt N=64 6-9% (thirty-fifth).
  cut(spmv_row_block_units(total, max_units, multiprocessor_count()));
  // Power-law matrices (a row longer than the base): their own base, waves
  // rounded up (spmv_plan_units, spmv_blocks_round_up); cut again where that
  // changes the units.
  p.power_law = spmv_blocks_round_up(p.max_row, max_units, static_cast<std::int64_t>(A.nnz), n, unstaged_mean);
  const int planned = spmv_plan_units(static_cast<std::int64_t>(A.nnz), n, p.max_row, max_units,
                                      multiprocessor_count(), unstaged_mean, power_law_units);
  if (planned != p.units) cut(planned);
  if (spmv_dense_rows_fit(static_cast<std::int64_t>(A.nnz), n, A.cols)) {
    Array<int> bad = Array<int>::zeros(1, Space::device, "SpMV dense pattern flag");
    const std::int64_t items = std::max<std::int64_t>(static_cast<std::int64_t>(A.nnz), std::int64_t{n} + 1);
    dense_pattern_kernel<<<grid_for(items), kThreads, 0, st>>>(n, A.cols, A.rp, A.ci, bad.data());
    SAGA_CUDA_LAUNCH("dense_pattern_kernel");
    p.dense = bad.get(0) == 0;
    p.dense_lanes = spmv_dense_lanes(n, A.cols, multiprocessor_count());
  }
  if (p.long_rows == 0) return p;
  p.chunks = chunk_start.get(n);
  p.long_row = Array<index_t>(p.long_rows, Space::device, "SpMV long rows");
  p.chunk_ptr = Array<index_t>(static_cast<std::size_t>(p.long_rows) + 1, Space::device, "SpMV chunk pointers");
  p.chunk_owner = Array<index_t>(p.chunks, Space::device, "SpMV chunk owners");
  p.chunk_sum = Array<double>(p.chunks, Space::device, "SpMV chunk sums");
  if (p.finish_in_chunks) p.row_done = Array<unsigned>::zeros(p.long_rows, Space::device, "SpMV long-row chunk counts");
  long_list_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.rp, p.units, pos.data(), chunk_start.data(),
                                                     p.long_row.data(), p.chunk_ptr.data());
  SAGA_CUDA_LAUNCH("long_list_kernel");
  chunk_owner_kernel<<<grid_for(p.long_rows), kThreads, 0, st>>>(p.long_rows, p.chunk_ptr.data(),
                                                                 p.chunk_owner.data());
  SAGA_CUDA_LAUNCH("chunk_owner_kernel");
  return p;
}

// A's analysis T where it is there (structural or of the values), else null;
// never made here.
template <class T>
const T* kept_analysis(const CsrMatrix& A, bool structural, const std::string& key = T::key) {
  if (!A.has_analysis(key)) return nullptr;
  const auto never = [&](const CsrMatrix&) -> T { throw Error(fmt::format("binned SpMV: no analysis {}", key)); };
  return structural ? &A.structural_analysis<T>(key, never) : &A.analysis<T>(key, never);
}

// ---- a 64-bit build's offsets in 32 bits ----------------------------------------------------
// In a build with 64-bit row offsets (docs/design.md, "Index widths") every
// matrix holds 8-byte offsets, also the many that never pass 2^31 nonzeros
// (all but the fine matrix of the largest problems). Read in the products,
// they cost a cycle of 3D 7-pt N=256 7.5% (sixty-first session, H200): 4 B a
// row more over P0 and the arithmetic of 64-bit positions in the row blocks.
// The binned SpMV therefore keeps a 32-bit copy of the offsets of a matrix
// that fits them (4 B a row), made by the cycle after every operator's own
// copy had its turn (prepare_offsets, in the room those leave under the
// setup's peak), and the CSR bins' kernels (templated on the offsets' type)
// read that copy: the same entries in the same order, so the same bits. The
// plan and the copies' builders still read the matrix's own offsets. A 32-bit
// build has nothing to copy. (3D 7-pt N=512's solve in a 64-bit build: 0.355
// -> 0.340 s, the 32-bit build's 0.338.)
struct NarrowOffsets {
  static constexpr const char* key = "spmv.offsets32";  // its structural analysis
  Array<std::int32_t> rp;
};
bool takes_narrow_offsets(const CsrMatrix& A) {
  return kWideOffsets && A.rows() > 0 && fits_narrow_offsets(A.nnz());
}
std::int64_t narrow_offsets_bytes(const CsrMatrix& A) {
  return (static_cast<std::int64_t>(A.rows()) + 1) * static_cast<std::int64_t>(sizeof(std::int32_t));
}
NarrowOffsets make_narrow_offsets(const CsrMatrix& A) {
  NarrowOffsets N;
  const std::int64_t n = static_cast<std::int64_t>(A.rows()) + 1;
  N.rp = Array<std::int32_t>(static_cast<std::size_t>(n), Space::device, "SpMV 32-bit row offsets");
  prim::narrow_offsets(A.row_ptr().data(), N.rp.data(), static_cast<std::size_t>(n));
  return N;
}
// A's 32-bit offsets where the SpMV keeps them, else null (a 32-bit build:
// always null, without looking).
const std::int32_t* narrow_offsets_of(const CsrMatrix& A) {
  if constexpr (!kWideOffsets) return nullptr;
  const NarrowOffsets* N = kept_analysis<NarrowOffsets>(A, true);
  return N ? N->rp.data() : nullptr;
}

CsrRef ref_of(const CsrMatrix& A) {
  CsrRef r = A.single_precision()
                 ? CsrRef{A.rows(), A.cols(), A.nnz(), A.row_ptr().data(), A.col().data(), nullptr,
                          A.val_single().data()}
                 : CsrRef{A.rows(), A.cols(), A.nnz(), A.row_ptr().data(), A.col().data(), A.val().data(), nullptr};
  r.rp32 = narrow_offsets_of(A);
  return r;
}

// One plan per block size, unstaged_mean and power-law base (the analysis key names them).
BinnedPlan& plan_of(const CsrMatrix& A, int max_units = kUnits,
                    int unstaged_mean = SpmvRowBlocks::default_unstaged_mean,
                    int power_law_units = SpmvRowBlocks::default_power_law_units) {
  return A.structural_analysis<BinnedPlan>(
      fmt::format("spmv.binned.{}.{}.{}", max_units, unstaged_mean, power_law_units),
      [&](const CsrMatrix& M) { return make_plan(ref_of(M), max_units, unstaged_mean, power_law_units); });
}

// ---- the kernels -------------------------------------------------------------------------------
// A's columns and values are read once per product. With kStream they are
// loaded evict-first (ld.global.cs), so that they do not push the reused
// entries of x out of L1 and L2: the row blocks and the long rows' chunks
// (thirty-seventh session, docs/spmv.md: level 1 of 3D 7-pt 7%, 27-point 1-2%,
// R-MAT 2%, nothing slower). The warp bin and the thread bin load A normally:
// evict-first slowed the warp bin by 15% (2D 9-point, eighteenth session).
template <bool kStream, class T>
__device__ inline T load_a(const T* p) {
  if constexpr (kStream)
    return __ldcs(p);
  else
    return *p;
}

// prod[k - k0] = v[k] x[col[k]] for k = first, first + kStride, ... < end: the
// staging loop of the row blocks (kStride = the CTA) and of the warp bin
// (kStride = a warp), four loads in flight per thread before any use.
template <int kStride, bool kStream, class Off, class Value, class In>
__device__ inline void stage_products(Off first, Off end, Off k0, const index_t* __restrict__ ci,
                                      const Value* __restrict__ v, In x, double* __restrict__ prod) {
  Off k = first;
  for (; k + 3 * kStride < end; k += 4 * kStride) {
    const index_t c0 = load_a<kStream>(ci + k), c1 = load_a<kStream>(ci + k + kStride),
                  c2 = load_a<kStream>(ci + k + 2 * kStride), c3 = load_a<kStream>(ci + k + 3 * kStride);
    const double v0 = load_a<kStream>(v + k), v1 = load_a<kStream>(v + k + kStride),
                 v2 = load_a<kStream>(v + k + 2 * kStride), v3 = load_a<kStream>(v + k + 3 * kStride);
    const double x0 = x(c0), x1 = x(c1), x2 = x(c2), x3 = x(c3);
    prod[k - k0] = v0 * x0;
    prod[k + kStride - k0] = v1 * x1;
    prod[k + 2 * kStride - k0] = v2 * x2;
    prod[k + 3 * kStride - k0] = v3 * x3;
  }
  for (; k < end; k += kStride) prod[k - k0] = load_a<kStream>(v + k) * x(load_a<kStream>(ci + k));
}
// How a CTA block treats its rows, from their mean length (the tuning knobs of
// the component, docs/spmv.md).
struct BlockPolicy {
  // Which kernel a matrix takes (spmv_binned_route, sparse/spmv_row_blocks.hpp):
  // the thread and warp bins' limits, small_vector and vector_max_units (the
  // vector rows), dense_rows, and the sliced rows (never, by spmv_sliced_fit, or
  // wherever no row passes 64 entries).
  SpmvRouteOptions route;
  int entries_per_lane;  // blocks: V lanes per row with V >= mean / entries_per_lane
  bool stage;            // blocks: stage the products in shared memory (else lanes read A directly)
  int max_units;         // about this many work units per row block (kMinUnits..kMaxUnits; make_plan)
  int resident_ctas;     // staged row blocks: a shared memory carveout for this many CTAs an SM (0: the driver's)
  int unstaged_mean;     // blocks of a matrix with split rows averaging at least this: unstaged (0: never)
  int power_law_units;   // power-law matrices' base units (BinnedPlan::power_law; 0: max_units)
  int power_law_ctas;    // their carveout's CTAs an SM (as resident_ctas)
  int vector_lanes = 0;  // the vector rows' lanes a row: 0 = spmv_vector_rows_lanes, else this (2..256)
  // Stencil matrices' diagonal copy (sparse/spmv_diagonals.hpp): never, made
  // by prepare() within the room it is given, or wherever it fits at the first
  // product.
  enum class Diagonals { off, automatic, on } diagonals = Diagonals::automatic;
  // Power-law matrices' sorted slices (SpmvSorted): never, made by prepare()
  // within the room it is given, or wherever a power-law plan is (any size).
  enum class Sorted { off, automatic, on } sorted = Sorted::automatic;
  int sorted_chunk = 0;  // rows past it: CTA chunks of this many entries (0: spmv_sorted_chunk)
};

// The rows longer than `units` (BinnedPlan): split in chunks of `units`
// entries, one CTA each, in the row blocks' launch (rows_kernel): after the
// row blocks (first = the row blocks' count; run_bins).
struct LongRowChunks {
  index_t first = 0;                   // CTAs first .. first + chunks - 1 of the launch sum a chunk each,
  index_t chunks = 0;                  // the others are the row blocks in order
  const index_t* long_row = nullptr;   // long rows
  const index_t* chunk_ptr = nullptr;  // long rows + 1: first chunk of each
  const index_t* owner = nullptr;      // chunks: which long row
  double* chunk_sum = nullptr;         // chunks: their sums
  bool finish = false;                 // BinnedPlan::finish_in_chunks (else long_rows_kernel adds the sums)
  unsigned* row_done = nullptr;        // with finish: chunks of each long row summed in this product
  double* partial = nullptr;           // with finish and a fused dot: one slot per long row
};

// Chunk c of a long row writes the chunk's sum. With `finish` (small matrices:
// BinnedPlan::finish_in_chunks), the CTA that completes a row's last chunk (an
// integer count per row, so whichever CTA it is) then sums the row's chunk sums
// in a fixed order and writes the row, and resets the count for the next
// product (graph replays included): no long_rows_kernel launch where launches,
// not bytes, cost the time.
template <class Out, class Value, class In, class Off>
__device__ void sum_chunk(const LongRowChunks& L, index_t c, const Off* __restrict__ rp,
                          const index_t* __restrict__ ci, const Value* __restrict__ v, In x, Out out, int units) {
  __shared__ bool last;
  const index_t i = L.owner[c], r = L.long_row[i];
  const index_t c0 = L.chunk_ptr[i], c1 = L.chunk_ptr[i + 1];
  const Off a = rp[r] + static_cast<Off>(c - c0) * units;
  const Off b = min(rp[r + 1], a + units);
  double s = 0.0;
#pragma unroll 4
  for (Off k = a + threadIdx.x; k < b; k += kBlock) s += load_a<true>(v + k) * x(load_a<true>(ci + k));
  s = block_sum<kBlock>(s);
  if (threadIdx.x == 0) L.chunk_sum[c] = s;
  if (!L.finish) return;  // long_rows_kernel adds the chunk sums
  if (threadIdx.x == 0) {
    __threadfence();  // the sum is visible before the count says so
    last = atomicAdd(L.row_done + i, 1u) + 1 == static_cast<unsigned>(c1 - c0);
  }
  __syncthreads();
  if (!last) return;  // the same for the whole CTA
  __threadfence();
  double t = 0.0;
  for (index_t j = c0 + threadIdx.x; j < c1; j += kBlock) t += __ldcg(L.chunk_sum + j);  // other CTAs' sums, from L2
  t = block_sum<kBlock>(t);
  if (threadIdx.x == 0) {
    const double mine = finish_row(out, r, t);
    if (L.partial) L.partial[i] = mine;
    L.row_done[i] = 0;
  }
}

// One launch: the row blocks, then the long rows' chunks (CTAs L.first ..
// L.first + L.chunks - 1). The chunks' CTAs share the launch so that they fill
// the row blocks' last waves instead of waiting for them in a launch of their
// own (R-MAT's chunks took 51 us after 253 us of row blocks; in one launch
// R-MAT 0.303 -> 0.292 ms, its Laplacian 0.599 -> 0.587; with the chunks
// ahead of the row blocks 1.024x / 1.035x slower: fifty-first session).
template <class Out, class Value, class In, class Off>
__global__ __launch_bounds__(kBlock) void rows_kernel(LongRowChunks L, const index_t* __restrict__ block_row,
                                                      const Off* __restrict__ rp,
                                                      const index_t* __restrict__ ci, const Value* __restrict__ v,
                                                      In x, Out out, int units,
                                                      int entries_per_lane, bool stage,
                                                      double* __restrict__ partial) {
  wait_for_prior_grid();
  const index_t cta = static_cast<index_t>(blockIdx.x);
  if (cta >= L.first && cta < L.first + L.chunks) {  // the same for the whole CTA
    sum_chunk(L, cta - L.first, rp, ci, v, x, out, units);
    return;
  }
  extern __shared__ double prod[];  // units + 32 products
  const index_t block = cta < L.first ? cta : cta - L.chunks;
  const index_t r0 = block_row[block], r1 = block_row[block + 1];
  double mine = 0.0;  // this thread's share of the fused dot product
  if (r0 < r1) {      // the same for the whole CTA
    const Off k0 = rp[r0], k1 = rp[r1];
    // A row of more than `units` entries can only be the block's last; its
    // chunks sum it (sum_chunk), so it takes no part in the block's
    // staging (spmv_block_staged_end) nor in its lanes per row.
    const Off kstop = spmv_block_short_rows_end(rp[r1 - 1], k1, units);
    const index_t rows = r1 - r0 - (kstop != k1 ? 1 : 0);
    const Off mean = (kstop - k0) / max(rows, index_t{1});
    const Off kend = stage ? spmv_block_staged_end(k0, kstop, units) : k0;  // staged entries: [k0, kend)
    // Lanes per row, a power of two: enough for entries_per_lane at the mean
    // length, and enough to keep the CTA's threads busy when it has few rows.
    int V = 1;
    while (V < 32 && (V * entries_per_lane < mean || 2 * V * rows <= kBlock)) V *= 2;
    // The first round's row bounds and output loads are issued before the
    // staging, so that their latency overlaps it instead of following the
    // barrier (a CTA's time is a chain of dependent loads: 3-5% on 27-64-entry
    // rows, docs/spmv.md).
    const index_t r_first = r0 + threadIdx.x / V;
    Off a_first = 0, b_first = 0;
    typename Out::Pre pre_first{};
    if (r_first < r1) {
      a_first = rp[r_first];
      b_first = rp[r_first + 1];
      if (threadIdx.x % V == 0) pre_first = out.pre(r_first);
    }
    stage_products<kBlock, true, Off>(k0 + threadIdx.x, kend, k0, ci, v, x, prod);
    __syncthreads();
    // Rows of up to 32 V entries: a group of V lanes each; longer ones (up to
    // units) wait for the warps below; longer still were split (sum_chunk).
    const int lane = threadIdx.x % V, groups = kBlock / V;
    const unsigned group_mask = V == 32 ? 0xffffffffu : ((1u << V) - 1) << (threadIdx.x % 32 / V * V);
    bool medium = false;
    for (index_t base = r0; base < r1; base += groups) {  // the same trip count in a whole warp
      const index_t r = base + threadIdx.x / V;
      Off a = 0, b = 0;
      if (r < r1) {
        if (base == r0) {
          a = a_first;
          b = b_first;
        } else {
          a = rp[r];
          b = rp[r + 1];
        }
      }
      const bool mine_row = r < r1 && b - a <= 32 * V && b - a <= units;  // longer: split (sum_chunk)
      medium = medium || (r < r1 && b - a > 32 * V && b - a <= units);
      double s = 0.0;
      if (mine_row) {
        if (b <= kend)
          for (Off k = a + lane; k < b; k += V) s += prod[k - k0];
        else
          for (Off k = a + lane; k < b; k += V) s += v[k] * x(ci[k]);
      }
      for (int off = V / 2; off > 0; off /= 2) s += __shfl_xor_sync(group_mask, s, off);
      if (mine_row && lane == 0) mine += base == r0 ? out(r, s, pre_first) : finish_row(out, r, s);
    }
    if (__syncthreads_or(medium)) {  // rows of 32 V + 1 .. units entries: one warp each, in row order
      const int warp = threadIdx.x / 32, wl = threadIdx.x % 32;
      unsigned ordinal = 0;  // such rows met so far (the same count in every warp)
      for (index_t base = r0; base < r1; base += 32) {
        const index_t r = base + wl;
        Off a = 0, b = 0;
        if (r < r1) {
          a = rp[r];
          b = rp[r + 1];
        }
        unsigned mask = __ballot_sync(0xffffffffu, r < r1 && b - a > 32 * V && b - a <= units);
        while (mask) {
          const int j = __ffs(mask) - 1;
          mask &= mask - 1;
          if (ordinal++ % (kBlock / 32) != static_cast<unsigned>(warp)) continue;
          const Off ra = __shfl_sync(0xffffffffu, a, j), rb = __shfl_sync(0xffffffffu, b, j);
          double s = 0.0;
          if (rb <= kend)
            for (Off k = ra + wl; k < rb; k += 32) s += prod[k - k0];
          else
            for (Off k = ra + wl; k < rb; k += 32) s += v[k] * x(ci[k]);
          for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
          if (wl == 0) mine += finish_row(out, base + j, s);
        }
      }
    }
  }
  if (partial) {
    mine = block_sum<kBlock>(mine);
    if (threadIdx.x == 0) partial[block] = mine;
  }
}

// The long rows of large matrices: one thread per row adds its chunk sums in
// chunk order and writes the row.
template <class Out>
__global__ __launch_bounds__(kBlock) void long_rows_kernel(index_t long_rows, const index_t* __restrict__ long_row,
                                                           const index_t* __restrict__ chunk_ptr,
                                                           const double* __restrict__ chunk_sum, Out out,
                                                           double* __restrict__ partial) {
  wait_for_prior_grid();
  const std::int64_t i = global_thread();
  double mine = 0.0;
  if (i < long_rows) {
    double s = 0.0;
    for (index_t c = chunk_ptr[i]; c < chunk_ptr[i + 1]; ++c) s += chunk_sum[c];
    mine = finish_row(out, long_row[i], s);
  }
  if (partial) write_block_partial<kBlock>(mine, partial);
}

// Every row at most thread_max_row entries: one thread per row from global
// memory (L1 turns the strided loads of short rows into full lines).
template <class Out, class Value, class In, class Off>
__global__ __launch_bounds__(kBlock) void thread_rows_kernel(index_t n, const Off* __restrict__ rp,
                                                             const index_t* __restrict__ ci,
                                                             const Value* __restrict__ v, In x, Out out,
                                                             double* __restrict__ partial) {
  wait_for_prior_grid();
  const std::int64_t r = global_thread();
  double mine = 0.0;
  if (r < n) {
    double s = 0.0;
    for (Off k = rp[r]; k < rp[r + 1]; ++k) s += v[k] * x(ci[k]);
    mine = finish_row(out, static_cast<index_t>(r), s);
  }
  if (partial) write_block_partial<kBlock>(mine, partial);
}

// Every row at most warp_max_row (<= 64) entries: each warp takes 32 / V
// consecutive rows, stages the products of their whole entry range in its own
// slice of shared memory with coalesced loads (no block-wide barrier), then V
// lanes per row sum them. Coalesced like the row blocks, with no CTA
// bookkeeping and no L1 working set per thread as in the thread bin.
constexpr int kWarpsPerBlock = kBlock / 32;
template <class Out, class Value, class In, class Off>
__global__ __launch_bounds__(kBlock) void warp_rows_kernel(index_t n, const Off* __restrict__ rp,
                                                           const index_t* __restrict__ ci,
                                                           const Value* __restrict__ v, In x, Out out, int V,
                                                           int span,
                                                           double* __restrict__ partial) {
  wait_for_prior_grid();
  extern __shared__ double warp_products[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double* prod = warp_products + static_cast<std::size_t>(warp) * span;
  const int rows_per_warp = 32 / V;
  const std::int64_t r0 = (static_cast<std::int64_t>(blockIdx.x) * kWarpsPerBlock + warp) * rows_per_warp;
  double mine = 0.0;
  if (r0 < n) {  // the same for the whole warp
    const std::int64_t r1 = min(static_cast<std::int64_t>(n), r0 + rows_per_warp);
    const std::int64_t r = r0 + lane / V;
    const int sub = lane % V;
    // Row r's bounds and output loads issued with the warp's, before the
    // staging (2.5% on 2D 9-pt, as in rows_kernel).
    Off a = 0, b = 0;
    typename Out::Pre pre{};
    if (r < r1) {
      a = rp[r];
      b = rp[r + 1];
      if (sub == 0) pre = out.pre(static_cast<index_t>(r));
    }
    const Off k0 = rp[r0], k1 = rp[r1];
    stage_products<32, false, Off>(k0 + lane, k1, k0, ci, v, x, prod);
    __syncwarp();
    double s = 0.0;
    if (r < r1)
      for (Off j = a - k0 + sub, e = b - k0; j < e; j += V) s += prod[j];
    for (int off = V / 2; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (r < r1 && sub == 0) mine = out(static_cast<index_t>(r), s, pre);
  }
  if (partial) write_block_partial<kBlock>(mine, partial);
}

// G lanes a row, the rows in index order, straight from global memory: the
// vector rows (kDense false: small matrices with no row far above the mean,
// spmv_vector_rows_fit; G from spmv_vector_rows_lanes) and the dense rows
// (kDense true: every row holds every column, a coarse level's dense inverse;
// G from spmv_dense_lanes). A product there takes a few microseconds, most of
// it a chain of dependent loads: one step shorter than a row block's (no
// block_row read, no staging barrier), and in dense rows one more step shorter
// (column j of row r at r cols + j: no column index read, so a lane's loads are
// all in flight at once). G from 2 to 256 (a CTA holds 256 / G rows): up to 32
// the row's lanes add their sums by shuffles within their warp, beyond it the
// row's warps add theirs in shared memory, in a fixed order. G is a
// compile-time constant (with_lanes): the row and lane of a thread are a shift
// and a mask, the sums a fixed tree; with G read at run time the vector rows
// ran R0 of 3D 27-pt N=128 8% slower and R1 13% (forty-fifth session, H200).
template <class Out, class Value, class In, bool kDense, int G, class Off>
__global__ __launch_bounds__(kBlock) void lane_rows_kernel(index_t n, index_t cols, const Off* __restrict__ rp,
                                                           const index_t* __restrict__ ci,
                                                           const Value* __restrict__ v, In x, Out out,
                                                           double* __restrict__ partial) {
  static_assert(G >= 2 && G <= kBlock && (G & (G - 1)) == 0, "lanes a row: a power of two from 2 to a CTA");
  __shared__ double warp_sum[kBlock / 32];
  wait_for_prior_grid();
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * (kBlock / G) + threadIdx.x / G;
  const int lane = threadIdx.x % G;
  double s = 0.0, mine = 0.0;
  typename Out::Pre pre{};
  if (r < n) {
    if (lane == 0) pre = out.pre(static_cast<index_t>(r));
    if constexpr (kDense) {
      const Value* row = v + r * cols;
#pragma unroll 8
      for (index_t j = lane; j < cols; j += G) s += row[j] * x(j);
    } else {
      // Four entries a lane loaded before any is used, each under its own
      // bound: an unrolled loop with a remainder sent the lanes of rows of
      // ~120 entries at 32 lanes (3 or 4 entries each) down two paths, the
      // remainder's loads one after another. Each lane sums its entries in
      // the same order either way.
      const Off a = rp[r], b = rp[r + 1];
      for (Off k = a + lane; k < b; k += 4 * G) {
        index_t c[4];
        Value w[4];
#pragma unroll
        for (int u = 0; u < 4; ++u)
          if (k + u * G < b) {
            c[u] = ci[k + u * G];
            w[u] = v[k + u * G];
          }
#pragma unroll
        for (int u = 0; u < 4; ++u)
          if (k + u * G < b) s += w[u] * x(c[u]);
      }
    }
  }
  for (int off = (G < 32 ? G : 32) / 2; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
  if constexpr (G > 32) {  // the row's warps: their lane 0s leave their sums, the row's lane 0 adds them
    if (threadIdx.x % 32 == 0) warp_sum[threadIdx.x / 32] = s;
    __syncthreads();
    if (lane == 0) {
      s = 0.0;
      for (int w = 0; w < G / 32; ++w) s += warp_sum[threadIdx.x / 32 + w];
    }
  }
  if (r < n && lane == 0) mine = out(static_cast<index_t>(r), s, pre);
  if (partial) write_block_partial<kBlock>(mine, partial);
}

// f(std::integral_constant<int, G>{}) for the lanes a row G, a power of two
// from kMin to 256 (lane_rows_kernel's template argument).
template <int kMin, class F>
void with_lanes(int G, F&& f) {
  static_assert(kMin >= 2 && kMin <= 32);
  switch (G) {
    case 2: if constexpr (kMin <= 2) return f(std::integral_constant<int, 2>{}); break;
    case 4: if constexpr (kMin <= 4) return f(std::integral_constant<int, 4>{}); break;
    case 8: if constexpr (kMin <= 8) return f(std::integral_constant<int, 8>{}); break;
    case 16: if constexpr (kMin <= 16) return f(std::integral_constant<int, 16>{}); break;
    case 32: return f(std::integral_constant<int, 32>{});
    case 64: return f(std::integral_constant<int, 64>{});
    case 128: return f(std::integral_constant<int, 128>{});
    case 256: return f(std::integral_constant<int, 256>{});
    default: break;
  }
  throw Error("binned SpMV: " + std::to_string(G) + " lanes a row (expected a power of two from " +
              std::to_string(kMin) + " to 256)");
}

__global__ void set_zero_kernel(double* p) {
  wait_for_prior_grid();
  *p = 0.0;
}

// Whether relax_from_zero (x = ω w b, r = b − A x) runs as one pass over A
// under `policy`: only where w and b fit in half the L2, since every entry
// then gathers both (x_j formed where it is read), and only where A's rows go
// to the thread bin (a warp's gathers of a stencil are contiguous) or A has
// fewer than kRelaxFromZeroMaxEntries entries. On larger matrices of longer
// rows the two gathers an entry cost more than the vector pass they save
// (fortieth session, H200 ncu: 3D 27-pt N=101's fine level 120 µs fused
// against 104 + 8 for the product and the pass; level 1 of 3D 7-pt N=128 41
// against 35 + 3; docs/spmv.md). Below, the pass's launch costs more.
constexpr offset_t kRelaxFromZeroMaxEntries = 3 << 19;  // about 1.5M
bool fuses_relax_from_zero(const CsrMatrix& A, const BlockPolicy& policy) {
  static const long long l2 = device_attribute(cudaDevAttrL2CacheSize);
  if (16LL * A.rows() > l2 / 2) return false;
  return A.nnz() < kRelaxFromZeroMaxEntries ||
         plan_of(A, policy.max_units, policy.unstaged_mean, policy.power_law_units).max_row <=
             policy.route.thread_max_row;
}

// One product with output functor `out`; with `dot`, (*dot)[slot] = Σ out's
// returns. A's arrays and its plan (made with policy.max_units) from the caller.
template <class Out, class Value, class In, class Off>
void run_bins(const CsrRef& A, const Off* rp, const Value* v, BinnedPlan& p, In x, Out out, BlockPolicy policy,
              Scalars* dot, int slot) {
  const cudaStream_t st = ::saga::device_stream();
  // Every kernel below writes one partial sum of the fused dot per CTA.
  std::size_t parts = 0;
  double* partial = nullptr;
  const auto partials_for = [&](std::size_t blocks) {
    parts = blocks;
    partial = dot ? dot->scratch(blocks) : nullptr;
  };
  // The route with the sliced rows done (run_sliced had its turn); the dense
  // rows where the plan found every row full (the pattern checked on the device).
  SpmvRouteOptions route_options = policy.route;
  route_options.sliced = SpmvRouteOptions::Sliced::off;
  route_options.dense_rows = false;
  const SpmvRoute route = policy.route.dense_rows && p.dense
                              ? SpmvRoute::dense
                              : spmv_binned_route(A.rows, A.cols, static_cast<std::int64_t>(A.nnz), p.max_row,
                                                  multiprocessor_count(), route_options);
  if (route == SpmvRoute::dense) {  // every row holds every column
    const int G = p.dense_lanes;
    const unsigned blocks = grid_for(static_cast<std::int64_t>(A.rows) * G, kBlock);  // kBlock / G rows a CTA
    partials_for(blocks);
    with_lanes<32>(G, [&](auto lanes) {
      constexpr int kLanes = decltype(lanes)::value;
      launch_dependent("binned SpMV dense rows", lane_rows_kernel<Out, Value, In, true, kLanes, Off>, blocks, kBlock, 0, st,
                       A.rows, A.cols, rp, A.ci, v, x, out, partial);
    });
  } else if (route == SpmvRoute::thread) {  // the thread bin holds every row
    const unsigned blocks = grid_for(A.rows, kBlock);
    partials_for(blocks);
    launch_dependent("binned SpMV thread_rows_kernel", thread_rows_kernel<Out, Value, In, Off>, blocks, kBlock, 0, st,
                     A.rows, rp, A.ci, v, x, out, partial);
  } else if (route == SpmvRoute::warp) {  // the warp bin holds every row
    const int V = p.max_row <= 32 ? 1 : 2;
    const int span = (32 / V) * static_cast<int>(p.max_row);
    const std::size_t smem = sizeof(double) * kWarpsPerBlock * static_cast<std::size_t>(span);
    static const bool opted_in = [] {  // up to 64 KB of dynamic shared memory per CTA
      SAGA_CUDA(cudaFuncSetAttribute(warp_rows_kernel<Out, Value, In, Off>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
      return true;
    }();
    (void)opted_in;
    const std::int64_t warps = (static_cast<std::int64_t>(A.rows) + 32 / V - 1) / (32 / V);
    const unsigned blocks = static_cast<unsigned>((warps + kWarpsPerBlock - 1) / kWarpsPerBlock);
    partials_for(blocks);
    launch_dependent("binned SpMV warp_rows_kernel", warp_rows_kernel<Out, Value, In, Off>, blocks, kBlock, smem, st,
                     A.rows, rp, A.ci, v, x, out, V, span, partial);
  } else if (route == SpmvRoute::vector) {  // small or long, even rows
    const int G = policy.vector_lanes > 0
                      ? policy.vector_lanes
                      : spmv_vector_rows_lanes(static_cast<std::int64_t>(A.nnz), A.rows, multiprocessor_count());
    const unsigned blocks = grid_for(static_cast<std::int64_t>(A.rows) * G, kBlock);  // kBlock / G rows a CTA
    partials_for(blocks);
    with_lanes<2>(G, [&](auto lanes) {
      constexpr int kLanes = decltype(lanes)::value;
      launch_dependent("binned SpMV vector rows", lane_rows_kernel<Out, Value, In, false, kLanes, Off>, blocks, kBlock, 0,
                       st, A.rows, A.cols, rp, A.ci, v, x, out, partial);
    });
  } else {  // row blocks, and the long rows after them
    // Where every row is long (a coarse level's dense inverse) the row blocks
    // would all be empty: not launched.
    const index_t row_blocks = p.long_rows == A.rows ? 0 : p.blocks;
    const std::size_t long_parts =
        p.long_rows == 0 ? 0 : p.finish_in_chunks ? static_cast<std::size_t>(p.long_rows) : grid_for(p.long_rows, kBlock);
    partials_for(static_cast<std::size_t>(row_blocks) + long_parts);
    static const bool rows_opted_in = [] {  // up to kMaxUnits + 32 staged products
      SAGA_CUDA(cudaFuncSetAttribute(rows_kernel<Out, Value, In, Off>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(sizeof(double)) * (kMaxUnits + 32)));
      return true;
    }();
    (void)rows_opted_in;
    // Unstaged blocks read A and x directly: no shared memory, so L1 keeps it all.
    const bool stage = spmv_blocks_staged(policy.stage, p.long_rows, static_cast<std::int64_t>(A.nnz), A.rows,
                                          policy.unstaged_mean);
    const std::size_t stage_bytes = stage ? sizeof(double) * (static_cast<std::size_t>(p.units) + 32) : 0;
    // Room for resident_ctas (power-law plans: power_law_ctas) staged CTAs an
    // SM, the rest L1 (spmv_carveout_percent).
    static const int smem_per_sm = device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    static const int reserved_per_cta = device_attribute(cudaDevAttrReservedSharedMemoryPerBlock);
    const int carveout = spmv_carveout_percent(p.power_law ? policy.power_law_ctas : policy.resident_ctas,
                                               static_cast<std::int64_t>(stage_bytes),
                                               reserved_per_cta, smem_per_sm);
    // partial: the row blocks' slots, then the long rows' (one a row where
    // the chunks finish them, else one per long_rows_kernel CTA).
    double* long_partial = partial && p.long_rows ? partial + row_blocks : nullptr;
    LongRowChunks chunks;
    if (p.long_rows) {
      chunks.first = row_blocks;
      chunks.chunks = p.chunks;
      chunks.long_row = p.long_row.data();
      chunks.chunk_ptr = p.chunk_ptr.data();
      chunks.owner = p.chunk_owner.data();
      chunks.chunk_sum = p.chunk_sum.data();
      chunks.finish = p.finish_in_chunks;
      chunks.row_done = p.row_done.data();
      chunks.partial = p.finish_in_chunks ? long_partial : nullptr;
    }
    if (p.chunks + row_blocks > 0) {
      launch_dependent_carveout("binned SpMV rows_kernel", rows_kernel<Out, Value, In, Off>,
                                static_cast<unsigned>(p.chunks + row_blocks), kBlock, stage_bytes, carveout, st,
                                chunks, p.block_row.data(), rp, A.ci, v, x, out, p.units,
                                policy.entries_per_lane, stage, partial);
    }
    if (p.long_rows && !p.finish_in_chunks) {
      launch_dependent("binned SpMV long_rows_kernel", long_rows_kernel<Out>, grid_for(p.long_rows, kBlock), kBlock,
                       0, st, p.long_rows, p.long_row.data(), p.chunk_ptr.data(), p.chunk_sum.data(), out,
                       long_partial);
    }
  }
  if (dot) {
    launch_dependent("binned SpMV dot", sum_partials_into<false>, 1, kSumThreads, 0, st, partial,
                     static_cast<long long>(parts), dot->data() + slot);
  }
}

// Values stored in double or (CsrMatrix::store_values_single) in float.
// The row offsets: A's own, or in a 64-bit build the 32-bit copy the SpMV keeps
// where the matrix fits it (NarrowOffsets below; a 32-bit build has none).
template <class Out, class In, class Off>
void run_binned_offsets(const CsrRef& A, const Off* rp, BinnedPlan& p, In x, Out out, BlockPolicy policy,
                        Scalars* dot, int slot) {
  if (A.v_single)
    run_bins(A, rp, A.v_single, p, x, out, policy, dot, slot);
  else
    run_bins(A, rp, A.v, p, x, out, policy, dot, slot);
}
template <class Out, class In>
void run_binned(const CsrRef& A, BinnedPlan& p, In x, Out out, BlockPolicy policy, Scalars* dot, int slot) {
  if constexpr (kWideOffsets) {
    if (A.rp32) return run_binned_offsets(A, A.rp32, p, x, out, policy, dot, slot);
  }
  run_binned_offsets(A, A.rp, p, x, out, policy, dot, slot);
}

// ---- the sliced rows (spmv_sliced.cuh) ---------------------------------------------------------
// The pattern's part of the sliced copy (a structural analysis: it survives
// new values). `made` false: the device had no room for the copy when it was
// asked for, and the matrix keeps its bins.
struct SlicedRows {
  static constexpr const char* key = "spmv.sliced";  // its structural analysis
  bool made = false;
  int unroll = 4;         // spmv_sliced_unroll
  Array<unsigned> slot;   // rows: (length << 5) | row within the slice, by rank
  Array<index_t> col;     // nnz: the columns in slice order
};
// The values' part (dropped with the values): float or double as A stores them.
struct SlicedValues {
  static constexpr const char* key = "spmv.sliced.values";  // its value analysis
  Array<double> d;
  Array<float> f;
};

// Whether `policy` sends A (its plan p) to the sliced rows. The dense rows keep
// theirs; so does every matrix with policy.route.sliced off.
bool takes_sliced(const CsrMatrix& A, const BinnedPlan& p, const BlockPolicy& policy) {
  if (policy.route.sliced == SpmvRouteOptions::Sliced::off || (policy.route.dense_rows && p.dense)) return false;
  return spmv_binned_route(A.rows(), A.cols(), A.nnz(), p.max_row, multiprocessor_count(), policy.route) ==
         SpmvRoute::sliced;
}

SlicedRows make_sliced_rows(const CsrMatrix& A) {
  SlicedRows S;
  const std::int64_t bytes = spmv_sliced_bytes(A.rows(), A.nnz(), A.single_precision() ? 4 : 8);
  if (bytes > static_cast<std::int64_t>(device::available_memory_recent() / SpmvSliced::memory_share_divisor)) {
    log_info("binned SpMV: no sliced copy of a {} x {} matrix ({} entries, {:.1f} MiB): too little device memory "
             "available; its bins serve it", A.rows(), A.cols(), A.nnz(), bytes / 1048576.0);
    return S;
  }
  try {
    const cudaStream_t st = ::saga::device_stream();
    const index_t n = A.rows();
    const unsigned grid = grid_for(n);  // CTAs of 256 threads: whole slices
    S.slot = Array<unsigned>(static_cast<std::size_t>(n), Space::device, "SpMV sliced slots");
    S.col = Array<index_t>(static_cast<std::size_t>(A.nnz()), Space::device, "SpMV sliced columns");
    slice_slots_kernel<<<grid, kThreads, 0, st>>>(n, A.row_ptr().data(), S.slot.data());
    SAGA_CUDA_LAUNCH("slice_slots_kernel");
    slice_entries_kernel<<<grid, kThreads, 0, st>>>(n, A.row_ptr().data(), S.slot.data(), A.col().data(),
                                                    S.col.data());
    SAGA_CUDA_LAUNCH("slice_entries_kernel (columns)");
    S.unroll = spmv_sliced_unroll(n, A.nnz(), multiprocessor_count());
    S.made = true;
  } catch (const DeviceOutOfMemory&) {
    S = SlicedRows{};
    log_info("binned SpMV: no sliced copy of a {} x {} matrix: out of device memory; its bins serve it", A.rows(),
             A.cols());
  }
  return S;
}

SlicedValues make_sliced_values(const CsrMatrix& A, const SlicedRows& S) {
  SlicedValues V;
  const cudaStream_t st = ::saga::device_stream();
  const index_t n = A.rows();
  const unsigned grid = grid_for(n);  // CTAs of 256 threads: whole slices
  if (A.single_precision()) {
    V.f = Array<float>(static_cast<std::size_t>(A.nnz()), Space::device, "SpMV sliced values");
    slice_entries_kernel<<<grid, kThreads, 0, st>>>(n, A.row_ptr().data(), S.slot.data(), A.val_single().data(),
                                                    V.f.data());
  } else {
    V.d = Array<double>(static_cast<std::size_t>(A.nnz()), Space::device, "SpMV sliced values");
    slice_entries_kernel<<<grid, kThreads, 0, st>>>(n, A.row_ptr().data(), S.slot.data(), A.val().data(),
                                                    V.d.data());
  }
  SAGA_CUDA_LAUNCH("slice_entries_kernel (values)");
  return V;
}

// A's sliced copy (its pattern's part S, made) with its values, made again
// where they changed; null where the device has no room for them (S is then
// dropped and the matrix keeps its bins from here on).
const SlicedValues* sliced_values_of(const CsrMatrix& A, SlicedRows& S) {
  try {
    return &A.analysis<SlicedValues>(SlicedValues::key,
                                     [&](const CsrMatrix& M) { return make_sliced_values(M, S); });
  } catch (const DeviceOutOfMemory&) {
    log_info("binned SpMV: no sliced values for a {} x {} matrix: out of device memory; its bins serve it",
             A.rows(), A.cols());
    S = SlicedRows{};
    return nullptr;
  }
}

template <class Out, class Value, class In, int U>
void launch_sliced(const CsrMatrix& A, const SlicedRows& S, const Value* v, In x, Out out, double* partial,
                   unsigned blocks) {
  launch_dependent("binned SpMV sliced rows", sliced_rows_kernel<Out, Value, In, U>, blocks, kBlock, 0,
                   ::saga::device_stream(), A.rows(), A.row_ptr().data(), S.slot.data(), S.col.data(), v, x, out,
                   partial);
}

// One product over A's sliced copy where `policy` and A take the sliced rows
// and the copy is there or can be made; false (nothing launched) otherwise.
template <class Out, class In>
bool run_sliced(const CsrMatrix& A, const BinnedPlan& p, In x, Out out, const BlockPolicy& policy, Scalars* dot,
                int slot) {
  if (!takes_sliced(A, p, policy)) return false;
  // Under sliced: auto the copy is made by prepare() alone, where the caller
  // gave it room; its values are made again here after they change.
  if (policy.route.sliced == SpmvRouteOptions::Sliced::automatic && !A.has_analysis(SlicedRows::key)) return false;
  SlicedRows& S = A.structural_analysis<SlicedRows>(SlicedRows::key, make_sliced_rows);
  if (!S.made) return false;
  const SlicedValues* V = sliced_values_of(A, S);
  if (!V) return false;
  const unsigned blocks = grid_for(A.rows(), kBlock);  // whole slices of 32 rows
  double* partial = dot ? dot->scratch(blocks) : nullptr;
  if (A.single_precision()) {
    if (S.unroll == 8)
      launch_sliced<Out, float, In, 8>(A, S, V->f.data(), x, out, partial, blocks);
    else
      launch_sliced<Out, float, In, 4>(A, S, V->f.data(), x, out, partial, blocks);
  } else {
    if (S.unroll == 8)
      launch_sliced<Out, double, In, 8>(A, S, V->d.data(), x, out, partial, blocks);
    else
      launch_sliced<Out, double, In, 4>(A, S, V->d.data(), x, out, partial, blocks);
  }
  if (dot) {
    launch_dependent("binned SpMV dot", sum_partials_into<false>, 1, kSumThreads, 0, ::saga::device_stream(), partial,
                     static_cast<long long>(blocks), dot->data() + slot);
  }
  return true;
}

// ---- the sorted slices (spmv_sorted.cuh) -------------------------------------------------------
// The pattern's part of a power-law matrix's sorted copy (a structural
// analysis). `made` false: no room when it was asked for; the row blocks serve it.
struct SortedSlices {
  bool made = false;
  int option = 0;                     // the sorted_chunk option it was made for (its analyses' keys)
  int chunk = SpmvSorted::min_chunk;  // rows past it: chunks of this many entries (sorted_chunk_of)
  index_t slices = 0;     // of 32 positions
  index_t mid_rows = 0;   // rows of max_row + 1 .. chunk entries: a warp each
  index_t long_rows = 0;  // longer rows, and their chunks of `chunk` entries
  index_t chunks = 0;
  Array<index_t> pos_row;      // slices x 32: the row at each position (-1: none)
  Array<unsigned> pos_len;     // its length (0: none)
  Array<offset_t> start;       // slices + 1: where each slice's entries start in the copy
  Array<index_t> col;          // the short rows' columns in slice order
  Array<index_t> mid;          // mid_rows: the rows a warp each, in row order
  Array<offset_t> mid_start;   // mid_rows: their first entries (read with the row, not after it)
  Array<unsigned> mid_len;     // mid_rows: their lengths
  Array<index_t> long_row;     // long_rows
  Array<index_t> chunk_ptr;    // long_rows + 1
  Array<index_t> chunk_owner;  // chunks
  Array<double> chunk_sum;     // chunks
  Array<unsigned> row_done;    // long_rows: chunks summed in this product (0 between products)
};
// The values' part (dropped with the values): float or double as A stores them.
struct SortedValues {
  Array<double> d;
  Array<float> f;
};

// The analyses' keys: one copy per sorted_chunk option ("spmv.sorted" for the
// rule's, 0, whatever chunk it gives the matrix).
std::string sorted_slices_key(int option) {
  return option == 0 ? std::string("spmv.sorted") : fmt::format("spmv.sorted.{}", option);
}
std::string sorted_values_key(int option) {
  return option == 0 ? std::string("spmv.sorted.values") : fmt::format("spmv.sorted.values.{}", option);
}
// The chunk the option gives A: the option's own, or the rule's (0).
int sorted_chunk_of(const CsrMatrix& A, int option) {
  return option > 0 ? option : spmv_sorted_chunk(A.nnz(), multiprocessor_count());
}

bool takes_sorted(const CsrMatrix& A, const BinnedPlan& p, const BlockPolicy& policy) {
  if (policy.sorted == BlockPolicy::Sorted::off || (policy.route.dense_rows && p.dense)) return false;
  return spmv_sorted_fit(A.rows(), p.power_law, multiprocessor_count(), policy.sorted == BlockPolicy::Sorted::on);
}

SortedSlices make_sorted_slices(const CsrMatrix& A, int option) {
  SortedSlices S;
  const int chunk = sorted_chunk_of(A, option);
  S.option = option;
  S.chunk = chunk;
  const index_t n = A.rows();
  const std::int64_t bound = spmv_sorted_bytes(n, A.nnz(), A.single_precision() ? 4 : 8, chunk);
  if (bound > static_cast<std::int64_t>(device::available_memory_recent() / SpmvSliced::memory_share_divisor)) {
    log_info("binned SpMV: no sorted copy of a {} x {} matrix ({} entries, {:.1f} MiB): too little device memory "
             "available; its row blocks serve it", A.rows(), A.cols(), A.nnz(), bound / 1048576.0);
    return S;
  }
  try {
    const cudaStream_t st = ::saga::device_stream();
    const offset_t* rp = A.row_ptr().data();
    const index_t windows = static_cast<index_t>((static_cast<std::int64_t>(n) + SpmvSorted::window - 1) /
                                                 SpmvSorted::window);
    // Each window's short rows, sorted; the slices each takes and where they start.
    Array<index_t> sorted(static_cast<std::size_t>(windows) * SpmvSorted::window, Space::device,
                          "SpMV sorted rows");
    Array<index_t> count(static_cast<std::size_t>(windows), Space::device, "SpMV sorted counts");
    Array<index_t> slices_of(static_cast<std::size_t>(windows), Space::device, "SpMV sorted slices a window");
    sorted_windows_kernel<<<windows, kSortThreads, 0, st>>>(n, rp, sorted.data(), count.data(), slices_of.data());
    SAGA_CUDA_LAUNCH("sorted_windows_kernel");
    Array<index_t> slice_first(static_cast<std::size_t>(windows) + 1, Space::device, "SpMV sorted slice offsets");
    prim::exclusive_scan_total(slices_of.data(), slice_first.data(), static_cast<std::size_t>(windows));
    S.slices = slice_first.get(static_cast<std::size_t>(windows));
    const std::size_t positions = std::size_t{32} * static_cast<std::size_t>(S.slices);
    S.pos_row = Array<index_t>(positions, Space::device, "SpMV sorted position rows");
    S.pos_len = Array<unsigned>(positions, Space::device, "SpMV sorted position lengths");
    sorted_positions_kernel<<<grid_for(static_cast<std::int64_t>(windows) * SpmvSorted::window), kThreads, 0, st>>>(
        windows, rp, sorted.data(), count.data(), slice_first.data(), S.pos_row.data(), S.pos_len.data());
    SAGA_CUDA_LAUNCH("sorted_positions_kernel");
    // Where each slice's entries start (at most 32 max_row each: int counts).
    Array<index_t> entries(static_cast<std::size_t>(S.slices), Space::device, "SpMV sorted slice entries");
    sorted_slice_entries_kernel<<<grid_for(static_cast<std::int64_t>(positions)), kThreads, 0, st>>>(
        S.slices, S.pos_len.data(), entries.data());
    SAGA_CUDA_LAUNCH("sorted_slice_entries_kernel");
    S.start = Array<offset_t>(static_cast<std::size_t>(S.slices) + 1, Space::device, "SpMV sorted slice starts");
    prim::exclusive_scan_total(entries.data(), S.start.data(), static_cast<std::size_t>(S.slices));
    S.col = Array<index_t>(static_cast<std::size_t>(S.start.get(static_cast<std::size_t>(S.slices))), Space::device,
                           "SpMV sorted columns");
    sorted_copy_kernel<<<grid_for(static_cast<std::int64_t>(positions)), kThreads, 0, st>>>(
        S.slices, rp, S.pos_row.data(), S.pos_len.data(), S.start.data(), A.col().data(), S.col.data());
    SAGA_CUDA_LAUNCH("sorted_copy_kernel (columns)");
    // The rows a warp each, in row order, and the rows past `chunk`, in chunks
    // (the row blocks' long-row lists at that size).
    Array<index_t> mid_flag(static_cast<std::size_t>(n), Space::device, "SpMV sorted mid-row flags");
    Array<index_t> long_flag(static_cast<std::size_t>(n), Space::device, "SpMV sorted long-row flags");
    Array<index_t> chunks(static_cast<std::size_t>(n), Space::device, "SpMV sorted chunk counts");
    sorted_flags_kernel<<<grid_for(n), kThreads, 0, st>>>(n, rp, chunk, mid_flag.data(), long_flag.data(),
                                                          chunks.data());
    SAGA_CUDA_LAUNCH("sorted_flags_kernel");
    Array<index_t> at(static_cast<std::size_t>(n) + 1, Space::device, "SpMV sorted list positions");
    prim::exclusive_scan_total(mid_flag.data(), at.data(), static_cast<std::size_t>(n));
    S.mid_rows = at.get(static_cast<std::size_t>(n));
    S.mid = Array<index_t>(static_cast<std::size_t>(S.mid_rows), Space::device, "SpMV sorted mid rows");
    S.mid_start = Array<offset_t>(static_cast<std::size_t>(S.mid_rows), Space::device, "SpMV sorted mid-row starts");
    S.mid_len = Array<unsigned>(static_cast<std::size_t>(S.mid_rows), Space::device, "SpMV sorted mid-row lengths");
    sorted_mid_list_kernel<<<grid_for(n), kThreads, 0, st>>>(n, rp, at.data(), S.mid.data(), S.mid_start.data(),
                                                            S.mid_len.data());
    SAGA_CUDA_LAUNCH("sorted_mid_list_kernel");
    Array<index_t> chunk_start(static_cast<std::size_t>(n) + 1, Space::device, "SpMV sorted chunk offsets");
    prim::exclusive_scan_total(long_flag.data(), at.data(), static_cast<std::size_t>(n));
    prim::exclusive_scan_total(chunks.data(), chunk_start.data(), static_cast<std::size_t>(n));
    S.long_rows = at.get(static_cast<std::size_t>(n));
    S.chunks = chunk_start.get(static_cast<std::size_t>(n));
    S.long_row = Array<index_t>(static_cast<std::size_t>(S.long_rows), Space::device, "SpMV sorted long rows");
    S.chunk_ptr = Array<index_t>(static_cast<std::size_t>(S.long_rows) + 1, Space::device, "SpMV sorted chunk pointers");
    S.chunk_owner = Array<index_t>(static_cast<std::size_t>(S.chunks), Space::device, "SpMV sorted chunk owners");
    S.chunk_sum = Array<double>(static_cast<std::size_t>(S.chunks), Space::device, "SpMV sorted chunk sums");
    S.row_done = Array<unsigned>::zeros(static_cast<std::size_t>(S.long_rows), Space::device,
                                        "SpMV sorted long-row chunk counts");
    if (S.long_rows > 0) {
      long_list_kernel<<<grid_for(n), kThreads, 0, st>>>(n, rp, chunk, at.data(), chunk_start.data(),
                                                         S.long_row.data(), S.chunk_ptr.data());
      SAGA_CUDA_LAUNCH("long_list_kernel (sorted)");
      chunk_owner_kernel<<<grid_for(S.long_rows), kThreads, 0, st>>>(S.long_rows, S.chunk_ptr.data(),
                                                                     S.chunk_owner.data());
      SAGA_CUDA_LAUNCH("chunk_owner_kernel (sorted)");
    }
    S.made = true;
  } catch (const DeviceOutOfMemory&) {
    S = SortedSlices{};
    log_info("binned SpMV: no sorted copy of a {} x {} matrix: out of device memory; its row blocks serve it",
             A.rows(), A.cols());
  }
  return S;
}

SortedValues make_sorted_values(const CsrMatrix& A, const SortedSlices& S) {
  SortedValues V;
  const cudaStream_t st = ::saga::device_stream();
  const std::size_t size = S.col.size();
  const unsigned grid = grid_for(std::int64_t{32} * S.slices);
  if (A.single_precision()) {
    V.f = Array<float>(size, Space::device, "SpMV sorted values");
    sorted_copy_kernel<<<grid, kThreads, 0, st>>>(S.slices, A.row_ptr().data(), S.pos_row.data(), S.pos_len.data(),
                                                  S.start.data(), A.val_single().data(), V.f.data());
  } else {
    V.d = Array<double>(size, Space::device, "SpMV sorted values");
    sorted_copy_kernel<<<grid, kThreads, 0, st>>>(S.slices, A.row_ptr().data(), S.pos_row.data(), S.pos_len.data(),
                                                  S.start.data(), A.val().data(), V.d.data());
  }
  SAGA_CUDA_LAUNCH("sorted_copy_kernel (values)");
  return V;
}

// A's sorted copy (its pattern's part S, made) with its values, made again
// where they changed; null where the device has no room for them (S is then
// dropped and the matrix keeps its row blocks from here on).
const SortedValues* sorted_values_of(const CsrMatrix& A, SortedSlices& S) {
  try {
    return &A.analysis<SortedValues>(sorted_values_key(S.option),
                                     [&](const CsrMatrix& M) { return make_sorted_values(M, S); });
  } catch (const DeviceOutOfMemory&) {
    log_info("binned SpMV: no sorted values for a {} x {} matrix: out of device memory; its row blocks serve it",
             A.rows(), A.cols());
    S = SortedSlices{};
    return nullptr;
  }
}

// What the product kernel reads of the copy.
template <class Value>
struct SortedRef {
  index_t slices, mid_rows;
  int chunk;
  const index_t* pos_row;
  const unsigned* pos_len;
  const offset_t* start;
  const index_t* col;
  const Value* val;
  const index_t* mid;
  const offset_t* mid_start;
  const unsigned* mid_len;
};

// A lane's part of a warp row's sum: the row's `len` entries from `a`, 32 U
// at a time, U columns and values loaded (predicated) before any gather of x,
// so that a row of 65-128 entries costs one round of dependent loads, not one
// per 32 entries (a plain strided loop leaves its last trip % U steps to a
// remainder loop, and these rows have 3-4 steps a lane).
template <class Value, class In, int U>
__device__ __forceinline__ double warp_row_sum(offset_t a, int len, int lane, const index_t* __restrict__ ci,
                                               const Value* __restrict__ v, In x) {
  double s = 0.0;
  for (int g = 0; g < len; g += 32 * U) {
    index_t c[U];
    Value w[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int k = g + 32 * u + lane;
      c[u] = 0;
      w[u] = Value(0);
      if (k < len) {
        c[u] = load_a<true>(ci + a + k);
        w[u] = load_a<true>(v + a + k);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (g + 32 * u + lane < len) s += w[u] * x(c[u]);
  }
  return s;
}

// One launch: the long rows' chunks (CTAs 0 .. L.chunks - 1, sum_chunk, each
// row finished by the CTA that completes it), the mid rows (a warp each), then
// the slices (a warp each, one thread a row, in CSR order). Every CTA but the
// chunks' writes one partial of the fused dot; the long rows' partials follow
// (L.partial).
template <class Out, class Value, class In>
__global__ __launch_bounds__(kBlock) void sorted_rows_kernel(LongRowChunks L, SortedRef<Value> S,
                                                             const offset_t* __restrict__ rp,
                                                             const index_t* __restrict__ ci,
                                                             const Value* __restrict__ v, In x, Out out,
                                                             double* __restrict__ partial) {
  wait_for_prior_grid();
  const index_t cta = static_cast<index_t>(blockIdx.x);
  if (cta < L.chunks) {  // the same for the whole CTA
    sum_chunk(L, cta, rp, ci, v, x, out, S.chunk);
    return;
  }
  constexpr int kWarps = kBlock / 32;
  const index_t mid_ctas = (S.mid_rows + kWarps - 1) / kWarps;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double mine = 0.0;
  if (cta < L.chunks + mid_ctas) {  // a warp a row of max_row + 1 .. chunk entries
    const index_t i = (cta - L.chunks) * kWarps + warp;
    if (i < S.mid_rows) {  // the same for the whole warp
      const index_t r = S.mid[i];
      const offset_t a = S.mid_start[i];
      const int len = static_cast<int>(S.mid_len[i]);
      typename Out::Pre pre{};
      if (lane == 0) pre = out.pre(r);
      double s = warp_row_sum<Value, In, SpmvSorted::warp_unroll>(a, len, lane, ci, v, x);
      for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
      if (lane == 0) mine = out(r, s, pre);
    }
  } else {  // a slice of 32 sorted short rows
    const index_t q = (cta - L.chunks - mid_ctas) * kWarps + warp;
    if (q < S.slices) {  // the same for the whole warp
      const std::int64_t p = std::int64_t{32} * q + lane;
      const int len = static_cast<int>(S.pos_len[p]);
      const index_t r = S.pos_row[p];
      typename Out::Pre pre{};
      if (r >= 0) pre = out.pre(r);
      const int longest = __shfl_sync(0xffffffffu, len, 0);
      const double s = slice_row_sum<Value, In, SpmvSorted::unroll>(len, longest, S.start[q], lane, S.col, S.val, x);
      if (r >= 0) mine = out(r, s, pre);
    }
  }
  if (partial) {
    mine = block_sum<kBlock>(mine);
    if (threadIdx.x == 0) partial[cta - L.chunks] = mine;
  }
}

// One product over A's sorted copy where `policy` and A take the sorted slices
// and the copy is there (or, under sorted_slices: on, can be made); false
// (nothing launched) otherwise.
template <class Out, class In>
bool run_sorted(const CsrMatrix& A, const BinnedPlan& p, In x, Out out, const BlockPolicy& policy, Scalars* dot,
                int slot) {
  if (!takes_sorted(A, p, policy)) return false;
  const std::string key = sorted_slices_key(policy.sorted_chunk);
  if (policy.sorted == BlockPolicy::Sorted::automatic && !A.has_analysis(key)) return false;
  SortedSlices& S = A.structural_analysis<SortedSlices>(
      key, [&](const CsrMatrix& M) { return make_sorted_slices(M, policy.sorted_chunk); });
  if (!S.made) return false;
  const SortedValues* V = sorted_values_of(A, S);
  if (!V) return false;
  constexpr int kWarps = kBlock / 32;
  const index_t ctas = (S.mid_rows + kWarps - 1) / kWarps + (S.slices + kWarps - 1) / kWarps;
  const unsigned blocks = static_cast<unsigned>(S.chunks + ctas);
  // partial: a slot a CTA but the chunks', then one a long row.
  double* partial = dot ? dot->scratch(static_cast<std::size_t>(ctas) + S.long_rows) : nullptr;
  LongRowChunks L;
  L.first = 0;
  L.chunks = S.chunks;
  L.long_row = S.long_row.data();
  L.chunk_ptr = S.chunk_ptr.data();
  L.owner = S.chunk_owner.data();
  L.chunk_sum = S.chunk_sum.data();
  L.finish = true;
  L.row_done = S.row_done.data();
  L.partial = partial ? partial + ctas : nullptr;
  const cudaStream_t st = ::saga::device_stream();
  if (blocks > 0) {
    if (A.single_precision())
      launch_dependent("binned SpMV sorted slices", sorted_rows_kernel<Out, float, In>, blocks, kBlock, 0, st, L,
                       SortedRef<float>{S.slices, S.mid_rows, S.chunk, S.pos_row.data(), S.pos_len.data(),
                                        S.start.data(), S.col.data(), V->f.data(), S.mid.data(), S.mid_start.data(),
                                        S.mid_len.data()},
                       A.row_ptr().data(), A.col().data(), A.val_single().data(), x, out, partial);
    else
      launch_dependent("binned SpMV sorted slices", sorted_rows_kernel<Out, double, In>, blocks, kBlock, 0, st, L,
                       SortedRef<double>{S.slices, S.mid_rows, S.chunk, S.pos_row.data(), S.pos_len.data(),
                                         S.start.data(), S.col.data(), V->d.data(), S.mid.data(), S.mid_start.data(),
                                         S.mid_len.data()},
                       A.row_ptr().data(), A.col().data(), A.val().data(), x, out, partial);
  }
  if (dot) {
    launch_dependent("binned SpMV dot", sum_partials_into<false>, 1, kSumThreads, 0, st, partial,
                     static_cast<long long>(ctas) + S.long_rows, dot->data() + slot);
  }
  return true;
}

// ---- the diagonal rows (spmv_diagonals.cuh) ----------------------------------------------------
// The pattern's part of the diagonal copy (a structural analysis): the
// offsets, or `made` false where the matrix does not lie on few diagonals.
struct DiagonalRows {
  static constexpr const char* key = "spmv.diagonals";  // its structural analysis
  bool made = false;
  int count = 0;          // diagonals
  Array<index_t> offset;  // count, ascending
  // Under diagonals: auto, whether prepare() found room for the values' copy
  // (made again by the products after the values change). Without it the
  // products keep the thread bin where the rows allow it (5- and 7-point), so
  // that a product has the same bits with or without the copy.
  bool copy = false;
};
// The values' part (dropped with the values), diagonal by diagonal; `made`
// false where a value is a NaN (it would read as a pad).
struct DiagonalValues {
  static constexpr const char* key = "spmv.diagonals.values";  // its value analysis
  bool made = false;
  Array<double> d;
  Array<float> f;
};

// Whether A (its plan p) may take the diagonal rows under `policy`: a cheap
// test of the shape before the pattern is read.
bool may_take_diagonals(const CsrMatrix& A, const BinnedPlan& p, const BlockPolicy& policy) {
  if (policy.diagonals == BlockPolicy::Diagonals::off || (policy.route.dense_rows && p.dense)) return false;
  return spmv_diagonals_fit(A.rows(), static_cast<std::int64_t>(A.nnz()), p.max_row, multiprocessor_count());
}

// The pattern's part (callers have checked may_take_diagonals): the probe
// row's offsets found and every row checked on the device, one wait.
DiagonalRows make_diagonal_rows(const CsrMatrix& A, offset_t max_row) {
  const index_t n = A.rows();
  const cudaStream_t st = ::saga::device_stream();
  const SpmvDiagonalsWindow w = spmv_diagonals_window(n);
  try {
    DiagonalRows D;
    D.offset = Array<index_t>(static_cast<std::size_t>(max_row), Space::device, "SpMV diagonal offsets");
    Array<int> bad = Array<int>::zeros(1, Space::device, "SpMV diagonal pattern flag");
    diagonal_probe_kernel<<<1, kProbeThreads, 0, st>>>(static_cast<index_t>(w.first), static_cast<index_t>(w.count),
                                                       A.row_ptr().data(), A.col().data(), max_row, D.offset.data(),
                                                       bad.data());
    SAGA_CUDA_LAUNCH("diagonal_probe_kernel");
    diagonal_pattern_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.row_ptr().data(), A.col().data(), D.offset.data(),
                                                               static_cast<int>(max_row), bad.data());
    SAGA_CUDA_LAUNCH("diagonal_pattern_kernel");
    if (bad.get(0) != 0) return DiagonalRows{};
    D.count = static_cast<int>(max_row);
    D.made = true;
    return D;
  } catch (const DeviceOutOfMemory&) {
    return DiagonalRows{};
  }
}

DiagonalValues make_diagonal_values(const CsrMatrix& A, const DiagonalRows& D) {
  DiagonalValues V;
  const cudaStream_t st = ::saga::device_stream();
  const index_t n = A.rows();
  const std::int64_t bytes = spmv_diagonals_bytes(n, D.count, A.single_precision() ? 4 : 8);
  if (bytes > static_cast<std::int64_t>(device::available_memory_recent() / SpmvSliced::memory_share_divisor)) {
    log_info("binned SpMV: no diagonal copy of a {} x {} matrix ({:.1f} MiB): too little device memory available; "
             "its bins serve it", A.rows(), A.cols(), bytes / 1048576.0);
    return V;
  }
  const std::size_t size = static_cast<std::size_t>(n) * static_cast<std::size_t>(D.count);
  Array<int> bad = Array<int>::zeros(1, Space::device, "SpMV diagonal values flag");
  if (A.single_precision()) {
    V.f = Array<float>(size, Space::device, "SpMV diagonal values");
    diagonal_values_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.row_ptr().data(), A.col().data(),
                                                             A.val_single().data(), D.offset.data(), D.count,
                                                             V.f.data(), bad.data());
  } else {
    V.d = Array<double>(size, Space::device, "SpMV diagonal values");
    diagonal_values_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.row_ptr().data(), A.col().data(),
                                                             A.val().data(), D.offset.data(), D.count, V.d.data(),
                                                             bad.data());
  }
  SAGA_CUDA_LAUNCH("diagonal_values_kernel");
  if (bad.get(0) != 0) return DiagonalValues{};  // a NaN value: the bins serve it
  V.made = true;
  return V;
}

// A's diagonal copy (its pattern's part made) with its values, made again
// where they changed; null where they cannot be (a NaN, no room). Out of
// device memory the copy is given up (D.copy false) until a prepare grants it
// again, so that the products do not try at every call.
const DiagonalValues* diagonal_values_of(const CsrMatrix& A, DiagonalRows& D) {
  try {
    const DiagonalValues& V = A.analysis<DiagonalValues>(
        DiagonalValues::key, [&](const CsrMatrix& M) { return make_diagonal_values(M, D); });
    return V.made ? &V : nullptr;
  } catch (const DeviceOutOfMemory&) {
    log_info("binned SpMV: no diagonal values for a {} x {} matrix: out of device memory; its bins serve it",
             A.rows(), A.cols());
    D.copy = false;
    return nullptr;
  }
}

// A's diagonal copy, made where `make` and the matrix allow; null otherwise.
DiagonalRows* diagonal_rows_of(const CsrMatrix& A, const BinnedPlan& p, bool make) {
  if (!make && !A.has_analysis(DiagonalRows::key)) return nullptr;
  DiagonalRows& D = A.structural_analysis<DiagonalRows>(
      DiagonalRows::key, [&](const CsrMatrix& M) { return make_diagonal_rows(M, p.max_row); });
  return D.made ? &D : nullptr;
}

// One product over A's diagonal copy where `policy` and A take it and the copy
// is there (or, under diagonals: on, can be made); false (nothing launched)
// otherwise.
template <class Out, class In>
bool run_diagonals(const CsrMatrix& A, const BinnedPlan& p, In x, Out out, const BlockPolicy& policy, Scalars* dot,
                   int slot) {
  if (!may_take_diagonals(A, p, policy)) return false;
  const bool on = policy.diagonals == BlockPolicy::Diagonals::on;
  DiagonalRows* D = diagonal_rows_of(A, p, on);
  if (!D || !(D->copy || on)) return false;
  const DiagonalValues* V = diagonal_values_of(A, *D);
  if (!V) return false;
  D->copy = true;  // (diagonals: on makes it at the first product)
  const unsigned blocks = grid_for(A.rows(), kBlock);
  double* partial = dot ? dot->scratch(blocks) : nullptr;
  const cudaStream_t st = ::saga::device_stream();
  if (A.single_precision())
    launch_dependent("binned SpMV diagonal rows", diagonal_rows_kernel<Out, float, In>, blocks, kBlock, 0, st,
                     A.rows(), V->f.data(), D->offset.data(), D->count, x, out, partial);
  else
    launch_dependent("binned SpMV diagonal rows", diagonal_rows_kernel<Out, double, In>, blocks, kBlock, 0, st,
                     A.rows(), V->d.data(), D->offset.data(), D->count, x, out, partial);
  if (dot) {
    launch_dependent("binned SpMV dot", sum_partials_into<false>, 1, kSumThreads, 0, st, partial,
                     static_cast<long long>(blocks), dot->data() + slot);
  }
  return true;
}

// The CsrMatrix entry: an empty matrix has no plan (only the dot to clear).
template <class Out, class In>
void run_binned(const CsrMatrix& A, In x, Out out, BlockPolicy policy, Scalars* dot, int slot) {
  if (A.rows() == 0) {
    if (dot) {
      launch_dependent("set_zero_kernel", set_zero_kernel, 1, 1, 0, ::saga::device_stream(), dot->data() + slot);
    }
    return;
  }
  BinnedPlan& p = plan_of(A, policy.max_units, policy.unstaged_mean, policy.power_law_units);
  if (run_diagonals(A, p, x, out, policy, dot, slot)) return;
  if (run_sliced(A, p, x, out, policy, dot, slot)) return;
  if (run_sorted(A, p, x, out, policy, dot, slot)) return;
  // A stencil matrix without its diagonal copy (no room): the same bits.
  if (may_take_diagonals(A, p, policy) && diagonal_rows_of(A, p, false))
    spmv_route_without_diagonal_copy(policy.route, p.max_row);
  run_binned(ref_of(A), p, x, out, policy, dot, slot);
}

template <class T>
std::size_t array_bytes(const Array<T>& a) {
  return a.size() * sizeof(T);
}

class BinnedSpmv final : public SpmvAlgorithm {
 public:
  explicit BinnedSpmv(BlockPolicy p) : p_(p) {}
  // A 64-bit build's 32-bit copy of A's offsets (NarrowOffsets), where A fits
  // them, its products read them (the CSR bins: not where a diagonal, sliced or
  // sorted copy was made, which the products read instead; a matrix the rule
  // sends to one of those but which had no room for it keeps the bins) and
  // extra_bytes hold them: its bytes, or 0.
  // The cycle asks for it after every operator's prepare(), so that these 4 B
  // a row never take the room of a larger copy (in one pass, 3D 27-pt N=64's
  // cycle lost a level's sliced copy to P0's offsets: 2.6% slower, H200).
  std::size_t prepare_offsets(const CsrMatrix& A, std::size_t extra_bytes) const override {
    if (!takes_narrow_offsets(A) || A.has_analysis(NarrowOffsets::key)) return 0;
    if (const DiagonalRows* D = kept_analysis<DiagonalRows>(A, true); D && D->made && D->copy) return 0;
    if (const SlicedRows* S = kept_analysis<SlicedRows>(A, true); S && S->made) return 0;
    if (const SortedSlices* S = kept_analysis<SortedSlices>(A, true, sorted_slices_key(p_.sorted_chunk)); S && S->made)
      return 0;
    const std::int64_t bytes = narrow_offsets_bytes(A);
    if (static_cast<std::size_t>(bytes) > extra_bytes) return 0;
    try {
      A.structural_analysis<NarrowOffsets>(NarrowOffsets::key, make_narrow_offsets);
    } catch (const DeviceOutOfMemory&) {
      return 0;  // nothing kept: the analysis is stored only once made
    }
    return static_cast<std::size_t>(bytes);
  }
  // The plan, and the copy the matrix takes where it fits in extra_bytes
  // (made now rather than inside a solve's first iteration; under sliced:
  // auto, only here).
  std::size_t prepare(const CsrMatrix& A, std::size_t extra_bytes) const override {
    if (A.rows() == 0) return 0;
    const BinnedPlan& p = plan_of(A, p_.max_units, p_.unstaged_mean, p_.power_law_units);
    // A stencil matrix's diagonal copy first: it serves every product the
    // sliced copy would, in fewer bytes. The pattern is looked at whatever the
    // room (without a copy, short rows keep the thread bin: the same bits).
    if (may_take_diagonals(A, p, p_)) {
      if (DiagonalRows* D = diagonal_rows_of(A, p, true)) {
        if (D->copy) return 0;  // made once
        const std::int64_t bytes = spmv_diagonals_bytes(A.rows(), D->count, A.single_precision() ? 4 : 8);
        if (p_.diagonals == BlockPolicy::Diagonals::on || static_cast<std::size_t>(bytes) <= extra_bytes) {
          D->copy = diagonal_values_of(A, *D) != nullptr;
          if (D->copy) return static_cast<std::size_t>(bytes);
        }
        // No room for a diagonal copy: none for a sliced one (it is larger) either.
        return 0;
      }
    }
    if (takes_sorted(A, p, p_)) {  // a power-law matrix
      const std::string key = sorted_slices_key(p_.sorted_chunk);
      if (A.has_analysis(key)) return 0;
      const std::int64_t bound = spmv_sorted_bytes(A.rows(), A.nnz(), A.single_precision() ? 4 : 8,
                                                   sorted_chunk_of(A, p_.sorted_chunk));
      if (p_.sorted == BlockPolicy::Sorted::automatic && static_cast<std::size_t>(bound) > extra_bytes) return 0;
      SortedSlices& S = A.structural_analysis<SortedSlices>(
          key, [&](const CsrMatrix& M) { return make_sorted_slices(M, p_.sorted_chunk); });
      return S.made && sorted_values_of(A, S) ? kept_bytes(A) : 0;
    }
    if (!takes_sliced(A, p, p_) || A.has_analysis(SlicedRows::key)) return 0;
    const std::int64_t bytes = spmv_sliced_bytes(A.rows(), A.nnz(), A.single_precision() ? 4 : 8);
    if (p_.route.sliced == SpmvRouteOptions::Sliced::automatic && static_cast<std::size_t>(bytes) > extra_bytes) return 0;
    SlicedRows& S = A.structural_analysis<SlicedRows>(SlicedRows::key, make_sliced_rows);
    return S.made && sliced_values_of(A, S) ? static_cast<std::size_t>(bytes) : 0;
  }
  void release(const CsrMatrix& A) const override {
    A.drop_analysis(NarrowOffsets::key);
    A.drop_analysis(SlicedRows::key);
    A.drop_analysis(SlicedValues::key);
    A.drop_analysis(DiagonalRows::key);
    A.drop_analysis(DiagonalValues::key);
    A.drop_analysis(sorted_slices_key(p_.sorted_chunk));
    A.drop_analysis(sorted_values_key(p_.sorted_chunk));
  }
  std::size_t kept_bytes(const CsrMatrix& A) const override {
    std::size_t b = 0;
    if (const NarrowOffsets* N = kept_analysis<NarrowOffsets>(A, true)) b += array_bytes(N->rp);
    if (const SlicedRows* S = kept_analysis<SlicedRows>(A, true)) b += array_bytes(S->slot) + array_bytes(S->col);
    if (const SlicedValues* V = kept_analysis<SlicedValues>(A, false)) b += array_bytes(V->d) + array_bytes(V->f);
    if (const DiagonalValues* V = kept_analysis<DiagonalValues>(A, false)) b += array_bytes(V->d) + array_bytes(V->f);
    if (const SortedSlices* S = kept_analysis<SortedSlices>(A, true, sorted_slices_key(p_.sorted_chunk)))
      b += array_bytes(S->pos_row) + array_bytes(S->pos_len) + array_bytes(S->start) + array_bytes(S->col) +
           array_bytes(S->mid) + array_bytes(S->mid_start) + array_bytes(S->mid_len) + array_bytes(S->long_row) +
           array_bytes(S->chunk_ptr) + array_bytes(S->chunk_owner) + array_bytes(S->chunk_sum) +
           array_bytes(S->row_done);
    if (const SortedValues* V = kept_analysis<SortedValues>(A, false, sorted_values_key(p_.sorted_chunk)))
      b += array_bytes(V->d) + array_bytes(V->f);
    return b;
  }
  void apply(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) const override {
    run_binned(A, DirectX{x.data()}, AxpbyOut{alpha, beta, y.data(), y.data()}, p_, nullptr, 0);
  }
  void apply_add(double alpha, const CsrMatrix& A, const Vector& x, double beta, const Vector& z,
                 Vector& y) const override {
    run_binned(A, DirectX{x.data()}, AxpbyOut{alpha, beta, z.data(), y.data()}, p_, nullptr, 0);
  }
  void relax(const CsrMatrix& A, const Vector& x, const Vector& b, const Vector& w, double omega, Vector& x_out,
             Scalars* dot, int slot) const override {
    run_binned(A, DirectX{x.data()}, RelaxOut{x.data(), b.data(), w.data(), omega, x_out.data()}, p_, dot, slot);
  }
  void smoothed_prolongation(const CsrMatrix& A, const Vector& w, double omega, const Array<index_t>& agg,
                             const Vector& scale, const Vector& e, const Vector& x, Vector& x_out) const override {
    run_binned(A, AggregatedX{agg.data(), scale.data(), e.data()},
               ProlongOut{agg.data(), scale.data(), e.data(), x.data(), w.data(), omega, x_out.data()}, p_, nullptr, 0);
  }
  void apply_dot(const CsrMatrix& A, const Vector& x, Vector& y, Scalars& s, int slot) const override {
    run_binned(A, DirectX{x.data()}, DotOut{x.data(), y.data()}, p_, &s, slot);
  }
  void relax_from_zero(const CsrMatrix& A, const Vector& b, const Vector& w, double omega, Vector& x,
                       Vector& r) const override {
    if (!fuses_relax_from_zero(A, p_)) return SpmvAlgorithm::relax_from_zero(A, b, w, omega, x, r);
    run_binned(A, RelaxedFromZeroX{w.data(), b.data(), omega},
               RelaxFromZeroOut{b.data(), w.data(), omega, x.data(), r.data()}, p_, nullptr, 0);
  }

 private:
  BlockPolicy p_;
};

struct Binned {
  static constexpr const char* name = "binned";
  static constexpr const char* summary =
      "adaptive binned rows: short rows staged in shared memory, warp rows, long rows split (device default)";
  static constexpr bool runs_on_host = false, runs_on_device = true;
  struct Params {
    int thread_max_row = 8;
    int warp_max_row = 16;
    int entries_per_lane = 32;
    bool stage = true;
    int max_units = kUnits;
    bool small_vector = true;
    int vector_max_units = static_cast<int>(SpmvRowBlocks::vector_max_units);
    bool dense_rows = true;
    std::string sliced = "auto";
    std::string vector_lanes = "auto";
    int resident_ctas = 6;
    int unstaged_mean = SpmvRowBlocks::default_unstaged_mean;
    int power_law_units = SpmvRowBlocks::default_power_law_units;
    int power_law_ctas = SpmvRowBlocks::default_power_law_ctas;
    std::string diagonals = "auto";
    std::string sorted_slices = "auto";
    int sorted_chunk = 0;
    template <class V>
    void visit(V& v) {
      v("thread_max_row", thread_max_row,
        "matrices whose longest row has at most this many entries: one thread per row, no blocks", in_range(0, 256));
      v("warp_max_row", warp_max_row,
        "else, matrices whose longest row has at most this many entries and that the vector rows do not take "
        "(past vector_max_units, or small_vector off): the warp bin (each warp stages the entries of 32 or 16 rows)",
        in_range(0, 64));
      v("entries_per_lane", entries_per_lane,
        "row blocks: lanes per row = the smallest power of two (<= 32) giving at most this many entries per lane "
        "at the block's mean row length",
        in_range(1, 2048));
      v("stage", stage, "row blocks: stage the products in shared memory with coalesced loads (else each row's "
        "lanes read A and x directly)");
      v("max_units", max_units, "row blocks: about this many work units (entries + rows) per CTA, spread so that the blocks fill whole "
        "waves (up to 1.5 times as many, or fewer for small matrices)", in_range(kMinUnits, kMaxUnits));
      v("small_vector", small_vector, "matrices of at most vector_max_units work units (entries + rows: coarse levels), "
        "or of any size whose rows average 64 entries or more (restrictions), with no row longer than 1024 "
        "entries nor than 8 times the larger of V and the mean row length: V lanes per row straight from global "
        "memory, V from the mean row length (2 for a mean of at most 8), up to 256 where it passes 32 (no block plan "
        "read, no staging, no row split); ahead of the warp bin, and of the thread bin too for matrices of at most "
        "2^21 units");
      v("vector_max_units", vector_max_units, "small_vector: the most work units (entries + rows) a matrix may have to "
        "take the vector rows", in_range(0, 1 << 30));
      v("dense_rows", dense_rows, "matrices whose every row holds every column (32 to 4096 of them: a coarse "
        "level's dense inverse): 32 to 256 lanes a row, no column index read");
      v("sliced", sliced, "matrices whose rows hold at most 64 entries, past the thread bin and with at least 20 "
        "warps of rows an SM: a copy of their entries stored slice by slice (32 rows, entry k of each row in "
        "turn), one thread a row (auto: the copy made only where a cycle prepares the matrix, in the room it "
        "gives under the process's peak device memory, and at most a quarter of the available memory; on: "
        "wherever no row passes 64 entries, any size, made at the first product; off: never)",
        one_of({"auto", "on", "off"}));
      v("vector_lanes", vector_lanes, "the vector rows' lanes a row (auto: from the mean row, V up to 32 and "
        "more for long rows; a number: that many, for measurements)",
        one_of({"auto", "2", "4", "8", "16", "32", "64", "128", "256"}));
      v("resident_ctas", resident_ctas, "staged row blocks: ask each SM for a shared memory carveout that holds "
        "this many CTAs' staging, the rest being L1 for the gathers of x (fewer CTAs an SM, a larger L1; 0: the "
        "driver's choice)", in_range(0, 32));
      v("unstaged_mean", unstaged_mean, "row blocks of a matrix with rows split into chunks (longer than a block: "
        "power-law degrees) whose rows average at least this many entries: unstaged, the lanes reading A and x "
        "directly (0: staged wherever stage is on)", in_range(0, 1 << 20));
      v("power_law_units", power_law_units, "row blocks of a matrix with a row longer than max_units (power-law "
        "degrees) and staged blocks: about this many work units per CTA, the wave count rounded up so that no "
        "block is larger (0: max_units; values under 256 act as 256)", in_range(0, kMaxUnits));
      v("power_law_ctas", power_law_ctas, "those matrices' staged row blocks: ask each SM for a shared memory "
        "carveout that holds this many CTAs' staging (as resident_ctas; 0: the driver's choice)", in_range(0, 32));
      v("diagonals", diagonals, "stencil matrices (at least 20 warps of rows an SM, every entry on one of at most 32 "
        "diagonals, columns ascending, the copy at most 1/0.85 of the entries): a copy of their values stored "
        "diagonal by diagonal, one thread a row, no column index read, ahead of every other path (auto: made only "
        "where a cycle prepares the matrix, in the room it gives, as the sliced copy; on: wherever the matrix fits, "
        "at the first product; off: never)", one_of({"auto", "on", "off"}));
      v("sorted_slices", sorted_slices, "power-law matrices (a row longer than the row blocks' base units) with at "
        "least 20 warps of rows an SM: a copy of their rows of at most 64 entries, sorted by length within windows "
        "of 1024 rows and stored in slices of 32 (entry k of each row in turn), one thread a row; rows of 65 to "
        "sorted_chunk entries a warp each, longer ones in CTA chunks of sorted_chunk (auto: the copy made only "
        "where a cycle or spmv_prepare gives it room, at most a quarter of the available memory; on: wherever the plan is "
        "power-law, any size, made at the first product; off: never)", one_of({"auto", "on", "off"}));
      v("sorted_chunk", sorted_chunk, "sorted slices: rows of 65 to this many entries a warp each, longer ones in CTA "
        "chunks of this many entries (auto: the least power of two at or above 2 nnz / (64 SMs), from 2048 "
        "to 8192)",
        in_range_or_auto(256, 65536));
    }
  };
  // The kernels' policy of these options (Params{}: the component's defaults).
  static BlockPolicy policy(const Params& p) {
    SpmvRouteOptions route;
    route.thread_max_row = p.thread_max_row;
    route.warp_max_row = p.warp_max_row;
    route.small_vector = p.small_vector;
    route.vector_max_units = p.vector_max_units;
    route.dense_rows = p.dense_rows;
    route.sliced = p.sliced == "off"  ? SpmvRouteOptions::Sliced::off
                   : p.sliced == "on" ? SpmvRouteOptions::Sliced::on
                                      : SpmvRouteOptions::Sliced::automatic;
    const int lanes = p.vector_lanes == "auto" ? 0 : std::stoi(p.vector_lanes);
    BlockPolicy policy{route,           p.entries_per_lane, p.stage,          p.max_units, p.resident_ctas,
                       p.unstaged_mean, p.power_law_units,  p.power_law_ctas, lanes};
    policy.diagonals = p.diagonals == "off"  ? BlockPolicy::Diagonals::off
                       : p.diagonals == "on" ? BlockPolicy::Diagonals::on
                                             : BlockPolicy::Diagonals::automatic;
    policy.sorted = p.sorted_slices == "off"  ? BlockPolicy::Sorted::off
                    : p.sorted_slices == "on" ? BlockPolicy::Sorted::on
                                              : BlockPolicy::Sorted::automatic;
    policy.sorted_chunk = p.sorted_chunk;
    return policy;
  }
  static std::unique_ptr<SpmvAlgorithm> make(const Params& p) { return std::make_unique<BinnedSpmv>(policy(p)); }
};
struct Scalar {
  static constexpr const char* name = "scalar";
  static constexpr const char* summary = "one thread per row";
  static constexpr bool runs_on_host = false, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<SpmvAlgorithm> make(const Params&) { return std::make_unique<SpmvFunction>(&spmv_scalar); }
};
}  // namespace

// Whether relax_from_zero fuses its sweep into the product on A with the
// component's default options (fuses_relax_from_zero). The L2 bound: where w
// and b (16 B a row) do not fit in half the L2 the separate vector pass streams
// them better — on the H100 (50 MB of L2) the fused pass made 3D 7-pt N=512's
// solve 6% slower, was even at N=128 (2.1M rows) and saved 5-10% of an
// iteration on 0.26-1M-row problems (a launch and a vector pass per level).
bool fuse_relax_from_zero(const CsrMatrix& A) { return fuses_relax_from_zero(A, Binned::policy(Binned::Params{})); }

void spmv_scalar(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) {
  if (A.rows() == 0) return;
  // The thread bin's kernel, whatever the row lengths (the baseline the bins are measured against).
  const unsigned grid = grid_for(A.rows(), kBlock);
  const cudaStream_t st = ::saga::device_stream();
  const AxpbyOut out{alpha, beta, y.data(), y.data()};
  if (A.single_precision())
    thread_rows_kernel<<<grid, kBlock, 0, st>>>(A.rows(), A.row_ptr().data(), A.col().data(), A.val_single().data(),
                                                DirectX{x.data()}, out, nullptr);
  else
    thread_rows_kernel<<<grid, kBlock, 0, st>>>(A.rows(), A.row_ptr().data(), A.col().data(), A.val().data(),
                                                DirectX{x.data()}, out, nullptr);
  SAGA_CUDA_LAUNCH("scalar SpMV");
}

std::shared_ptr<void> spmv_binned_plan(const CsrRef& A) {
  if (A.rows == 0) return nullptr;
  const Binned::Params d;
  return std::make_shared<BinnedPlan>(make_plan(A, d.max_units, d.unstaged_mean, d.power_law_units));
}

void spmv_binned(double alpha, const CsrRef& A, void* plan, const Vector& x, double beta, Vector& y) {
  if (A.rows == 0) return;
  SAGA_REQUIRE(plan, "binned SpMV on raw arrays: no plan (spmv_binned_plan)");
  run_binned(A, *static_cast<BinnedPlan*>(plan), DirectX{x.data()}, AxpbyOut{alpha, beta, y.data(), y.data()},
             Binned::policy(Binned::Params{}), nullptr, 0);
}

SpmvBinsInfo spmv_binned_info(const CsrMatrix& A) {
  const BinnedPlan& p = plan_of(A);
  const DiagonalRows* D = diagonal_rows_of(A, p, false);  // made, or null
  if (D && !D->copy) D = nullptr;
  return SpmvBinsInfo{p.blocks,      p.long_rows, p.chunks, p.units, p.max_row, p.finish_in_chunks, p.dense,
                      p.dense_lanes, takes_sliced(A, p, Binned::policy(Binned::Params{})), D ? D->count : 0};
}

void add_spmv_binned(SpmvRegistry& r) { r.add<Binned>(); }
void add_spmv_scalar(SpmvRegistry& r) { r.add<Scalar>(); }

}  // namespace saga::cuda
