#include "sparse/lanczos_ops.hpp"

#include "core/dispatch.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

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

}  // namespace saga
