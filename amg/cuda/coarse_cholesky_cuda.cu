// The coarsest matrix's inverse on the GPU by Gauss-Jordan elimination without
// pivoting (stable for SPD matrices, whose pivots are the positive Schur
// complements), kept as a dense CSR matrix like the host path's. Blocked: kB
// pivots a step, four phases a step (the block's inverse in one CTA, the row
// panel, the trailing update, the column panel), all steps in one cooperative
// kernel (grid barriers between the phases), or four launches a step where a
// cooperative launch cannot run (a launch each pivot cost ~1.4 ms on the H100
// for 500 rows, four a block step ~0.75 ms). No host round trip of the
// matrix and no library start-up (cuSOLVER's costs 20-90 ms per process, more
// than the whole setup of most seed problems). A pivot that is not clearly
// positive (a semi-definite or indefinite matrix) sends the caller back to
// the host path.
#include <cooperative_groups.h>

#include "amg/coarse_cholesky.hpp"
#include "core/cuda_check.cuh"
#include "sparse/cuda/cooperative.cuh"

namespace saga::amg::cuda {

namespace {
namespace cg = cooperative_groups;
using saga::cuda::global_thread;
using saga::cuda::grid_for;
using saga::cuda::grid_stride;
using saga::cuda::kThreads;

constexpr int kB = 32;  // pivots per block step: the diagonal block is kB x kB threads of one CTA

// M (row-major n x n) = A, and its diagonal (the pivots' scale).
__global__ void scatter_kernel(index_t n, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                               const double* __restrict__ v, double* __restrict__ M, double* __restrict__ diag) {
  const std::int64_t r = global_thread();
  if (r >= n) return;
  for (offset_t k = rp[r]; k < rp[r + 1]; ++k) {
    const index_t c = ci[k];
    M[r * n + c] = v[k];
    if (c == r) diag[r] = v[k];
  }
}

// The four phases of a block step, each over the threads [t, ..., total) of
// whatever runs it with stride `stride`: the launched kernels below (one a
// phase) and the cooperative kernel (all steps, a grid barrier between the
// phases) share them.

// D = M[K, K]^-1 for the block K = [k0, k0 + b), by b pivot steps in shared
// memory (one CTA of kB x kB threads: i = threadIdx.y, j = threadIdx.x). A
// pivot that is not clearly positive against the matrix's own diagonal sets
// *failed.
__device__ void block_inverse(index_t n, index_t k0, int b, const double* __restrict__ M,
                              const double* __restrict__ diag, double* __restrict__ D, int* failed) {
  __shared__ double S[kB][kB + 1];
  __shared__ int bad;
  const int i = threadIdx.y, j = threadIdx.x;
  if (i == 0 && j == 0) bad = *failed;
  if (i < b && j < b) S[i][j] = M[static_cast<std::int64_t>(k0 + i) * n + k0 + j];
  __syncthreads();
  for (int p = 0; p < b; ++p) {
    const double piv = S[p][p];
    if (!(piv > 1e-13 * diag[k0 + p]) || !isfinite(piv)) {  // not positive definite (to working precision)
      if (i == 0 && j == 0) bad = 1;
      break;  // the same for every thread: piv is read from shared memory by all
    }
    const double inv = 1.0 / piv;
    double a = 0.0;
    if (i < b && j < b) {
      if (i == p && j == p)
        a = inv;
      else if (i == p)
        a = S[p][j] * inv;
      else if (j == p)
        a = -S[i][p] * inv;
      else
        a = S[i][j] - S[i][p] * S[p][j] * inv;
    }
    __syncthreads();  // every thread has read row and column p
    if (i < b && j < b) S[i][j] = a;
    __syncthreads();
  }
  __syncthreads();
  if (i < b && j < b) D[i * kB + j] = S[i][j];
  if (i == 0 && j == 0 && bad) *failed = 1;
}

// R[r][j] = (D M[K, :])[r][j] for the columns j outside K (the new rows K).
__device__ void row_panel(index_t n, index_t k0, int b, const double* __restrict__ M, const double* __restrict__ D,
                          double* __restrict__ R, std::int64_t t, std::int64_t stride) {
  const std::int64_t total = static_cast<std::int64_t>(b) * n;
  for (std::int64_t e = t; e < total; e += stride) {
    const int r = static_cast<int>(e / n);
    const index_t j = static_cast<index_t>(e % n);
    if (j >= k0 && j < k0 + b) continue;
    double a = 0.0;
    for (int s = 0; s < b; ++s) a += D[r * kB + s] * M[static_cast<std::int64_t>(k0 + s) * n + j];
    R[e] = a;
  }
}

// M[i][j] -= M[i, K] R[:, j] for i and j outside K (the Schur complement and
// the already inverted part alike: Gauss-Jordan updates every row).
__device__ void trailing(index_t n, index_t k0, int b, double* __restrict__ M, const double* __restrict__ R,
                         std::int64_t t, std::int64_t stride) {
  const std::int64_t total = static_cast<std::int64_t>(n) * n;
  for (std::int64_t e = t; e < total; e += stride) {
    const index_t i = static_cast<index_t>(e / n), j = static_cast<index_t>(e % n);
    if ((i >= k0 && i < k0 + b) || (j >= k0 && j < k0 + b)) continue;
    const double* mi = M + static_cast<std::int64_t>(i) * n + k0;
    double a = 0.0;
    for (int s = 0; s < b; ++s) a += mi[s] * R[static_cast<std::int64_t>(s) * n + j];
    M[e] -= a;
  }
}

// The block's columns and rows: M[i, K] = -M[i, K] D for i outside K, M[K, K]
// = D, M[K, j] = R. A warp a row (warp w of `warps`): lane c forms column c
// from the old M[i, K] passed round by shuffles (the sum in s order).
__device__ void panels(index_t n, index_t k0, int b, double* __restrict__ M, const double* __restrict__ D,
                       const double* __restrict__ R, std::int64_t w, std::int64_t warps, int lane) {
  for (std::int64_t i = w; i < n; i += warps) {
    double* mi = M + i * n;
    if (i >= k0 && i < k0 + b) {
      const int r = static_cast<int>(i - k0);
      for (index_t j = lane; j < n; j += 32)
        mi[j] = (j >= k0 && j < k0 + b) ? D[r * kB + (j - k0)] : R[static_cast<std::int64_t>(r) * n + j];
      continue;
    }
    const double old = lane < b ? mi[k0 + lane] : 0.0;
    double a = 0.0;
    for (int s = 0; s < b; ++s) a += __shfl_sync(0xffffffffu, old, s) * D[s * kB + (lane < b ? lane : 0)];
    __syncwarp();  // every lane has read its old value before any writes
    if (lane < b) mi[k0 + lane] = -a;
  }
}

__global__ void block_inverse_kernel(index_t n, index_t k0, int b, const double* __restrict__ M,
                                     const double* __restrict__ diag, double* __restrict__ D, int* failed) {
  block_inverse(n, k0, b, M, diag, D, failed);
}
__global__ void row_panel_kernel(index_t n, index_t k0, int b, const double* __restrict__ M,
                                 const double* __restrict__ D, double* __restrict__ R, const int* __restrict__ failed) {
  if (*failed) return;
  row_panel(n, k0, b, M, D, R, global_thread(), grid_stride());
}
__global__ void trailing_kernel(index_t n, index_t k0, int b, double* __restrict__ M, const double* __restrict__ R,
                                const int* __restrict__ failed) {
  if (*failed) return;
  trailing(n, k0, b, M, R, global_thread(), grid_stride());
}
__global__ void panels_kernel(index_t n, index_t k0, int b, double* __restrict__ M, const double* __restrict__ D,
                              const double* __restrict__ R, const int* __restrict__ failed) {
  if (*failed) return;
  panels(n, k0, b, M, D, R, global_thread() / 32, grid_stride() / 32, threadIdx.x % 32);
}

// Every block step in one cooperative kernel of kB x kB-thread CTAs: CTA 0
// inverts the pivot block while the others wait at the barrier; a failed
// pivot is seen by every CTA after the barrier, so all leave together.
__global__ __launch_bounds__(kB * kB) void gauss_jordan_kernel(index_t n, double* __restrict__ M,
                                                               const double* __restrict__ diag,
                                                               double* __restrict__ D, double* __restrict__ R,
                                                               int* failed) {
  cg::grid_group grid = cg::this_grid();
  const int local = threadIdx.y * kB + threadIdx.x;
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * (kB * kB) + local;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * (kB * kB);
  for (index_t k0 = 0; k0 < n; k0 += kB) {
    const int b = static_cast<int>(min(static_cast<index_t>(kB), n - k0));
    if (blockIdx.x == 0) block_inverse(n, k0, b, M, diag, D, failed);
    grid.sync();
    if (*static_cast<volatile int*>(failed)) return;
    row_panel(n, k0, b, M, D, R, t, stride);
    grid.sync();
    trailing(n, k0, b, M, R, t, stride);
    grid.sync();
    panels(n, k0, b, M, D, R, t / 32, stride / 32, local % 32);
    grid.sync();
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

bool cholesky_inverse(const CsrMatrix& A, CsrMatrix& inverse, bool cooperative) {
  const index_t n = A.rows();
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  const cudaStream_t st = ::saga::device_stream();
  Array<double> M = Array<double>::zeros(nn, Space::device, "coarse matrix (dense)");
  Array<double> diag = Array<double>::zeros(n, Space::device, "coarse diagonal");
  Array<double> D(static_cast<std::size_t>(kB) * kB, Space::device, "coarse pivot block inverse");
  Array<double> R(static_cast<std::size_t>(kB) * n, Space::device, "coarse pivot rows");
  Array<int> failed = Array<int>::zeros(1, Space::device, "pivot flag");
  scatter_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.row_ptr().data(), A.col().data(), A.val().data(), M.data(),
                                                    diag.data());
  SAGA_CUDA_LAUNCH("coarse scatter");
  const unsigned grid = std::min<unsigned>(grid_for(static_cast<std::int64_t>(nn)), 2048u);
  // All block steps in one cooperative kernel (64 launches for 500 rows took
  // ~0.75 ms, mostly launch gaps); the launched steps where it cannot run.
  bool done = false;
  if (cooperative) {
    static int per_sm = -1;
    const void* coop = reinterpret_cast<const void*>(gauss_jordan_kernel);
    const int blocks = saga::cuda::cooperative_blocks(coop, (static_cast<long long>(nn) + kB * kB - 1) / (kB * kB),
                                                      per_sm, kB * kB);
    index_t rows = n;
    double *mp = M.data(), *dp = diag.data(), *Dp = D.data(), *Rp = R.data();
    int* fp = failed.data();
    void* args[] = {&rows, &mp, &dp, &Dp, &Rp, &fp};
    done = blocks > 0 &&
           saga::cuda::launch_cooperative(coop, blocks, args, "coarse Gauss-Jordan (cooperative)", dim3(kB, kB));
  }
  if (!done) {
    const unsigned panel_grid = std::min<unsigned>(grid_for(static_cast<std::int64_t>(kB) * n), 2048u);
    for (index_t k0 = 0; k0 < n; k0 += kB) {
      const int b = static_cast<int>(std::min<index_t>(kB, n - k0));
      block_inverse_kernel<<<1, dim3(kB, kB), 0, st>>>(n, k0, b, M.data(), diag.data(), D.data(), failed.data());
      SAGA_CUDA_LAUNCH("coarse Gauss-Jordan block inverse");
      row_panel_kernel<<<panel_grid, kThreads, 0, st>>>(n, k0, b, M.data(), D.data(), R.data(), failed.data());
      SAGA_CUDA_LAUNCH("coarse Gauss-Jordan row panel");
      trailing_kernel<<<grid, kThreads, 0, st>>>(n, k0, b, M.data(), R.data(), failed.data());
      SAGA_CUDA_LAUNCH("coarse Gauss-Jordan trailing update");
      panels_kernel<<<grid_for(static_cast<std::int64_t>(n) * 32), kThreads, 0, st>>>(n, k0, b, M.data(), D.data(),
                                                                                     R.data(), failed.data());
      SAGA_CUDA_LAUNCH("coarse Gauss-Jordan panels");
    }
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
