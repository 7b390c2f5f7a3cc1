// Device transpose: a stable radix sort of the entries by column alone (32-bit
// keys over the bits the column count needs, the entry's position as the
// value). The entries arrive in row order, so stability leaves each column's
// entries in row order: the transpose's rows come out sorted, deterministically.
// The rows and values are then gathered through the permutation. (The earlier
// (column, row) 64-bit key sort moved 4x the bytes: docs/spgemm.md.)
// Small matrices (a coarse level's P: up to 2^17 entries into at most 4096
// columns) take one cooperative kernel instead: the same stable sort by
// column, a tile of 4096 entries a CTA (cub::BlockRadixSort), the tiles'
// column counts added up after a grid barrier, so the same matrix. The radix
// path's dozen launches and calls left the GPU idle most of the phase there
// (2D 5-pt N = 1024's levels 2 and 3: 127 and 110 us for 29 and 18 us of
// kernels on the H100).
#include <cooperative_groups.h>

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "sparse/cuda/cooperative.cuh"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {
namespace cg = cooperative_groups;
constexpr int kSmallThreads = 512, kSmallItems = 8, kSmallTile = kSmallThreads * kSmallItems;
constexpr index_t kSmallMaxCols = 4096;  // a tile's column counts in shared memory
constexpr int kSmallMaxTiles = 32;


// Tile blockIdx.x's entries (A's order) sorted by column, stably: a column's
// entries stay in row order. counts[tile][c]: the tile's entries in column c;
// after the barrier, column c's entries of this tile go to start[c] (the
// exclusive scan of all tiles' counts) plus the earlier tiles' counts plus
// the entry's place in the tile's run of c.
template <class V>
__global__ __launch_bounds__(kSmallThreads) void small_transpose_kernel(index_t rows, index_t cols, std::int64_t nnz,
                                                                        int bits, const offset_t* __restrict__ rp,
                                                                        const index_t* __restrict__ ci,
                                                                        const V* __restrict__ val, int* counts,
                                                                        offset_t* __restrict__ row_ptr,
                                                                        index_t* __restrict__ col_out,
                                                                        V* __restrict__ val_out) {
  using Sort = cub::BlockRadixSort<std::uint32_t, kSmallThreads, kSmallItems, std::int32_t>;
  using Scan = cub::BlockScan<int, kSmallThreads>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Scan::TempStorage scan;
    std::uint32_t keys[kSmallTile];
  } sh;
  __shared__ int column[kSmallMaxCols];  // the tile's counts, then where its run of each column starts
  cg::grid_group grid = cg::this_grid();
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * kSmallTile + threadIdx.x * kSmallItems;
  std::uint32_t key[kSmallItems];
  std::int32_t pos[kSmallItems];
  for (int c = threadIdx.x; c < cols; c += kSmallThreads) column[c] = 0;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kSmallItems; ++j) {
    const std::int64_t k = first + j;
    key[j] = k < nnz ? static_cast<std::uint32_t>(ci[k]) : static_cast<std::uint32_t>(cols);  // padding: last
    pos[j] = static_cast<std::int32_t>(k);
    if (k < nnz) atomicAdd(&column[key[j]], 1);  // integers: the same counts in any order
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += kSmallThreads) counts[static_cast<std::int64_t>(blockIdx.x) * cols + c] = column[c];
  Sort(sh.sort).Sort(key, pos, 0, bits);  // blocked arrangement in and out
  grid.sync();
  // Thread t's columns [t per, (t + 1) per): totals over the tiles, the earlier tiles' share.
  const int per = (cols + kSmallThreads - 1) / kSmallThreads;  // at most kSmallMaxCols / kSmallThreads
  int total[kSmallMaxCols / kSmallThreads], before[kSmallMaxCols / kSmallThreads], mine = 0;
#pragma unroll
  for (int q = 0; q < kSmallMaxCols / kSmallThreads; ++q) {
    total[q] = before[q] = 0;
    const int c = threadIdx.x * per + q;
    if (q < per && c < cols)
      for (unsigned g = 0; g < gridDim.x; ++g) {
        const int v = counts[static_cast<std::int64_t>(g) * cols + c];
        total[q] += v;
        if (g < blockIdx.x) before[q] += v;
      }
    mine += total[q];
  }
  int start = 0;
  Scan(sh.scan).ExclusiveSum(mine, start);
#pragma unroll
  for (int q = 0; q < kSmallMaxCols / kSmallThreads; ++q) {
    const int c = threadIdx.x * per + q;
    if (q < per && c < cols) {
      column[c] = start + before[q];
      if (blockIdx.x == 0) row_ptr[c] = static_cast<offset_t>(start);
      start += total[q];
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) row_ptr[cols] = static_cast<offset_t>(nnz);
  __syncthreads();  // the scan's storage is free for the sorted keys
#pragma unroll
  for (int j = 0; j < kSmallItems; ++j) sh.keys[threadIdx.x * kSmallItems + j] = key[j];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kSmallItems; ++j) {  // a run's head: its column's place minus its own index in the tile
    const int i = threadIdx.x * kSmallItems + j;
    if (key[j] < static_cast<std::uint32_t>(cols) && (i == 0 || sh.keys[i - 1] != key[j])) column[key[j]] -= i;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kSmallItems; ++j) {
    if (key[j] >= static_cast<std::uint32_t>(cols)) continue;
    const std::int64_t p = column[key[j]] + threadIdx.x * kSmallItems + j;
    col_out[p] = segment_of(rp, rows, pos[j]);  // the entry's row
    val_out[p] = val[pos[j]];
  }
}

// The transpose by small_transpose_kernel; false where A is not small or the
// tiles cannot all be resident (the caller sorts instead).
template <class V>
bool small_transpose(const CsrMatrix& A, CsrMatrix& out) {
  const std::int64_t n = A.nnz();
  if (A.cols() > kSmallMaxCols || n > static_cast<std::int64_t>(kSmallMaxTiles) * kSmallTile) return false;
  const int tiles = static_cast<int>(std::max<std::int64_t>(1, (n + kSmallTile - 1) / kSmallTile));
  const void* kernel = reinterpret_cast<const void*>(small_transpose_kernel<V>);
  static int per_sm = -1;
  if (cooperative_blocks(kernel, tiles, per_sm, kSmallThreads) < tiles) return false;
  Array<int> counts(static_cast<std::size_t>(tiles) * std::max<index_t>(A.cols(), 1), Space::device,
                    "transpose tile column counts");
  Array<offset_t> row_ptr(static_cast<std::size_t>(A.cols()) + 1, Space::device, "transpose row_ptr");
  Array<index_t> col(static_cast<std::size_t>(n), Space::device, "transpose col");
  Array<V> val(static_cast<std::size_t>(n), Space::device, "transpose val");
  index_t rows = A.rows(), cols = A.cols();
  std::int64_t entries = n;
  int bits = prim::bits_for(static_cast<std::int64_t>(cols) + 1);  // the padding key `cols` included
  const offset_t* rp = A.row_ptr().data();
  const index_t* ci = A.col().data();
  const V* v = stored_values<V>(A).data();
  int* cp = counts.data();
  offset_t* rpo = row_ptr.data();
  index_t* co = col.data();
  V* vo = val.data();
  void* args[] = {&rows, &cols, &entries, &bits, &rp, &ci, &v, &cp, &rpo, &co, &vo};
  if (!launch_cooperative(kernel, tiles, args, "small transpose (cooperative)", dim3(kSmallThreads))) return false;
  out = CsrMatrix(A.cols(), A.rows(), std::move(row_ptr), std::move(col), std::move(val));
  return true;
}

// `lanes` threads per row (about the mean row length, a power of two <= 32):
// the row of every entry, and the entry's own position. (A warp per row left
// 28 of 32 lanes idle on a prolongator's rows of 3-4 entries: 180 us for the
// 7M entries of P at 3D 7-pt N=128 on the H100.)
__global__ void entry_rows(const offset_t* rp, index_t rows, int lanes, index_t* row_of, std::int32_t* position) {
  const std::int64_t row = global_thread() / lanes;
  const int lane = threadIdx.x % lanes;
  if (row >= rows) return;
  for (offset_t k = rp[row] + lane; k < rp[row + 1]; k += lanes) {
    row_of[k] = static_cast<index_t>(row);
    position[k] = k;
  }
}

// Row pointers of the transpose from its sorted row indices (= A's columns),
// and the gathered columns (= A's rows) and values.
// (V: the values' type, float for a matrix stored in single precision.)
template <class V>
__global__ void assemble(const std::uint32_t* sorted_col, const std::int32_t* perm, std::int64_t n, index_t cols,
                         const index_t* row_of, const V* val_in, offset_t* row_ptr, index_t* col_out,
                         V* val_out) {
  for (std::int64_t p = global_thread(); p <= n; p += grid_stride()) {
    const std::int64_t c = p < n ? static_cast<std::int64_t>(sorted_col[p]) : cols;
    const std::int64_t prev = p == 0 ? -1 : static_cast<std::int64_t>(sorted_col[p - 1]);
    for (std::int64_t r = prev + 1; r <= c; ++r) row_ptr[r] = static_cast<offset_t>(p);
    if (p < n) {
      col_out[p] = row_of[perm[p]];
      val_out[p] = val_in[perm[p]];
    }
  }
}
}  // namespace

CsrMatrix transpose(const CsrMatrix& A) {
  {
    CsrMatrix small;
    if (A.single_precision() ? small_transpose<float>(A, small) : small_transpose<double>(A, small)) return small;
  }
  const std::size_t n = A.nnz();
  Array<index_t> row_of(n, Space::device, "transpose entry rows");
  Array<std::int32_t> position(n, Space::device, "transpose entry positions");
  if (A.rows()) {
    const int lanes = lanes_for(static_cast<double>(n) / A.rows(), 1);
    entry_rows<<<grid_for(static_cast<std::int64_t>(A.rows()) * lanes), kThreads, 0, ::saga::device_stream()>>>(
        A.row_ptr().data(), A.rows(), lanes, row_of.data(), position.data());
    SAGA_CUDA_LAUNCH("transpose entry rows");
  }
  Array<std::uint32_t> sorted_col(n, Space::device, "transpose sorted columns");
  Array<std::int32_t> perm(n, Space::device, "transpose permutation");
  // Column indices are non-negative: their bits read as unsigned are the same.
  prim::sort_pairs(reinterpret_cast<const std::uint32_t*>(A.col().data()), sorted_col.data(), position.data(),
                   perm.data(), n, prim::bits_for(A.cols()));
  Array<offset_t> row_ptr(static_cast<std::size_t>(A.cols()) + 1, Space::device, "transpose row_ptr");
  Array<index_t> col(n, Space::device, "transpose col");
  auto finish = [&](auto value) {  // the values in A's storage
    using V = decltype(value);
    Array<V> val(n, Space::device, "transpose val");
    assemble<V><<<grid_for(static_cast<std::int64_t>(n) + 1), kThreads, 0, ::saga::device_stream()>>>(
        sorted_col.data(), perm.data(), static_cast<std::int64_t>(n), A.cols(), row_of.data(),
        stored_values<V>(A).data(), row_ptr.data(), col.data(), val.data());
    SAGA_CUDA_LAUNCH("transpose assemble");
    return CsrMatrix(A.cols(), A.rows(), std::move(row_ptr), std::move(col), std::move(val));
  };
  return A.single_precision() ? finish(float()) : finish(double());
}

}  // namespace saga::cuda
