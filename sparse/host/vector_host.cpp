// Host vector operations. Reductions sum fixed-size blocks in parallel, then
// the block sums in order, so results do not depend on the thread count.
#include <cmath>
#include <vector>

#include "sparse/host/kernels.hpp"

namespace saga::host {

namespace {
constexpr std::size_t kBlock = 4096;
}

void fill(Vector& x, double value) {
  double* p = x.data();
  const std::size_t n = x.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) p[i] = value;
}

void axpby(double a, const Vector& x, double b, Vector& y) {
  const double* xp = x.data();
  double* yp = y.data();
  const std::size_t n = x.size();
  if (b == 0.0) {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) yp[i] = a * xp[i];
  } else {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) yp[i] = a * xp[i] + b * yp[i];
  }
}

void scale(double a, Vector& x) {
  double* p = x.data();
  const std::size_t n = x.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) p[i] *= a;
}

void multiply(const Vector& x, const Vector& y, Vector& z, double a) {
  const double *xp = x.data(), *yp = y.data();
  double* zp = z.data();
  const std::size_t n = x.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) zp[i] = a == 1.0 ? xp[i] * yp[i] : a * (xp[i] * yp[i]);
}

void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y) {
  const double *dp = d.data(), *rp = r.data();
  double* yp = y.data();
  const std::size_t n = y.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) yp[i] += a * dp[i] * rp[i];
}

void scaled_difference(const Vector& w, const Vector& b, const Vector& y, Vector& r) {
  const double *wp = w.data(), *bp = b.data(), *yp = y.data();
  double* rp = r.data();
  const std::size_t n = r.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) rp[i] = wp[i] * (bp[i] - yp[i]);
}

void step_update(double a, const Vector& r, double b, Vector& d, double c, Vector& x) {
  const double* rp = r.data();
  double *dp = d.data(), *xp = x.data();
  const std::size_t n = d.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double di = b == 0.0 ? a * rp[i] : a * rp[i] + b * dp[i];
    dp[i] = di;
    xp[i] = c == 0.0 ? di : c * xp[i] + di;
  }
}

double dot(const Vector& x, const Vector& y) {
  const double *xp = x.data(), *yp = y.data();
  const std::size_t n = x.size();
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<double> partial(blocks, 0.0);
#pragma omp parallel for schedule(static)
  for (std::size_t b = 0; b < blocks; ++b) {
    double s = 0.0;
    const std::size_t end = std::min(n, (b + 1) * kBlock);
    for (std::size_t i = b * kBlock; i < end; ++i) s += xp[i] * yp[i];
    partial[b] = s;
  }
  double s = 0.0;
  for (double p : partial) s += p;
  return s;
}

bool all_finite(const Vector& x) {
  const double* p = x.data();
  const std::size_t n = x.size();
  bool ok = true;
#pragma omp parallel for reduction(&& : ok) schedule(static)
  for (std::size_t i = 0; i < n; ++i) ok = ok && std::isfinite(p[i]);
  return ok;
}

bool to_single_if_exact(const Vector& x, Array<float>& out) {
  const double* p = x.data();
  float* f = out.data();
  const std::size_t n = x.size();
  bool ok = true;
#pragma omp parallel for reduction(&& : ok) schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    f[i] = static_cast<float>(p[i]);
    ok = ok && static_cast<double>(f[i]) == p[i];
  }
  return ok;
}

bool all_exact_in_single(const Vector& x) {
  const double* p = x.data();
  const std::size_t n = x.size();
  bool ok = true;
#pragma omp parallel for reduction(&& : ok) schedule(static)
  for (std::size_t i = 0; i < n; ++i) ok = ok && static_cast<double>(static_cast<float>(p[i])) == p[i];
  return ok;
}

}  // namespace saga::host
