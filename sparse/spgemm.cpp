#include "sparse/spgemm.hpp"

#include "core/dispatch.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

// The SpGEMM components: one line each (the add_* function its file defines).
#define SAGA_SPGEMM_HOST_COMPONENTS(X) X(host, spgemm_gustavson)
#define SAGA_SPGEMM_DEVICE_COMPONENTS(X) \
  X(cuda, spgemm_esc)                    \
  X(cuda, spgemm_cusparse)

namespace saga {

#define SAGA_DECLARE(ns, name) namespace ns { void add_##name(SpgemmRegistry&); }
SAGA_SPGEMM_HOST_COMPONENTS(SAGA_DECLARE)
#ifdef SAGA_HAVE_CUDA
SAGA_SPGEMM_DEVICE_COMPONENTS(SAGA_DECLARE)
#endif
#undef SAGA_DECLARE

const SpgemmRegistry& spgemm_registry() {
  static const SpgemmRegistry r = [] {
    SpgemmRegistry reg("SpGEMM algorithm", "amg.spgemm");
#define SAGA_ADD(ns, name) ns::add_##name(reg);
    SAGA_SPGEMM_HOST_COMPONENTS(SAGA_ADD)
    reg.set_default("gustavson", Space::host);
#ifdef SAGA_HAVE_CUDA
    SAGA_SPGEMM_DEVICE_COMPONENTS(SAGA_ADD)
    reg.set_default("esc", Space::device);
#endif
#undef SAGA_ADD
    return reg;
  }();
  return r;
}

CsrMatrix spgemm(const CsrMatrix& A, const CsrMatrix& B, const Component& algorithm, SpgemmStats* stats) {
  SAGA_REQUIRE(A.cols() == B.rows(), "SpGEMM: inner dimensions differ (A is {}x{}, B is {}x{})", A.rows(), A.cols(),
               B.rows(), B.cols());
  SAGA_REQUIRE(A.space() == B.space(), "SpGEMM: A and B must live in the same space");
  return spgemm_registry().create(algorithm, A.space())->multiply(A, B, stats);
}

std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B) {
  SAGA_REQUIRE(A.cols() == B.rows(), "SpGEMM: inner dimensions differ");
  if (A.space() == Space::host) return host::spgemm_products(A, B);
  SAGA_DEVICE_CALL(return cuda::spgemm_products(A, B));
}

}  // namespace saga
