#include "sparse/lanczos_ops.hpp"

#include "core/dispatch.hpp"
#include "core/parallel_for.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"
#include "sparse/lanczos_functors.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
void check(const Scalars& s, std::initializer_list<int> slots, std::initializer_list<const Vector*> vs,
           const char* op) {
  for (int k : slots)
    SAGA_REQUIRE(k >= -1 && (k < 0 || static_cast<std::size_t>(k) < s.size()), "{}: slot {} of {} scalars", op, k,
                 s.size());
  const Vector* first = *vs.begin();
  for (const Vector* v : vs)
    SAGA_REQUIRE(v->size() == first->size() && v->space() == s.space(),
                 "{}: vectors must have the same size and live with the scalars", op);
}
}  // namespace

void lanczos_orthogonalize(Scalars& s, int alpha, int beta_prev, int beta, const Vector& d, const Vector& v,
                           const Vector& v_prev, Vector& w) {
  check(s, {alpha, beta_prev, beta}, {&d, &v, &v_prev, &w}, "lanczos_orthogonalize");
  SAGA_REQUIRE(alpha >= 0 && beta >= 0, "lanczos_orthogonalize: alpha and beta need slots");
  if (w.space() == Space::host)
    host::lanczos_orthogonalize(s, alpha, beta_prev, beta, d, v, v_prev, w);
  else
    SAGA_DEVICE_CALL(cuda::lanczos_orthogonalize(s, alpha, beta_prev, beta, d, v, v_prev, w));
}

void lanczos_normalize(const Scalars& s, int beta, const Vector& w, Vector& v) {
  check(s, {beta}, {&w, &v}, "lanczos_normalize");
  if (w.space() == Space::host)
    host::lanczos_normalize(s, beta, w, v);
  else
    SAGA_DEVICE_CALL(cuda::lanczos_normalize(s, beta, w, v));
}

namespace {
// The steps from the vector operations (the host's algorithm, and the GPU's
// where a cooperative launch is not available).
void composed_lanczos_steps(const CsrMatrix& A, const Vector& d, int m, Vector& v, Scalars& s) {
  const Space sp = A.space();
  const std::size_t n = v.size();
  Vector v_prev = Vector::zeros(n, sp, "Lanczos vector"), w(n, sp, "Lanczos vector"), tmp(n, sp, "Lanczos vector");
  for (int j = 0; j < m; ++j) {
    multiply(d, v, tmp);
    spmv_dot(A, tmp, w, s, j);  // w = A D^-1/2 v, alpha_j = (D^-1/2 v)^T A (D^-1/2 v)
    lanczos_orthogonalize(s, j, j > 0 ? m + j - 1 : -1, m + j, d, v, v_prev, w);
    if (j + 1 == m) break;
    v_prev.swap(v);
    lanczos_normalize(s, m + j, w, v);
  }
}
}  // namespace

void lanczos_steps(const CsrMatrix& A, const Vector& d, int m, Vector& v, Scalars& s, bool normalise) {
  SAGA_REQUIRE(A.rows() == A.cols(), "Lanczos: A is {}x{}, not square", A.rows(), A.cols());
  SAGA_REQUIRE(m >= 1 && s.size() >= 2 * static_cast<std::size_t>(m), "Lanczos: {} steps need {} scalars, {} given",
               m, 2 * m, s.size());
  check(s, {}, {&d, &v}, "lanczos_steps");
  SAGA_REQUIRE(v.size() == static_cast<std::size_t>(A.rows()) && A.space() == v.space(),
               "Lanczos: v has {} entries for {} rows, or lives elsewhere", v.size(), A.rows());
  if (A.space() == Space::device) {
    bool fused = false;
    SAGA_DEVICE_CALL(fused = cuda::lanczos_steps(A, d, m, v, s, normalise));
    if (fused) return;
  }
  if (normalise) scale(1.0 / norm2(v), v);
  composed_lanczos_steps(A, d, m, v, s);
}

void lanczos_steps_dinv(const CsrMatrix& A, const Vector& dinv, int m, std::uint64_t seed, Scalars& s) {
  SAGA_REQUIRE(A.rows() == A.cols() && dinv.size() == static_cast<std::size_t>(A.rows()) && dinv.space() == A.space(),
               "Lanczos: {} inverse diagonal entries for a {}x{} matrix, or in another space", dinv.size(), A.rows(),
               A.cols());
  SAGA_REQUIRE(m >= 1 && s.size() >= 2 * static_cast<std::size_t>(m), "Lanczos: {} steps need {} scalars, {} given",
               m, 2 * m, s.size());
  // D^-1/2 and the start vector in one allocation, made by the GPU's kernel or, where it does not run, by the
  // functor it runs before the composed steps.
  const std::size_t n = dinv.size();
  Vector both(2 * n, A.space(), "Lanczos D^-1/2 and start vector");
  Vector d = Vector::view(both.data(), n, A.space()), v = Vector::view(both.data() + n, n, A.space());
  if (A.space() == Space::device) {
    bool fused = false;
    SAGA_DEVICE_CALL(fused = cuda::lanczos_steps_dinv(A, dinv, m, seed, d, v, s));
    if (fused) return;
  }
  parallel_for(A.space(), static_cast<std::int64_t>(n), functors::LanczosStartValues{dinv.data(), d.data(), v.data(), seed});
  lanczos_steps(A, d, m, v, s, /*normalise=*/true);
}

}  // namespace saga
