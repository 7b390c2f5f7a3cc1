#include "sparse/spgemm.hpp"

#include <algorithm>

#include "core/device.hpp"
#include "core/dispatch.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

// The SpGEMM components: one line each (the add_* function its file defines).
#define SAGA_SPGEMM_HOST_COMPONENTS(X) X(host, spgemm_gustavson)
#define SAGA_SPGEMM_DEVICE_COMPONENTS(X) \
  X(cuda, spgemm_binned)                 \
  X(cuda, spgemm_esc)                    \
  X(cuda, spgemm_cusparse)

namespace saga {

std::size_t SpgemmOptions::budget_now() const {
  constexpr std::size_t floor = std::size_t(1) << 20;
  const std::size_t quarter_free = device::available_memory_recent() / 4;  // no driver call per product
  return std::min(memory_budget_bytes, std::max(floor, quarter_free));
}

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
    reg.set_default("binned", Space::device);
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

CsrMatrix SpgemmAlgorithm::multiply_scaled_add(const CsrMatrix& A, const CsrMatrix& B, const Vector& s,
                                               const CsrMatrix& E, SpgemmStats* stats) const {
  CsrMatrix C = multiply(A, B, stats);
  scale_rows(C, s);
  return add(1.0, E, 1.0, C);
}

void SpgemmAlgorithm::multiply_numeric(const CsrMatrix& A, const CsrMatrix& B, CsrMatrix& C, SpgemmStats* stats) const {
  CsrMatrix fresh = multiply(A, B, stats);
  SAGA_REQUIRE(fresh.rows() == C.rows() && fresh.cols() == C.cols() && fresh.nnz() == C.nnz(),
               "SpGEMM numeric phase: C ({}x{}, {} nonzeros) does not have the structure of A B ({}x{}, {} nonzeros)",
               C.rows(), C.cols(), C.nnz(), fresh.rows(), fresh.cols(), fresh.nnz());
  C.mutable_val() = std::move(fresh.mutable_val());
}

void spgemm_numeric(const CsrMatrix& A, const CsrMatrix& B, CsrMatrix& C, const Component& algorithm,
                    SpgemmStats* stats) {
  SAGA_REQUIRE(A.cols() == B.rows(), "SpGEMM: inner dimensions differ (A is {}x{}, B is {}x{})", A.rows(), A.cols(),
               B.rows(), B.cols());
  SAGA_REQUIRE(A.space() == B.space() && A.space() == C.space(), "SpGEMM: A, B and C must live in the same space");
  spgemm_registry().create(algorithm, A.space())->multiply_numeric(A, B, C, stats);
}

std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B) {
  SAGA_REQUIRE(A.cols() == B.rows(), "SpGEMM: inner dimensions differ");
  if (A.space() == Space::host) return host::spgemm_products(A, B);
  SAGA_DEVICE_CALL(return cuda::spgemm_products(A, B));
}

}  // namespace saga
