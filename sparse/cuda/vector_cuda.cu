// Device vector operations. dot() uses a fixed grid and a fixed reduction tree,
// so its result is the same run after run.
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/block_reduce.cuh"
#include "sparse/cuda/launch.cuh"

namespace saga::cuda {

namespace {

__global__ void fill_kernel(double* x, std::int64_t n, double v) {
  wait_for_prior_grid();
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) x[i] = v;
}
__global__ void axpby_kernel(double a, const double* x, double b, double* y, std::int64_t n) {
  wait_for_prior_grid();
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) y[i] = b == 0.0 ? a * x[i] : a * x[i] + b * y[i];
}
__global__ void scale_kernel(double a, double* x, std::int64_t n) {
  wait_for_prior_grid();
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) x[i] *= a;
}
__global__ void multiply_kernel(const double* x, const double* y, double* z, std::int64_t n, double a) {
  wait_for_prior_grid();
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) z[i] = a == 1.0 ? x[i] * y[i] : a * (x[i] * y[i]);
}
__global__ void add_scaled_product_kernel(double a, const double* d, const double* r, double* y, std::int64_t n) {
  wait_for_prior_grid();
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) y[i] += a * d[i] * r[i];
}
__global__ void scaled_difference_kernel(const double* w, const double* b, const double* y, double* r,
                                         std::int64_t n) {
  wait_for_prior_grid();
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) r[i] = w[i] * (b[i] - y[i]);
}
__global__ void step_update_kernel(double a, const double* r, double b, double* d, double c, double* x,
                                   std::int64_t n) {
  wait_for_prior_grid();
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) {
    const double di = b == 0.0 ? a * r[i] : a * r[i] + b * d[i];
    d[i] = di;
    x[i] = c == 0.0 ? di : c * x[i] + di;
  }
}
__global__ void dot_partial(const double* x, const double* y, std::int64_t n, double* partial) {
  wait_for_prior_grid();
  double s = 0.0;
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) s += x[i] * y[i];
  write_block_partial(s, partial);
}
// *bad = 1 where some entry fails `ok` (an idempotent store: the same flag in
// any order), one store a CTA: where most entries fail, a store each would
// queue at the L2 on one word.
template <class Ok>
__global__ void flag_failing_kernel(const double* x, std::int64_t n, Ok ok, int* bad) {
  wait_for_prior_grid();
  bool failed = false;
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) failed |= !ok(x[i]);
  if (__syncthreads_or(failed) && threadIdx.x == 0) *bad = 1;
}
// out = x rounded to float; *inexact = 1 (once a CTA) where some value changed.
__global__ void to_single_kernel(const double* x, std::int64_t n, float* out, int* inexact) {
  wait_for_prior_grid();
  bool changed = false;
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) {
    const float f = __double2float_rn(x[i]);
    out[i] = f;
    changed |= static_cast<double>(f) != x[i];  // a NaN compares unequal: not exact
  }
  if (__syncthreads_or(changed) && threadIdx.x == 0) *inexact = 1;
}
// A grid-stride kernel over n elements, launched dependent (launch.cuh).
template <class... Params, class... Args>
void launch_vector(const char* what, void (*kernel)(Params...), std::int64_t n, Args&&... args) {
  launch_dependent(what, kernel, grid_capped(n), kThreads, 0, ::saga::device_stream(), std::forward<Args>(args)...);
}
struct Finite {
  __device__ bool operator()(double v) const { return isfinite(v); }
};
struct ExactInSingle {  // rounding to float and back keeps the value (a NaN compares unequal)
  __device__ bool operator()(double v) const { return static_cast<double>(__double2float_rn(v)) == v; }
};
// Whether every entry of x passes `ok`: one pass and one read of the flag.
template <class Ok>
bool all_entries(const Vector& x, Ok ok, const char* what) {
  if (x.empty()) return true;
  Array<int> bad = Array<int>::zeros(1, Space::device, what);
  launch_vector(what, flag_failing_kernel<Ok>, x.size(), x.data(), x.size(), ok, bad.data());
  return bad.get(0) == 0;
}

}  // namespace

void fill(Vector& x, double v) {
  if (x.empty()) return;
  launch_vector("fill", fill_kernel, x.size(), x.data(), x.size(), v);
}
void axpby(double a, const Vector& x, double b, Vector& y) {
  if (x.empty()) return;
  launch_vector("axpby", axpby_kernel, x.size(), a, x.data(), b, y.data(), x.size());
}
void scale(double a, Vector& x) {
  if (x.empty()) return;
  launch_vector("scale", scale_kernel, x.size(), a, x.data(), x.size());
}
void multiply(const Vector& x, const Vector& y, Vector& z, double a) {
  if (x.empty()) return;
  launch_vector("multiply", multiply_kernel, x.size(), x.data(), y.data(), z.data(), x.size(), a);
}
void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y) {
  if (y.empty()) return;
  launch_vector("add_scaled_product", add_scaled_product_kernel, y.size(), a, d.data(), r.data(), y.data(),
                y.size());
}
void scaled_difference(const Vector& w, const Vector& b, const Vector& y, Vector& r) {
  if (r.empty()) return;
  launch_vector("scaled_difference", scaled_difference_kernel, r.size(), w.data(), b.data(), y.data(), r.data(),
                r.size());
}
void step_update(double a, const Vector& r, double b, Vector& d, double c, Vector& x) {
  if (d.empty()) return;
  launch_vector("step_update", step_update_kernel, d.size(), a, r.data(), b, d.data(), c, x.data(), d.size());
}
double dot(const Vector& x, const Vector& y) {
  if (x.empty()) return 0.0;
  Array<double> partial(kReduceBlocks, Space::device, "dot partial sums");
  launch_dependent("dot_partial", dot_partial, kReduceBlocks, kThreads, 0, ::saga::device_stream(),
                   x.data(), y.data(), x.size(), partial.data());
  launch_dependent("sum_partials_into", sum_partials_into<false>, 1, kSumThreads, 0, ::saga::device_stream(),
                   partial.data(), kReduceBlocks, partial.data());
  return partial.get(0);
}
void dot_into(const Vector& x, const Vector& y, Scalars& s, int slot) {
  double* out = s.data() + slot;
  if (x.empty()) {
    launch_dependent("fill", fill_kernel, 1, 32, 0, ::saga::device_stream(),
                     out, 1, 0.0);
    return;
  }
  double* partial = s.scratch(kReduceBlocks);
  launch_dependent("dot_partial", dot_partial, kReduceBlocks, kThreads, 0, ::saga::device_stream(),
                   x.data(), y.data(), x.size(), partial);
  launch_dependent("sum_partials_into", sum_partials_into<false>, 1, kSumThreads, 0, ::saga::device_stream(),
                   partial, kReduceBlocks, out);
}
bool all_finite(const Vector& x) { return all_entries(x, Finite{}, "finite flag"); }
bool all_exact_in_single(const Vector& x) { return all_entries(x, ExactInSingle{}, "inexact-in-float flag"); }
bool to_single_if_exact(const Vector& x, Array<float>& out) {
  if (x.empty()) return true;
  Array<int> inexact = Array<int>::zeros(1, Space::device, "inexact-in-float flag");
  launch_vector("to single", to_single_kernel, x.size(), x.data(), x.size(), out.data(), inexact.data());
  return inexact.get(0) == 0;
}

}  // namespace saga::cuda
