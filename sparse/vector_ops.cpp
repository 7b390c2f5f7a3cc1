#include "sparse/vector_ops.hpp"

#include <cmath>

#include "core/dispatch.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

namespace saga {

namespace {
void same(const Vector& x, const Vector& y, const char* op) {
  SAGA_REQUIRE(x.size() == y.size(), "{}: vector sizes differ ({} vs {})", op, x.size(), y.size());
  SAGA_REQUIRE(x.space() == y.space(), "{}: vectors live in different memory spaces ({} vs {})", op,
               to_string(x.space()), to_string(y.space()));
}
}  // namespace

#define SAGA_VEC_DISPATCH(space, call) \
  if ((space) == Space::host) {        \
    host::call;                        \
  } else {                             \
    SAGA_DEVICE_CALL(cuda::call);      \
  }

void fill(Vector& x, double value) { SAGA_VEC_DISPATCH(x.space(), fill(x, value)); }

void copy(const Vector& x, Vector& y) {
  same(x, y, "copy");
  x.copy_into(y);
}

void axpby(double a, const Vector& x, double b, Vector& y) {
  same(x, y, "axpby");
  SAGA_VEC_DISPATCH(x.space(), axpby(a, x, b, y));
}

void scale(double a, Vector& x) { SAGA_VEC_DISPATCH(x.space(), scale(a, x)); }

void multiply(const Vector& x, const Vector& y, Vector& z, double a) {
  same(x, y, "multiply");
  same(x, z, "multiply");
  SAGA_VEC_DISPATCH(x.space(), multiply(x, y, z, a));
}

void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y) {
  same(d, r, "add_scaled_product");
  same(d, y, "add_scaled_product");
  SAGA_VEC_DISPATCH(y.space(), add_scaled_product(a, d, r, y));
}

void scaled_difference(const Vector& w, const Vector& b, const Vector& y, Vector& r) {
  same(w, b, "scaled_difference");
  same(w, y, "scaled_difference");
  same(w, r, "scaled_difference");
  SAGA_VEC_DISPATCH(r.space(), scaled_difference(w, b, y, r));
}

void step_update(double a, const Vector& r, double b, Vector& d, double c, Vector& x) {
  same(r, d, "step_update");
  same(r, x, "step_update");
  SAGA_VEC_DISPATCH(x.space(), step_update(a, r, b, d, c, x));
}

double dot(const Vector& x, const Vector& y) {
  same(x, y, "dot");
  if (x.space() == Space::host) return host::dot(x, y);
  SAGA_DEVICE_CALL(return cuda::dot(x, y));
}

void dot_into(const Vector& x, const Vector& y, Scalars& s, int slot) {
  same(x, y, "dot_into");
  SAGA_REQUIRE(s.space() == x.space(), "dot_into: the scalars live on the {}, the vectors on the {}",
               to_string(s.space()), to_string(x.space()));
  SAGA_REQUIRE(slot >= 0 && static_cast<std::size_t>(slot) < s.size(), "dot_into: slot {} of {} scalars", slot,
               s.size());
  if (x.space() == Space::host) {
    s.data()[slot] = host::dot(x, y);
    return;
  }
  SAGA_DEVICE_CALL(cuda::dot_into(x, y, s, slot));
}

double norm2(const Vector& x) { return std::sqrt(dot(x, x)); }

bool all_finite(const Vector& x) {
  if (x.space() == Space::host) return host::all_finite(x);
  SAGA_DEVICE_CALL(return cuda::all_finite(x));
}

bool all_exact_in_single(const Vector& x) {
  if (x.space() == Space::host) return host::all_exact_in_single(x);
  SAGA_DEVICE_CALL(return cuda::all_exact_in_single(x));
}

bool to_single_if_exact(const Vector& x, Array<float>& out) {
  SAGA_REQUIRE(out.size() == x.size() && out.space() == x.space(),
               "to_single_if_exact: {} floats for {} values, or in another space", out.size(), x.size());
  if (x.space() == Space::host) return host::to_single_if_exact(x, out);
  SAGA_DEVICE_CALL(return cuda::to_single_if_exact(x, out));
}

// Generated where the vector lives (a sequential host loop and a 1 GB copy
// took ~1 s of the N=512 setup's spectral-radius estimate).
Vector random_vector(std::size_t n, std::uint64_t seed, Space space) {
  Vector v(n, space, "random vector");
  parallel_for(space, static_cast<std::int64_t>(n), functors::RandomUniform{v.data(), seed});
  return v;
}

Vector ones(std::size_t n, Space space) {
  Vector v(n, space, "ones");
  fill(v, 1.0);
  return v;
}

}  // namespace saga
