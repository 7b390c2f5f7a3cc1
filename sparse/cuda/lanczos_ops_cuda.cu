// Device Lanczos updates (sparse/lanczos_ops.hpp): the scalars are read on the
// device; ||w|| is a fixed-order two-pass reduction finished by one block.
// lanczos_steps runs all steps of the estimate in one cooperative kernel.
#include <cooperative_groups.h>

#include <cmath>

#include "sparse/cuda/block_reduce.cuh"
#include "sparse/cuda/cooperative.cuh"
#include "sparse/cuda/kernels.hpp"
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
// (rows grid-strided in whole warps, so the shuffles see every lane); three
// phases a step with a grid barrier after each: the product of A and t = d .* v
// with alpha's per-block partials (pa), the orthogonalisation with ||w||'s
// (pb), the normalisation into v_prev's storage (then the two swap roles) with
// the next t. Each block sums the partials itself: alpha and beta are in
// registers everywhere, and block 0 records them in S. (t is kept as a vector,
// as the composed steps do, so that the product gathers one value per column,
// not two.)
// At least 4 CTAs per SM (64 registers, no spills): with the compiler's 96
// registers only 2 fit and the fine levels' steps were latency-bound; 8 (32
// registers, spills) and 2 measured 10-25% and 25-55% slower than 4 on the
// H100 (3D 7-pt N=128, 2D 5- and 9-pt N=1024).
constexpr int kLanczosMinBlocks = 4;
template <int V, class Value>
__global__ __launch_bounds__(kThreads, kLanczosMinBlocks) void lanczos_steps_kernel(
    index_t n, const offset_t* __restrict__ rp, const index_t* __restrict__ ci, const Value* __restrict__ val,
    const double* __restrict__ d, double* v, double* v_prev, double* __restrict__ w, double* __restrict__ t, int m,
    double* __restrict__ S, double* pa, double* pb, int normalise) {
  cg::grid_group grid = cg::this_grid();
  const long long tid = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  const long long groups = stride / V;
  const int lane = threadIdx.x % V;
  const long long first_group = tid / 32 * (32 / V);  // this warp's first group
  double beta_prev = 0.0;
  double inv = 1.0;
  if (normalise) {  // v = v / ||v|| (as the host's scale(1 / norm2(v), v), the sum in this kernel's order)
    double vv = 0.0;
    for (long long i = tid; i < n; i += stride) vv += v[i] * v[i];
    write_block_partial<kThreads>(vv, pa);
    grid.sync();
    inv = 1.0 / sqrt(block_total(pa, gridDim.x));
  }
  for (long long i = tid; i < n; i += stride) {
    if (normalise) v[i] = inv * v[i];
    t[i] = d[i] * v[i];
  }
  grid.sync();
  for (int j = 0; j < m; ++j) {
    // w = A t; alpha's share: t_r w_r (the composed steps' tmp . w)
    double mine = 0.0;
    for (long long r_first = first_group; r_first < n; r_first += groups) {  // the same trip count in a warp
      const long long r = r_first + threadIdx.x % 32 / V;
      double s = 0.0;
      if (r < n)
        for (offset_t k = rp[r] + lane, e = rp[r + 1]; k < e; k += V) {
          s += static_cast<double>(val[k]) * t[ci[k]];
        }
      for (int off = V / 2; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
      if (r < n && lane == 0) {
        w[r] = s;
        mine += t[r] * s;
      }
    }
    write_block_partial<kThreads>(mine, pa);
    grid.sync();
    const double a = block_total(pa, gridDim.x);
    // w <- d .* w - alpha v - beta v_prev, and ||w||^2's share
    double ww = 0.0;
    for (long long i = tid; i < n; i += stride) {
      double wi = d[i] * w[i] - a * v[i];
      if (j > 0) wi -= beta_prev * v_prev[i];
      w[i] = wi;
      ww += wi * wi;
    }
    write_block_partial<kThreads>(ww, pb);
    grid.sync();
    const double b = sqrt(block_total(pb, gridDim.x));
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      S[j] = a;
      S[m + j] = b;
    }
    if (j + 1 == m) break;
    // v_{j+1} = w / beta into v_prev's storage (read above at the same index only)
    const double inv = 1.0 / b;
    for (long long i = tid; i < n; i += stride) {
      const double vi = inv * w[i];
      v_prev[i] = vi;
      t[i] = d[i] * vi;
    }
    double* older = v;
    v = v_prev;
    v_prev = older;
    beta_prev = b;
    grid.sync();
  }
}

template <int V, class Value>
bool launch_lanczos(const CsrMatrix& A, const Value* val, const Vector& d, int m, Vector& v, Scalars& s,
                    bool normalise) {
  const void* kernel = reinterpret_cast<const void*>(lanczos_steps_kernel<V, Value>);
  static int per_sm = -1;
  const int blocks =
      cooperative_blocks(kernel, (static_cast<long long>(A.rows()) * V + kThreads - 1) / kThreads, per_sm);
  if (blocks == 0) return false;
  Vector v_prev = Vector::zeros(v.size(), Space::device, "Lanczos vector");
  Vector w(v.size(), Space::device, "Lanczos vector"), t(v.size(), Space::device, "Lanczos vector");
  double* partial = s.scratch(2 * static_cast<std::size_t>(blocks));
  index_t rows = A.rows();
  const offset_t* rp = A.row_ptr().data();
  const index_t* ci = A.col().data();
  const double* dp = d.data();
  double *vp = v.data(), *pp = v_prev.data(), *wp = w.data(), *tp = t.data(), *S = s.data(), *pa = partial,
         *pb = partial + blocks;
  int norm = normalise ? 1 : 0;
  void* args[] = {&rows, &rp, &ci, &val, &dp, &vp, &pp, &wp, &tp, &m, &S, &pa, &pb, &norm};
  return launch_cooperative(kernel, blocks, args, "lanczos steps (cooperative)");
}

// Lanes per row from the mean row length. Rows of more than 12 entries on a
// large matrix (27-point fine levels) are left to the composed steps, whose
// binned product stages them (measured on the H100: the cooperative kernel's
// 8-lane rows made 27-point N=128's estimate 16% slower, while it saves a fifth
// to a half on coarse levels, where launches dominate).
constexpr std::int64_t kCooperativeWideRowsMaxNnz = 8 << 20;
template <class Value>
bool lanczos_lanes(const CsrMatrix& A, const Value* val, const Vector& d, int m, Vector& v, Scalars& s,
                   bool normalise) {
  const double mean = A.rows() ? static_cast<double>(A.nnz()) / A.rows() : 0.0;
  if (mean <= 12) return launch_lanczos<1>(A, val, d, m, v, s, normalise);
  if (static_cast<std::int64_t>(A.nnz()) > kCooperativeWideRowsMaxNnz) return false;
  if (mean <= 64) return launch_lanczos<8>(A, val, d, m, v, s, normalise);
  return launch_lanczos<32>(A, val, d, m, v, s, normalise);
}
}  // namespace

bool lanczos_steps(const CsrMatrix& A, const Vector& d, int m, Vector& v, Scalars& s, bool normalise) {
  if (A.rows() == 0) return false;
  return A.single_precision() ? lanczos_lanes(A, A.val_single().data(), d, m, v, s, normalise)
                              : lanczos_lanes(A, A.val().data(), d, m, v, s, normalise);
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
