// Device Lanczos updates (sparse/lanczos_ops.hpp): the scalars are read on the
// device; ||w|| is a fixed-order two-pass reduction finished by one block.
// lanczos_steps runs all steps of the estimate in one cooperative kernel.
#include <cooperative_groups.h>

#include <cmath>

#include "core/parallel_for.cuh"
#include "sparse/cuda/block_reduce.cuh"
#include "sparse/cuda/cooperative.cuh"
#include "sparse/cuda/kernels.hpp"
#include "sparse/lanczos_functors.hpp"
#include "sparse/lanczos_ops.hpp"

namespace saga::cuda {

namespace {
__global__ void orthogonalize_kernel(const double* __restrict__ S, int alpha, int beta_prev,
                                     const double* __restrict__ d, const double* __restrict__ v,
                                     const double* __restrict__ v_prev, double* __restrict__ w, std::int64_t n,
                                     double* __restrict__ partial) {
  const double a = S[alpha], b = beta_prev >= 0 ? S[beta_prev] : 0.0;
  double ww = 0.0;
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) {
    double wi = d[i] * w[i] - a * v[i];
    if (beta_prev >= 0) wi -= b * v_prev[i];
    w[i] = wi;
    ww += wi * wi;
  }
  write_block_partial(ww, partial);
}
__global__ void normalize_kernel(const double* __restrict__ S, int beta, const double* __restrict__ w,
                                 double* __restrict__ v, std::int64_t n) {
  const double inv = 1.0 / S[beta];
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) v[i] = inv * w[i];
}
}  // namespace

namespace {
namespace cg = cooperative_groups;

// The sum of partial[0, m) in every thread of the block: sum_partials' fixed
// order, so every block of the grid gets the same value.
__device__ inline double block_total(const double* partial, long long m) {
  __shared__ double total;
  const double t = sum_partials<kThreads>(partial, m);
  if (threadIdx.x == 0) total = t;
  __syncthreads();
  const double out = total;
  __syncthreads();  // total and the reduction's shared words free for the next use
  return out;
}

// m Lanczos steps on diag(d) A diag(d) (lanczos_steps). V lanes per row of A
// (rows grid-strided in whole warps, so the shuffles see every lane); two
// phases a step with a grid barrier after each: the product of A and
// t = d .* v_j with alpha's per-block partials (pa), then the orthogonalisation
// w = d .* (A t) - alpha v_j - beta v_{j-1} with ||w||'s (pb). The unit
// vectors are never stored: v_j = inv_a * wa and v_{j-1} = inv_b * wb, the
// last two w's with their 1 / beta (the rounding the stored v_j = w / beta had,
// so the scalars are those of the three-phase steps with a normalisation pass,
// bit for bit), and t_c = d_c v_j,c is formed where the product gathers it.
// That saves the normalisation pass (writing v and t, reading w and d: 32 B a
// row a step) and one grid barrier a step. Each block sums the partials
// itself: alpha and beta are in registers everywhere, and block 0 records them
// in S. With `start`, the kernel first makes d = sqrt(dinv) and the start
// vector 2u - 1 (u = RandomUniform at `seed`) — the estimate's whole start,
// the same values as the vector operations make (lanczos_steps_dinv).
// At least 4 CTAs per SM (64 registers, no spills): with the compiler's 96
// registers only 2 fit and the fine levels' steps were latency-bound; 8 (32
// registers, spills) and 2 measured 10-25% and 25-55% slower than 4 on the
// H100 (3D 7-pt N=128, 2D 5- and 9-pt N=1024).
constexpr int kLanczosMinBlocks = 4;
struct LanczosStart {  // the estimate's start, made in the kernel (lanczos_steps_dinv)
  const double* dinv;  // null: d and wa hold D^-1/2 and the start vector already
  std::uint64_t seed;
};
template <int V, class Value>
__global__ __launch_bounds__(kThreads, kLanczosMinBlocks) void lanczos_steps_kernel(
    index_t n, const offset_t* __restrict__ rp, const index_t* __restrict__ ci, const Value* __restrict__ val,
    double* d, double* wa, double* wb, double* __restrict__ u, int m, double* __restrict__ S, double* pa, double* pb,
    int normalise, LanczosStart start) {
  cg::grid_group grid = cg::this_grid();
  const long long tid = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  const long long groups = stride / V;
  const int lane = threadIdx.x % V;
  const long long first_group = tid / 32 * (32 / V);  // this warp's first group
  if (start.dinv) {  // d = sqrt(dinv), wa = 2u - 1: the start the composed path makes
    const functors::LanczosStartValues make{start.dinv, d, wa, start.seed};
    for (long long i = tid; i < n; i += stride) make(i);
  }
  double inv_a = 1.0, inv_b = 1.0;  // v_j = inv_a wa, v_{j-1} = inv_b wb
  if (normalise) {  // v_0 = wa / ||wa|| (as the host's scale(1 / norm2(v), v), the sum in this kernel's order)
    double vv = 0.0;
    for (long long i = tid; i < n; i += stride) vv += wa[i] * wa[i];
    write_block_partial<kThreads>(vv, pa);
    grid.sync();
    inv_a = 1.0 / sqrt(block_total(pa, gridDim.x));
  }
  double beta_prev = 0.0;
  for (int j = 0; j < m; ++j) {
    // u = A t, t_c = d_c (inv_a wa_c); alpha's share: t_r u_r (the composed steps' tmp . w)
    double mine = 0.0;
    for (long long r_first = first_group; r_first < n; r_first += groups) {  // the same trip count in a warp
      const long long r = r_first + threadIdx.x % 32 / V;
      double s = 0.0;
      if (r < n)
        for (offset_t k = rp[r] + lane, e = rp[r + 1]; k < e; k += V) {
          const index_t c = ci[k];
          s += static_cast<double>(val[k]) * (d[c] * (inv_a * wa[c]));
        }
      for (int off = V / 2; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
      if (r < n && lane == 0) {
        u[r] = s;
        mine += (d[r] * (inv_a * wa[r])) * s;
      }
    }
    write_block_partial<kThreads>(mine, pa);
    grid.sync();
    const double a = block_total(pa, gridDim.x);
    // w = d .* u - alpha v_j - beta v_{j-1} into wb (v_{j-1}'s storage: read at the same index only), and
    // ||w||^2's share
    double ww = 0.0;
    for (long long i = tid; i < n; i += stride) {
      double wi = d[i] * u[i] - a * (inv_a * wa[i]);
      if (j > 0) wi -= beta_prev * (inv_b * wb[i]);
      wb[i] = wi;
      ww += wi * wi;
    }
    write_block_partial<kThreads>(ww, pb);
    grid.sync();
    const double b = sqrt(block_total(pb, gridDim.x));
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      S[j] = a;
      S[m + j] = b;
    }
    // v_{j+1} = w / beta: wb with 1 / beta; v_j stays as wa with inv_a
    double* older = wa;
    wa = wb;
    wb = older;
    inv_b = inv_a;
    inv_a = 1.0 / b;
    beta_prev = b;
  }
}

// The kernel on A's values with v (and d) as given, or with `start` made in
// the kernel into v and d (d then the caller's scratch of n entries).
template <int V, class Value>
bool launch_lanczos(const CsrMatrix& A, const Value* val, Vector& d, int m, Vector& v, Scalars& s, bool normalise,
                    LanczosStart start) {
  // The start's values are gathered only after the normalisation's grid barrier.
  SAGA_REQUIRE(!start.dinv || normalise, "Lanczos: a start made in the kernel must be normalised there");
  const void* kernel = reinterpret_cast<const void*>(lanczos_steps_kernel<V, Value>);
  static int per_sm = -1;
  const int blocks =
      cooperative_blocks(kernel, (static_cast<long long>(A.rows()) * V + kThreads - 1) / kThreads, per_sm);
  if (blocks == 0) return false;
  // wb (v_{j-1}) and u in one allocation; wb is read only from the second step on.
  Vector work(2 * v.size(), Space::device, "Lanczos vectors");
  double* partial = s.scratch(2 * static_cast<std::size_t>(blocks));
  index_t rows = A.rows();
  const offset_t* rp = A.row_ptr().data();
  const index_t* ci = A.col().data();
  double *dp = d.data(), *vp = v.data(), *wbp = work.data(), *up = work.data() + v.size(), *S = s.data(),
         *pa = partial, *pb = partial + blocks;
  int norm = normalise ? 1 : 0;
  void* args[] = {&rows, &rp, &ci, &val, &dp, &vp, &wbp, &up, &m, &S, &pa, &pb, &norm, &start};
  return launch_cooperative(kernel, blocks, args, "lanczos steps (cooperative)");
}

// Lanes per row from the mean row length. Rows of more than 12 entries on a
// large matrix (27-point fine levels) are left to the composed steps, whose
// binned product stages them (measured on the H100: the cooperative kernel's
// 8-lane rows made 27-point N=128's estimate 16% slower, while it saves a fifth
// to a half on coarse levels, where launches dominate).
constexpr std::int64_t kCooperativeWideRowsMaxNnz = 8 << 20;
template <class Value>
bool lanczos_lanes(const CsrMatrix& A, const Value* val, Vector& d, int m, Vector& v, Scalars& s, bool normalise,
                   LanczosStart start) {
  const double mean = A.rows() ? static_cast<double>(A.nnz()) / A.rows() : 0.0;
  if (mean <= 12) return launch_lanczos<1>(A, val, d, m, v, s, normalise, start);
  if (static_cast<std::int64_t>(A.nnz()) > kCooperativeWideRowsMaxNnz) return false;
  if (mean <= 64) return launch_lanczos<8>(A, val, d, m, v, s, normalise, start);
  return launch_lanczos<32>(A, val, d, m, v, s, normalise, start);
}
bool lanczos_kernel(const CsrMatrix& A, Vector& d, int m, Vector& v, Scalars& s, bool normalise, LanczosStart start) {
  if (A.rows() == 0) return false;
  return A.single_precision() ? lanczos_lanes(A, A.val_single().data(), d, m, v, s, normalise, start)
                              : lanczos_lanes(A, A.val().data(), d, m, v, s, normalise, start);
}
}  // namespace

bool lanczos_steps(const CsrMatrix& A, const Vector& d, int m, Vector& v, Scalars& s, bool normalise) {
  // d is only read when the kernel makes no start
  return lanczos_kernel(A, const_cast<Vector&>(d), m, v, s, normalise, LanczosStart{nullptr, 0});
}

bool lanczos_steps_dinv(const CsrMatrix& A, const Vector& dinv, int m, std::uint64_t seed, Vector& d, Vector& v,
                        Scalars& s) {
  return lanczos_kernel(A, d, m, v, s, /*normalise=*/true, LanczosStart{dinv.data(), seed});
}

void lanczos_orthogonalize(Scalars& s, int alpha, int beta_prev, int beta, const Vector& d, const Vector& v,
                           const Vector& v_prev, Vector& w) {
  double* partial = s.scratch(kReduceBlocks);
  orthogonalize_kernel<<<kReduceBlocks, kThreads, 0, ::saga::device_stream()>>>(
      s.data(), alpha, beta_prev, d.data(), v.data(), v_prev.data(), w.data(), w.size(), partial);
  SAGA_CUDA_LAUNCH("lanczos orthogonalize");
  sum_partials_into<true><<<1, kSumThreads, 0, ::saga::device_stream()>>>(partial, kReduceBlocks, s.data() + beta);
  SAGA_CUDA_LAUNCH("lanczos norm");
}

void lanczos_normalize(const Scalars& s, int beta, const Vector& w, Vector& v) {
  if (w.empty()) return;
  normalize_kernel<<<grid_capped(w.size()), kThreads, 0, ::saga::device_stream()>>>(
      s.data(), beta, w.data(), v.data(), w.size());
  SAGA_CUDA_LAUNCH("lanczos normalize");
}

}  // namespace saga::cuda

SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::LanczosStartValues)
