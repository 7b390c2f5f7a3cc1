#include "sparse/cg_ops.hpp"

#include "core/dispatch.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

namespace saga {

namespace {
void check(const Scalars& s, const Vector& a, const Vector& b, const char* op) {
  SAGA_REQUIRE(a.size() == b.size() && a.space() == b.space(), "{}: vectors differ in size or space", op);
  SAGA_REQUIRE(s.space() == a.space(), "{}: the scalars live on the {}, the vectors on the {}", op,
               to_string(s.space()), to_string(a.space()));
  SAGA_REQUIRE(s.size() > static_cast<std::size_t>(cg_slot::history), "{}: {} scalars, too few for CG", op, s.size());
}
}  // namespace

void cg_direction(Scalars& s, const Vector& z, Vector& q, bool flexible) {
  check(s, z, q, "cg_direction");
  if (z.space() == Space::host)
    host::cg_direction(s, z, q, flexible);
  else
    SAGA_DEVICE_CALL(cuda::cg_direction(s, z, q, flexible));
}

void cg_step(Scalars& s, const Vector& q, const Vector& Aq, Vector& x, Vector& r) {
  check(s, q, Aq, "cg_step");
  check(s, q, x, "cg_step");
  check(s, q, r, "cg_step");
  if (q.space() == Space::host)
    host::cg_step(s, q, Aq, x, r);
  else
    SAGA_DEVICE_CALL(cuda::cg_step(s, q, Aq, x, r));
}

}  // namespace saga
