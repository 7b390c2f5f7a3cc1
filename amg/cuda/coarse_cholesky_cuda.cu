// The coarsest matrix's inverse on the GPU by Gauss-Jordan elimination without
// pivoting (stable for SPD matrices, whose pivots are the positive Schur
// complements), one kernel per pivot over all n^2 entries, kept as a dense CSR
// matrix like the host path's. No host round trip of the matrix and no
// library start-up (cuSOLVER's costs 20-90 ms per process, more than the whole
// setup of most seed problems). A pivot that is not clearly positive (a
// semi-definite or indefinite matrix) sends the caller back to the host path.
#include "amg/coarse_cholesky.hpp"
#include "core/cuda_check.cuh"
#include "sparse/cuda/launch.cuh"

namespace saga::amg::cuda {

namespace {
using saga::cuda::global_thread;
using saga::cuda::grid_for;
using saga::cuda::grid_stride;
using saga::cuda::kThreads;

// M (row-major n x n) = A; the pivot row and column 0 and the diagonal.
__global__ void scatter_kernel(index_t n, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                               const double* __restrict__ v, double* __restrict__ M, double* __restrict__ row,
                               double* __restrict__ col, double* __restrict__ diag) {
  const std::int64_t r = global_thread();
  if (r >= n) return;
  for (offset_t k = rp[r]; k < rp[r + 1]; ++k) {
    const index_t c = ci[k];
    M[r * n + c] = v[k];
    if (r == 0) row[c] = v[k];
    if (c == 0) col[r] = v[k];
    if (c == r) diag[r] = v[k];
  }
}

// Step k of the in-place Gauss-Jordan inverse. row/col hold row k and column
// k before the step; the entries of row and column k + 1 after it go to
// next_row/next_col (the buffers alternate, so no entry is read after it is
// overwritten).
__global__ void pivot_kernel(index_t n, index_t k, double* __restrict__ M, const double* __restrict__ row,
                             const double* __restrict__ col, const double* __restrict__ diag,
                             double* __restrict__ next_row, double* __restrict__ next_col, int* __restrict__ failed) {
  if (*failed) return;
  const double p = row[k];
  if (!(p > 1e-13 * diag[k]) || !isfinite(p)) {  // not positive definite (to working precision)
    if (global_thread() == 0) *failed = 1;
    return;
  }
  const double inv = 1.0 / p;
  const std::int64_t total = static_cast<std::int64_t>(n) * n;
  for (std::int64_t e = global_thread(); e < total; e += grid_stride()) {
    const std::int64_t i = e / n, j = e % n;
    double a;
    if (i == k && j == k)
      a = inv;
    else if (i == k)
      a = row[j] * inv;
    else if (j == k)
      a = -col[i] * inv;
    else
      a = M[e] - col[i] * row[j] * inv;
    M[e] = a;
    if (i == k + 1) next_row[j] = a;
    if (j == k + 1) next_col[i] = a;
  }
}

__global__ void dense_csr_kernel(index_t n, const double* __restrict__ X, offset_t* __restrict__ rp,
                                 index_t* __restrict__ ci, double* __restrict__ v) {
  const std::int64_t total = static_cast<std::int64_t>(n) * n;
  for (std::int64_t e = global_thread(); e < total; e += grid_stride()) {
    const std::int64_t i = e / n, j = e % n;
    ci[e] = static_cast<index_t>(j);
    v[e] = X[e];
    if (j == 0) rp[i] = static_cast<offset_t>(i * n);
  }
  if (global_thread() == 0) rp[n] = static_cast<offset_t>(total);
}
}  // namespace

bool cholesky_inverse(const CsrMatrix& A, CsrMatrix& inverse) {
  const index_t n = A.rows();
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  const cudaStream_t st = ::saga::device_stream();
  Array<double> M = Array<double>::zeros(nn, Space::device, "coarse matrix (dense)");
  Array<double> bufs = Array<double>::zeros(5 * static_cast<std::size_t>(n), Space::device, "pivot rows");
  double* row[2] = {bufs.data(), bufs.data() + n};
  double* col[2] = {bufs.data() + 2 * n, bufs.data() + 3 * n};
  double* diag = bufs.data() + 4 * n;
  Array<int> failed = Array<int>::zeros(1, Space::device, "pivot flag");
  scatter_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.row_ptr().data(), A.col().data(), A.val().data(), M.data(),
                                                    row[0], col[0], diag);
  SAGA_CUDA_LAUNCH("coarse scatter");
  const unsigned grid = std::min<unsigned>(grid_for(static_cast<std::int64_t>(nn)), 2048u);
  for (index_t k = 0; k < n; ++k) {
    pivot_kernel<<<grid, kThreads, 0, st>>>(n, k, M.data(), row[k % 2], col[k % 2], diag, row[(k + 1) % 2],
                                            col[(k + 1) % 2], failed.data());
    SAGA_CUDA_LAUNCH("coarse Gauss-Jordan pivot");
  }
  if (failed.get(0) != 0) return false;  // not positive definite: the host path decides
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, Space::device, "coarse inverse rows");
  Array<index_t> ci(nn, Space::device, "coarse inverse columns");
  Array<double> v(nn, Space::device, "coarse inverse values");
  dense_csr_kernel<<<grid, kThreads, 0, st>>>(n, M.data(), rp.data(), ci.data(), v.data());
  SAGA_CUDA_LAUNCH("coarse inverse to CSR");
  inverse = CsrMatrix(n, n, std::move(rp), std::move(ci), std::move(v));
  return true;
}

}  // namespace saga::amg::cuda
