// Device Lanczos updates (sparse/lanczos_ops.hpp): the scalars are read on the
// device; ||w|| is a fixed-order two-pass reduction finished by one block.
#include <cmath>

#include "sparse/cuda/block_reduce.cuh"
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
