// Device transpose, two ways (docs/spgemm.md "The transpose"):
// - counting (the default): every entry takes a slot in its column with an
//   atomic (the column counts, scanned, are the transpose's row pointers),
//   is scattered to its slot, and each row of the transpose is then ordered
//   by its column (A's row: unique within the row) with a rank computed in
//   registers by a group of lanes. The slots depend on the atomics' order,
//   the ranks do not: the result is deterministic. Three passes over the
//   entries and no sort; the rank costs (len/g)^2 g shuffles a row of len
//   entries (g lanes), so it serves where no column of A is longer than
//   kRankRowLimit entries (less for g < 32; one 4-byte read says);
// - radix, where a column is longer: a stable radix sort of the entries by
//   column alone (32-bit keys over the bits the column count needs, the
//   entry's position as the value). The entries arrive in row order, so
//   stability leaves each column's entries in row order. The rows and values
//   are then gathered through the permutation. (The earlier (column, row)
//   64-bit key sort moved 4x the bytes: docs/spgemm.md.)
#include <climits>
#include <cmath>

#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {
constexpr unsigned kAllLanes = 0xffffffffu;

// `lanes` threads per row of A (a power of two <= 32): each entry's slot in
// its column (the column's count before it); count[cols] = the longest column.
__global__ void column_slots(const offset_t* __restrict__ rp, const index_t* __restrict__ ci, index_t rows, int lanes,
                             index_t cols, std::int32_t* count, std::int32_t* __restrict__ slot) {
  const std::int64_t row = global_thread() / lanes;
  const int lane = threadIdx.x % lanes;
  std::int32_t most = 0;
  if (row < rows)
    for (offset_t k = rp[row] + lane; k < rp[row + 1]; k += lanes) {
      const std::int32_t s = atomicAdd(count + ci[k], 1);
      slot[k] = s;
      most = max(most, s + 1);
    }
  // One atomic a warp, and only where it raises the maximum (a single word).
  most = static_cast<std::int32_t>(__reduce_max_sync(kAllLanes, static_cast<unsigned>(most)));
  volatile std::int32_t* longest = count + cols;
  if (threadIdx.x % 32 == 0 && most > *longest) atomicMax(count + cols, most);
}

// Each entry to its slot of the transpose's row (unordered within the row).
template <class V>
__global__ void scatter_to_slots(const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                                 const V* __restrict__ val, index_t rows, int lanes,
                                 const std::int32_t* __restrict__ slot, const offset_t* __restrict__ t_rp,
                                 index_t* __restrict__ t_row, V* __restrict__ t_val) {
  const std::int64_t row = global_thread() / lanes;
  const int lane = threadIdx.x % lanes;
  if (row >= rows) return;
  for (offset_t k = rp[row] + lane; k < rp[row + 1]; k += lanes) {
    const offset_t at = t_rp[ci[k]] + slot[k];
    t_row[at] = static_cast<index_t>(row);
    t_val[at] = val[k];
  }
}

// A group of g lanes (a power of two <= 32) a row of the transpose: each entry
// goes to its rank in the row (the number of the row's columns below its
// own), compared g at a time through shuffles. Columns past the row read as
// INT_MAX, below no column.
template <class V>
__global__ void order_rows(index_t rows, int g, const offset_t* __restrict__ t_rp, const index_t* __restrict__ t_row,
                           const V* __restrict__ t_val, index_t* __restrict__ col, V* __restrict__ val) {
  const std::int64_t r = global_thread() / g;
  const int lane = threadIdx.x % g;
  const unsigned group = g == 32 ? kAllLanes : ((1u << g) - 1u) << (threadIdx.x % 32 / g * g);
  if (r >= rows) return;  // whole groups leave together
  const offset_t start = t_rp[r];
  const int len = static_cast<int>(t_rp[r + 1] - start);
  for (int mine = 0; mine < len; mine += g) {
    const bool have = mine + lane < len;
    const index_t key = have ? t_row[start + mine + lane] : INT_MAX;
    int rank = 0;
    for (int other = 0; other < len; other += g) {
      const index_t o = other + lane < len ? t_row[start + other + lane] : INT_MAX;
      for (int s = 0; s < g; ++s) rank += __shfl_sync(group, o, s, g) < key;
    }
    if (have) {
      col[start + rank] = key;
      val[start + rank] = t_val[start + mine + lane];
    }
  }
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

namespace {
CsrMatrix transpose_radix(const CsrMatrix& A) {
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

// The counting transpose from A's slots and counts (count[cols] = the longest
// column, at most kRankRowLimit).
template <class V>
CsrMatrix transpose_counting(const CsrMatrix& A, const Array<std::int32_t>& slot, const Array<std::int32_t>& count,
                             int lanes, int g) {
  const cudaStream_t stream = ::saga::device_stream();
  const std::size_t n = A.nnz();
  const index_t cols = A.cols();
  Array<offset_t> row_ptr(static_cast<std::size_t>(cols) + 1, Space::device, "transpose row_ptr");
  prim::exclusive_scan_total(count.data(), row_ptr.data(), static_cast<std::size_t>(cols));
  Array<index_t> t_row(n, Space::device, "transpose entries (unordered)");
  Array<V> t_val(n, Space::device, "transpose values (unordered)");
  scatter_to_slots<V><<<grid_for(static_cast<std::int64_t>(A.rows()) * lanes), kThreads, 0, stream>>>(
      A.row_ptr().data(), A.col().data(), stored_values<V>(A).data(), A.rows(), lanes, slot.data(), row_ptr.data(),
      t_row.data(), t_val.data());
  SAGA_CUDA_LAUNCH("transpose scatter");
  Array<index_t> col(n, Space::device, "transpose col");
  Array<V> val(n, Space::device, "transpose val");
  if (cols > 0) {
    order_rows<V><<<grid_for(static_cast<std::int64_t>(cols) * g), kThreads, 0, stream>>>(
        cols, g, row_ptr.data(), t_row.data(), t_val.data(), col.data(), val.data());
    SAGA_CUDA_LAUNCH("transpose order rows");
  }
  return CsrMatrix(cols, A.rows(), std::move(row_ptr), std::move(col), std::move(val));
}
}  // namespace

CsrMatrix transpose(const CsrMatrix& A, std::int32_t rank_limit) {
  const std::size_t n = A.nnz();
  if (n == 0 || A.rows() == 0) return transpose_radix(A);
  const cudaStream_t stream = ::saga::device_stream();
  const index_t cols = A.cols();
  Array<std::int32_t> count(static_cast<std::size_t>(cols) + 1, Space::device, "transpose column counts");
  Array<std::int32_t> slot(n, Space::device, "transpose entry slots");
  SAGA_CUDA(cudaMemsetAsync(count.data(), 0, count.size() * sizeof(std::int32_t), stream));
  const int lanes = lanes_for(static_cast<double>(n) / A.rows(), 1);
  column_slots<<<grid_for(static_cast<std::int64_t>(A.rows()) * lanes), kThreads, 0, stream>>>(
      A.row_ptr().data(), A.col().data(), A.rows(), lanes, cols, count.data(), slot.data());
  SAGA_CUDA_LAUNCH("transpose column slots");
  // Groups of g lanes a row of the transpose (about its mean length); a row
  // of len entries costs len^2 / g shuffles, so the limit is rank_limit for
  // whole warps and less for smaller groups (the same budget a row).
  const int g = lanes_for(static_cast<double>(n) / cols, 1);
  const double limit = rank_limit * std::sqrt(g / 32.0);
  if (count.get(static_cast<std::size_t>(cols)) > limit) return transpose_radix(A);
  return A.single_precision() ? transpose_counting<float>(A, slot, count, lanes, g)
                              : transpose_counting<double>(A, slot, count, lanes, g);
}

}  // namespace saga::cuda
