// Long rows of C = A·B in dense shared-memory accumulators (spgemm_dense_rows.hpp,
// docs/spgemm.md "Long rows"). Three kernels per row slice:
//   chunks  a CTA per chunk of a row's entries: acc[j] += a_ik b_kj for its
//           entries k in order (all threads over row k of B, whose columns are
//           distinct, then a barrier), and the partial row with its flags
//           (which columns were touched) to global memory;
//   count   a CTA per row: the columns touched by any of its chunks -> nnz(C_i);
//   fill    a CTA per row: each touched column's sum over the chunks in chunk
//           order, written in column order.
// No atomics on values: the order of every sum is fixed by the input.
#include "sparse/cuda/spgemm_dense_rows.hpp"

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <vector>

#include "core/log.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {

constexpr int kDenseThreads = 256;
constexpr int kPrefetch = 8;  // entries whose first element of B is loaded at once

struct DenseChunk {
  offset_t begin, end;  // entries of A (positions in its col/val)
};

// Shared memory of a chunk CTA: ncols values, then ncols flags (16-byte rounded).
std::size_t chunk_shared_bytes(index_t ncols) {
  return (static_cast<std::size_t>(ncols) * (sizeof(double) + 1) + 15) / 16 * 16;
}

__global__ __launch_bounds__(kDenseThreads) void dense_chunks_kernel(
    const DenseChunk* __restrict__ chunks, const index_t* __restrict__ aci, const double* __restrict__ av,
    const offset_t* __restrict__ brp, const index_t* __restrict__ bci, const double* __restrict__ bv, index_t ncols,
    double* __restrict__ slab_val, std::uint8_t* __restrict__ slab_flag) {
  extern __shared__ double acc[];
  std::uint8_t* flag = reinterpret_cast<std::uint8_t*>(acc + ncols);
  __shared__ double s_a[kDenseThreads];
  __shared__ offset_t s_b0[kDenseThreads], s_b1[kDenseThreads];
  const int t = threadIdx.x;
  for (index_t j = t; j < ncols; j += kDenseThreads) {
    acc[j] = 0.0;
    flag[j] = 0;
  }
  const DenseChunk c = chunks[blockIdx.x];
  for (offset_t base = c.begin; base < c.end; base += kDenseThreads) {
    const int nb = static_cast<int>(min(static_cast<offset_t>(kDenseThreads), c.end - base));
    __syncthreads();  // the previous batch (or the zeroing) is done
    if (t < nb) {     // the batch's entries: their values and rows of B, loaded in parallel
      const index_t k = aci[base + t];
      s_a[t] = av[base + t];
      s_b0[t] = brp[k];
      s_b1[t] = brp[k + 1];
    }
    __syncthreads();
    for (int i0 = 0; i0 < nb; i0 += kPrefetch) {
      // This thread's first element of each of the next kPrefetch rows of B,
      // all in flight at once; then the rows are added one after the other.
      index_t pj[kPrefetch];
      double pv[kPrefetch];
#pragma unroll
      for (int u = 0; u < kPrefetch; ++u) {
        const int i = i0 + u;
        pj[u] = -1;
        pv[u] = 0.0;
        if (i < nb) {
          const offset_t q = s_b0[i] + t;
          if (q < s_b1[i]) {
            pj[u] = bci[q];
            pv[u] = bv[q];
          }
        }
      }
#pragma unroll
      for (int u = 0; u < kPrefetch; ++u) {
        const int i = i0 + u;
        if (i < nb) {  // the same for the whole CTA
          const double a = s_a[i];
          if (pj[u] >= 0) {
            acc[pj[u]] += a * pv[u];
            flag[pj[u]] = 1;
          }
          for (offset_t q = s_b0[i] + t + kDenseThreads; q < s_b1[i]; q += kDenseThreads) {
            const index_t j = bci[q];
            acc[j] += a * bv[q];
            flag[j] = 1;
          }
          __syncthreads();  // row i's additions before row i + 1's
        }
      }
    }
  }
  __syncthreads();
  const std::size_t at = static_cast<std::size_t>(blockIdx.x) * ncols;
  for (index_t j = t; j < ncols; j += kDenseThreads) {
    slab_val[at + j] = acc[j];
    slab_flag[at + j] = flag[j];
  }
}

__global__ __launch_bounds__(kDenseThreads) void dense_count_kernel(const index_t* __restrict__ chunk_ptr,
                                                                    const std::uint8_t* __restrict__ slab_flag,
                                                                    index_t ncols, int* __restrict__ nnz_row) {
  using Reduce = cub::BlockReduce<int, kDenseThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const index_t c0 = chunk_ptr[blockIdx.x], c1 = chunk_ptr[blockIdx.x + 1];
  int count = 0;
  for (index_t j = threadIdx.x; j < ncols; j += kDenseThreads) {
    bool any = false;
    for (index_t c = c0; c < c1 && !any; ++c) any = slab_flag[static_cast<std::size_t>(c) * ncols + j] != 0;
    count += any;
  }
  const int total = Reduce(temp).Sum(count);
  if (threadIdx.x == 0) nnz_row[blockIdx.x] = total;
}

__global__ __launch_bounds__(kDenseThreads) void dense_fill_kernel(const index_t* __restrict__ chunk_ptr,
                                                                   const double* __restrict__ slab_val,
                                                                   const std::uint8_t* __restrict__ slab_flag,
                                                                   index_t ncols, const offset_t* __restrict__ crp,
                                                                   index_t* __restrict__ ccol,
                                                                   double* __restrict__ cval) {
  using Scan = cub::BlockScan<int, kDenseThreads>;
  __shared__ typename Scan::TempStorage temp;
  const index_t c0 = chunk_ptr[blockIdx.x], c1 = chunk_ptr[blockIdx.x + 1];
  offset_t out = crp[blockIdx.x];
  for (index_t tile = 0; tile < ncols; tile += kDenseThreads) {
    const index_t j = tile + threadIdx.x;
    bool any = false;
    double s = 0.0;
    if (j < ncols)
      for (index_t c = c0; c < c1; ++c) {
        const std::size_t at = static_cast<std::size_t>(c) * ncols + j;
        if (slab_flag[at]) {
          s = any ? s + slab_val[at] : slab_val[at];  // chunk order
          any = true;
        }
      }
    int pos = 0, total = 0;
    Scan(temp).ExclusiveSum(any ? 1 : 0, pos, total);
    if (any) {
      ccol[out + pos] = j;
      cval[out + pos] = s;
    }
    out += total;
    __syncthreads();  // temp is reused by the next tile
  }
}

// Dynamic shared memory a chunk CTA may have: the opt-in limit less the
// kernel's static arrays (the batch of entries).
std::size_t chunk_shared_limit() {
  static const std::size_t n = [] {
    cudaFuncAttributes f{};
    SAGA_CUDA(cudaFuncGetAttributes(&f, dense_chunks_kernel));
    const std::size_t optin = static_cast<std::size_t>(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
    const std::size_t limit = optin > f.sharedSizeBytes ? optin - f.sharedSizeBytes : 0;
    SAGA_CUDA(cudaFuncSetAttribute(dense_chunks_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(limit)));
    return limit;
  }();
  return n;
}

}  // namespace

bool dense_rows_fit(index_t b_cols) { return chunk_shared_bytes(b_cols) <= chunk_shared_limit(); }

CsrMatrix spgemm_dense_rows(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats) {
  const index_t m = A.rows(), ncols = B.cols();
  SAGA_REQUIRE(A.cols() == B.rows(), "dense-row SpGEMM: A is {}x{}, B is {}x{}", A.rows(), A.cols(), B.rows(),
               B.cols());
  SAGA_REQUIRE(dense_rows_fit(ncols),
               "dense-row SpGEMM: B has {} columns, {} bytes of accumulator where a CTA may have {}", ncols,
               chunk_shared_bytes(ncols), chunk_shared_limit());
  if (m == 0 || ncols == 0 || A.nnz() == 0) return CsrMatrix::zeros(m, ncols, Space::device);
  const cudaStream_t st = ::saga::device_stream();

  // Chunks: about eight per SM over all rows, at least 256 entries each; a
  // row's entries split evenly among its chunks.
  const std::vector<offset_t> rp = A.row_ptr().to_vector();
  const std::int64_t nnz = rp[m];
  const std::int64_t per_chunk = std::max<std::int64_t>(256, (nnz + 8LL * multiprocessor_count() - 1) /
                                                                 (8LL * multiprocessor_count()));
  const std::size_t chunk_bytes = static_cast<std::size_t>(ncols) * (sizeof(double) + 1);
  const std::size_t budget = opt.budget_now();
  const std::int64_t max_chunks = std::max<std::int64_t>(1, static_cast<std::int64_t>(budget / chunk_bytes));
  std::vector<std::int64_t> chunks_of(m);
  for (index_t r = 0; r < m; ++r) {
    const std::int64_t e = rp[r + 1] - rp[r];
    chunks_of[r] = std::min(max_chunks, std::max<std::int64_t>(1, (e + per_chunk - 1) / per_chunk));
  }

  std::vector<CsrMatrix> pieces;
  std::int64_t workspace = 0;
  for (index_t r0 = 0; r0 < m;) {
    // A slice: rows while their partial rows fit the budget (one row at least).
    index_t r1 = r0;
    std::int64_t chunks = 0;
    while (r1 < m && (r1 == r0 || chunks + chunks_of[r1] <= max_chunks)) chunks += chunks_of[r1++];
    const index_t rows = r1 - r0;
    std::vector<DenseChunk> list;
    list.reserve(static_cast<std::size_t>(chunks));
    std::vector<index_t> chunk_ptr{0};
    for (index_t r = r0; r < r1; ++r) {
      const std::int64_t e = rp[r + 1] - rp[r], c = chunks_of[r];
      for (std::int64_t k = 0; k < c; ++k)
        list.push_back({static_cast<offset_t>(rp[r] + e * k / c), static_cast<offset_t>(rp[r] + e * (k + 1) / c)});
      chunk_ptr.push_back(static_cast<index_t>(list.size()));
    }
    const auto d_list = Array<DenseChunk>::from_vector(list, Space::device, "dense-row SpGEMM chunks");
    const auto d_chunk_ptr = Array<index_t>::from_vector(chunk_ptr, Space::device, "dense-row SpGEMM chunks");
    const std::size_t slab = static_cast<std::size_t>(chunks) * ncols;
    Array<double> slab_val(slab, Space::device, "dense-row SpGEMM partial rows");
    Array<std::uint8_t> slab_flag(slab, Space::device, "dense-row SpGEMM partial rows");
    workspace = std::max<std::int64_t>(workspace, static_cast<std::int64_t>(slab * (sizeof(double) + 1)));
    dense_chunks_kernel<<<static_cast<unsigned>(chunks), kDenseThreads, chunk_shared_bytes(ncols), st>>>(
        d_list.data(), A.col().data(), A.val().data(), B.row_ptr().data(), B.col().data(), B.val().data(), ncols,
        slab_val.data(), slab_flag.data());
    SAGA_CUDA_LAUNCH("dense-row SpGEMM chunks");
    Array<int> nnz_row(rows, Space::device, "dense-row SpGEMM nnz per row");
    dense_count_kernel<<<static_cast<unsigned>(rows), kDenseThreads, 0, st>>>(d_chunk_ptr.data(), slab_flag.data(),
                                                                            ncols, nnz_row.data());
    SAGA_CUDA_LAUNCH("dense-row SpGEMM count");
    Array<offset_t> crp(static_cast<std::size_t>(rows) + 1, Space::device, "dense-row SpGEMM row_ptr");
    prim::exclusive_scan_total(nnz_row.data(), crp.data(), rows);
    const offset_t cnnz = crp.get(rows);
    CsrMatrix C(rows, ncols, std::move(crp), Array<index_t>(cnnz, Space::device, "dense-row SpGEMM col"),
                Array<double>(cnnz, Space::device, "dense-row SpGEMM val"));
    dense_fill_kernel<<<static_cast<unsigned>(rows), kDenseThreads, 0, st>>>(
        d_chunk_ptr.data(), slab_val.data(), slab_flag.data(), ncols, C.row_ptr().data(),
        const_cast<index_t*>(C.col().data()), const_cast<double*>(C.val().data()));
    SAGA_CUDA_LAUNCH("dense-row SpGEMM fill");
    pieces.push_back(std::move(C));
    r0 = r1;
  }
  if (stats) {
    stats->slices = static_cast<int>(pieces.size());
    stats->budget_bytes = static_cast<std::int64_t>(budget);
    stats->workspace_bytes = workspace;
  }
  if (pieces.size() == 1) return std::move(pieces.front());
  return stack_rows(std::move(pieces));
}

}  // namespace saga::cuda
