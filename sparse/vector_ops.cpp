#include "sparse/vector_ops.hpp"

#include <cmath>

#include "core/dispatch.hpp"
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

void multiply(const Vector& x, const Vector& y, Vector& z) {
  same(x, y, "multiply");
  same(x, z, "multiply");
  SAGA_VEC_DISPATCH(x.space(), multiply(x, y, z));
}

void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y) {
  same(d, r, "add_scaled_product");
  same(d, y, "add_scaled_product");
  SAGA_VEC_DISPATCH(y.space(), add_scaled_product(a, d, r, y));
}

double dot(const Vector& x, const Vector& y) {
  same(x, y, "dot");
  if (x.space() == Space::host) return host::dot(x, y);
  SAGA_DEVICE_CALL(return cuda::dot(x, y));
}

double norm2(const Vector& x) { return std::sqrt(dot(x, x)); }

bool all_finite(const Vector& x) {
  if (x.space() == Space::host) return host::all_finite(x);
  SAGA_DEVICE_CALL(return cuda::all_finite(x));
}

}  // namespace saga
