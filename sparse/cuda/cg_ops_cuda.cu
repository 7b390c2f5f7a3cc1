// Device CG updates (sparse/cg_ops.hpp). The scalars are read on the device by
// every thread (broadcast loads), the ||r|| of the update is a fixed-order
// two-pass reduction finished by one block, which also advances the history.
#include <cmath>

#include "sparse/cg_ops.hpp"
#include "sparse/cuda/block_reduce.cuh"
#include "sparse/cuda/kernels.hpp"

namespace saga::cuda {

namespace {
__global__ void direction_kernel(const double* __restrict__ S, bool flexible, const double* __restrict__ z,
                                 double* __restrict__ q, std::int64_t n) {
  wait_for_prior_grid();
  const double beta = cg_beta(S, flexible);
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) q[i] = beta == 0.0 ? z[i] : z[i] + beta * q[i];
}

__global__ void step_kernel(const double* __restrict__ S, const double* __restrict__ q,
                            const double* __restrict__ Aq, double* __restrict__ x, double* __restrict__ r,
                            std::int64_t n, double* __restrict__ partial) {
  wait_for_prior_grid();
  double rr = 0.0;
  if (cg_step_allowed(S)) {
    const double alpha = S[cg_slot::rz] / S[cg_slot::qAq];
    for (std::int64_t i = global_thread(); i < n; i += grid_stride()) {
      x[i] += alpha * q[i];
      const double ri = r[i] - alpha * Aq[i];
      r[i] = ri;
      rr += ri * ri;
    }
  }
  write_block_partial(rr, partial);
}

__global__ void step_finish_kernel(double* S, std::size_t size, const double* __restrict__ partial, int m) {
  wait_for_prior_grid();
  const double rr = sum_partials(partial, m);
  if (threadIdx.x == 0 && cg_update_ran(S)) cg_record_step(S, size, sqrt(rr));
}
}  // namespace

void cg_direction(Scalars& s, const Vector& z, Vector& q, bool flexible) {
  if (q.empty()) return;
  launch_dependent("cg direction", direction_kernel, grid_capped(q.size()), kThreads, 0, ::saga::device_stream(),
                   s.data(), flexible, z.data(), q.data(), q.size());
}

void cg_step(Scalars& s, const Vector& q, const Vector& Aq, Vector& x, Vector& r) {
  double* partial = s.scratch(kReduceBlocks);
  launch_dependent("cg step", step_kernel, kReduceBlocks, kThreads, 0, ::saga::device_stream(),
                   s.data(), q.data(), Aq.data(), x.data(), r.data(), q.size(), partial);
  launch_dependent("cg step finish", step_finish_kernel, 1, kThreads, 0, ::saga::device_stream(),
                   s.data(), s.size(), partial, kReduceBlocks);
}

}  // namespace saga::cuda
