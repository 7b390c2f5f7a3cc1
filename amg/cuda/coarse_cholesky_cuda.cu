// The coarsest matrix's inverse on the GPU by Gauss-Jordan elimination without
// pivoting (stable for SPD matrices, whose pivots are the positive Schur
// complements), kept as a dense CSR matrix like the host path's. Blocked: kB
// pivots a step; a step is one pass over kB x kB tiles in which every CTA
// inverts the pivot block itself (gauss_jordan_step below), all steps in one
// cooperative kernel with a grid barrier between them, or a launch a step
// where a cooperative launch cannot run. No host round trip of the matrix and
// no library start-up (cuSOLVER's costs 20-90 ms per process, more than the
// whole setup of most seed problems). A pivot that is not clearly positive (a
// semi-definite or indefinite matrix) sends the caller back (amg/coarse_solver.cpp
// then shifts a semi-definite matrix's null space, amg/coarse_null_space.hpp, or
// takes the host path); the smallest pivot is reported so that a singular matrix
// whose last pivot rounded to a small positive number is caught too.
#include <cooperative_groups.h>

#include <limits>
#include <vector>

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

// status[0]: a pivot failed (1) or not (0); status[1]: the smallest pivot over
// its row's diagonal (written by CTA 0 alone, step after step: no race).
constexpr int kFailed = 0, kMinPivot = 1;

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

// One block step k0 (pivots K = [k0, k0 + b), b <= kB) of the blocked
// Gauss-Jordan inverse, from the matrix `M` before the step into `N` after it
// (two buffers: every CTA reads rows and columns of K that other CTAs
// replace in the same step). The n x n matrix is cut into kB x kB tiles, one
// CTA of kB x kB threads a tile (y = threadIdx.y its row, x = threadIdx.x its
// column); K is exactly one tile row and one tile column, since k0 is a
// multiple of kB. Every CTA inverts the pivot block itself (D, shared memory)
// rather than waiting on one CTA that does: a step is one load round, a few
// shared-memory passes and one grid barrier instead of four global phases
// (block inverse, row panel, trailing update, column panel) with four
// barriers. On the H100 the coarse factorisation of the 2D 5-point seed
// problem went 0.44 -> 0.28 ms (benchmarks/results/setup_small_phases_h100.md);
// what is left (~20 us a step) is not the CTA barriers (docs/profiling.md).
//
// The sums are those of the textbook block step, in a fixed order (s
// ascending): R = D M[K, :], N[i, j] = M[i, j] - M[i, K] R[:, j] outside K,
// N[K, j] = R[:, j], N[i, K] = -M[i, K] D, N[K, K] = D.
//
// A pivot that is not clearly positive against the matrix's own diagonal
// (semi-definite or indefinite) is seen by every CTA alike: all return false.
// CTA 0 keeps the smallest pivot / diagonal in status[kMinPivot].
struct StepTiles {
  double S[kB][kB + 1];  // M[K, K], then D = its inverse
  double T[kB][kB + 1];  // the pivot steps' second buffer
  double C[kB][kB + 1];  // M[K, J]: the pivot rows over the tile's columns, then R = D M[K, J]
  double L[kB][kB + 1];  // M[I, K]: the tile's rows over the pivot columns
  double dg[kB];         // the pivots' diagonal entries of A (the positivity test's scale)
  int bad;
};

// M and N are plain pointers: the cooperative kernel writes what later steps
// read, so their loads must not take the read-only (non-coherent) path.
__device__ bool gauss_jordan_step(index_t n, index_t k0, const double* M, double* N,
                                  const double* __restrict__ diag, StepTiles& sh, long long first_tile,
                                  long long tile_stride, double* status) {
  const int y = threadIdx.y, x = threadIdx.x;
  const int b = static_cast<int>(min(static_cast<index_t>(kB), n - k0));
  // D = M[K, K]^-1 by b pivot steps in shared memory, a thread an element,
  // from one buffer into the other (one CTA barrier a pivot; every CTA the
  // same). One warp alone, or a lane per column with the column in registers,
  // took twice as long on the H100 (a warp does the kB x kB updates of a
  // pivot 32 at a time; 32 doubles a lane spill at 1024 threads a CTA).
  if (y == 0 && x == 0) sh.bad = 0;
  if (y < b && x < b) sh.S[y][x] = M[static_cast<std::int64_t>(k0 + y) * n + k0 + x];
  if (y == 0 && x < b) sh.dg[x] = diag[k0 + x];
  __syncthreads();
  double(*from)[kB + 1] = sh.S;
  double(*to)[kB + 1] = sh.T;
  for (int p = 0; p < b; ++p) {
    const double piv = from[p][p];
    if (blockIdx.x == 0 && y == 0 && x == 0) status[kMinPivot] = fmin(status[kMinPivot], piv / sh.dg[p]);
    if (!(piv > 1e-13 * sh.dg[p]) || !isfinite(piv)) {  // the same for every thread (shared memory)
      if (y == 0 && x == 0) sh.bad = 1;
      break;
    }
    const double inv = 1.0 / piv;
    if (y < b && x < b) {
      double a;
      if (y == p && x == p)
        a = inv;
      else if (y == p)
        a = from[p][x] * inv;
      else if (x == p)
        a = -from[y][p] * inv;
      else
        a = from[y][x] - from[y][p] * from[p][x] * inv;
      to[y][x] = a;
    }
    __syncthreads();  // the pivot's writes before the next pivot's reads
    double(*t)[kB + 1] = from;
    from = to;
    to = t;
  }
  __syncthreads();  // a failed pivot's flag
  if (sh.bad) return false;
  if (from != sh.S) {  // D is where the last pivot wrote it
    if (y < b && x < b) sh.S[y][x] = from[y][x];
    __syncthreads();
  }

  const index_t tiles_1d = (n + kB - 1) / kB, kt = k0 / kB;
  const long long tiles = static_cast<long long>(tiles_1d) * tiles_1d;
  for (long long t = first_tile; t < tiles; t += tile_stride) {
    const index_t ti = static_cast<index_t>(t / tiles_1d), tj = static_cast<index_t>(t % tiles_1d);
    const index_t i = ti * kB + y, j = tj * kB + x;
    const bool in = i < n && j < n;
    // One load round: the tile, its pivot rows and its rows' pivot columns.
    const double mij = in ? M[static_cast<std::int64_t>(i) * n + j] : 0.0;
    if (y < b && j < n) sh.C[y][x] = M[static_cast<std::int64_t>(k0 + y) * n + j];
    if (i < n && x < b) sh.L[y][x] = M[static_cast<std::int64_t>(i) * n + k0 + x];
    __syncthreads();
    double out = 0.0;
    if (tj == kt) {  // the pivot columns
      if (ti == kt) {
        out = sh.S[y][x];
      } else {
        double a = 0.0;
        for (int s = 0; s < b; ++s) a += sh.L[y][s] * sh.S[s][x];
        out = -a;
      }
    } else {
      double r = 0.0;  // R[y][j] = (D M[K, J])[y][x]
      if (y < b)
        for (int s = 0; s < b; ++s) r += sh.S[y][s] * sh.C[s][x];
      __syncthreads();  // every thread has read C
      if (y < b) sh.C[y][x] = r;
      __syncthreads();
      if (ti == kt) {
        out = r;
      } else {
        double a = 0.0;
        for (int s = 0; s < b; ++s) a += sh.L[y][s] * sh.C[s][x];
        out = mij - a;
      }
    }
    if (in) N[static_cast<std::int64_t>(i) * n + j] = out;
    __syncthreads();  // C and L are reloaded for the next tile
  }
  return true;
}

// One launched step (the fallback where a cooperative launch cannot run).
__global__ __launch_bounds__(kB * kB) void gauss_jordan_step_kernel(index_t n, index_t k0, const double* M, double* N,
                                                                    const double* __restrict__ diag, double* status) {
  __shared__ StepTiles sh;
  if (status[kFailed] != 0) return;  // an earlier step failed: its launch has set the flag
  if (!gauss_jordan_step(n, k0, M, N, diag, sh, blockIdx.x, gridDim.x, status) && blockIdx.x == 0 &&
      threadIdx.x == 0 && threadIdx.y == 0)
    status[kFailed] = 1;
}

// Every block step in one cooperative kernel: a grid barrier between steps,
// the buffers swapped after each. The inverse ends in M0 after an even number
// of steps, else in M1.
__global__ __launch_bounds__(kB * kB) void gauss_jordan_kernel(index_t n, double* M0, double* M1,
                                                               const double* __restrict__ diag, double* status) {
  __shared__ StepTiles sh;
  cg::grid_group grid = cg::this_grid();
  double* from = M0;
  double* to = M1;
  for (index_t k0 = 0; k0 < n; k0 += kB) {
    if (!gauss_jordan_step(n, k0, from, to, diag, sh, blockIdx.x, gridDim.x, status)) {
      if (blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0) status[kFailed] = 1;
      return;  // every CTA sees the same pivot: all leave together, before any barrier
    }
    grid.sync();
    double* t = from;
    from = to;
    to = t;
  }
}

// M += scale Z Zᵀ (Z column-major n x r), and diag = M's new diagonal where
// given: the low-rank shift of a semi-definite matrix's null space before the
// inverse, and its correction after it (amg/coarse_null_space.hpp).
__global__ void low_rank_kernel(index_t n, const double* __restrict__ Z, int r, double scale, double* __restrict__ M,
                                double* __restrict__ diag) {
  const std::int64_t total = static_cast<std::int64_t>(n) * n;
  for (std::int64_t e = global_thread(); e < total; e += grid_stride()) {
    const std::int64_t i = e / n, j = e % n;
    double s = 0.0;
    for (int c = 0; c < r; ++c) s += Z[c * static_cast<std::int64_t>(n) + i] * Z[c * static_cast<std::int64_t>(n) + j];
    M[e] += scale * s;
    if (diag && i == j) diag[i] = M[e];
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

DeviceInverse cholesky_inverse(const CsrMatrix& A, CsrMatrix& inverse, bool cooperative, const LowRankShift& shift) {
  const index_t n = A.rows();
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  const cudaStream_t st = ::saga::device_stream();
  Array<double> M0 = Array<double>::zeros(nn, Space::device, "coarse matrix (dense)");
  Array<double> M1(nn, Space::device, "coarse matrix (dense, second buffer)");
  Array<double> diag = Array<double>::zeros(n, Space::device, "coarse diagonal");
  Array<double> status = Array<double>::from_vector({0.0, std::numeric_limits<double>::infinity()}, Space::device,
                                                    "pivot status");
  scatter_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.row_ptr().data(), A.col().data(), A.val().data(), M0.data(),
                                                    diag.data());
  SAGA_CUDA_LAUNCH("coarse scatter");
  const unsigned dense_grid = std::min<unsigned>(grid_for(static_cast<std::int64_t>(nn)), 2048u);
  if (shift.columns > 0) {
    low_rank_kernel<<<dense_grid, kThreads, 0, st>>>(n, shift.Z, shift.columns, shift.alpha, M0.data(), diag.data());
    SAGA_CUDA_LAUNCH("coarse null-space shift");
  }
  const index_t tiles_1d = (n + kB - 1) / kB;
  const long long tiles = static_cast<long long>(tiles_1d) * tiles_1d;
  const index_t steps = tiles_1d;
  // All block steps in one cooperative kernel (a launch a step costs its gap);
  // a launch a step where it cannot run.
  bool done = false;
  if (cooperative) {
    static int per_sm = -1;
    const void* coop = reinterpret_cast<const void*>(gauss_jordan_kernel);
    const int blocks = saga::cuda::cooperative_blocks(coop, tiles, per_sm, kB * kB);
    index_t rows = n;
    double *m0 = M0.data(), *m1 = M1.data(), *dp = diag.data(), *sp = status.data();
    void* args[] = {&rows, &m0, &m1, &dp, &sp};
    done = blocks > 0 &&
           saga::cuda::launch_cooperative(coop, blocks, args, "coarse Gauss-Jordan (cooperative)", dim3(kB, kB));
  }
  if (!done) {
    const unsigned grid = static_cast<unsigned>(std::min<long long>(tiles, 65535));
    for (index_t k = 0; k < steps; ++k) {
      const double* from = k % 2 == 0 ? M0.data() : M1.data();
      double* to = k % 2 == 0 ? M1.data() : M0.data();
      gauss_jordan_step_kernel<<<grid, dim3(kB, kB), 0, st>>>(n, k * kB, from, to, diag.data(), status.data());
      SAGA_CUDA_LAUNCH("coarse Gauss-Jordan block step");
    }
  }
  const std::vector<double> report = status.to_vector();
  DeviceInverse result{report[kFailed] == 0, report[kMinPivot]};
  if (!result.positive_definite) return result;  // the caller decides (coarse_solver.cpp)
  double* X = steps % 2 == 0 ? M0.data() : M1.data();
  if (shift.columns > 0) {  // (A + α Z Zᵀ)⁻¹ - (1/α) Z Zᵀ = A⁺
    low_rank_kernel<<<dense_grid, kThreads, 0, st>>>(n, shift.Z, shift.columns, -1.0 / shift.alpha, X, nullptr);
    SAGA_CUDA_LAUNCH("coarse null-space correction");
  }
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, Space::device, "coarse inverse rows");
  Array<index_t> ci(nn, Space::device, "coarse inverse columns");
  Array<double> v(nn, Space::device, "coarse inverse values");
  dense_csr_kernel<<<dense_grid, kThreads, 0, st>>>(n, X, rp.data(), ci.data(), v.data());
  SAGA_CUDA_LAUNCH("coarse inverse to CSR");
  inverse = CsrMatrix(n, n, std::move(rp), std::move(ci), std::move(v));
  return result;
}

}  // namespace saga::amg::cuda
