#pragma once
// Sparse matrix-matrix product C = A B, behind the SpGEMM registry (one
// Registry<SpgemmAlgorithm>, core/registry.hpp). Host: "gustavson" (dense
// accumulator per thread). Device: "esc" (the reference expand-sort-contract,
// the device default), "cusparse" (cusparseSpGEMM, for comparison). A new
// algorithm is a component in its own file plus one line in
// SAGA_SPGEMM_COMPONENTS (sparse/spgemm.cpp).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "sparse/csr.hpp"

namespace saga {

// Tuning of the ESC kernel (set through the "esc" component's options).
struct SpgemmOptions {
  // Device memory the ESC expansion may use at once (keys, values and sort
  // buffers); larger products are processed in row slices.
  std::size_t memory_budget_bytes = std::size_t(2) << 30;
};

// Work counts of a product (docs/design.md, "SpGEMM work").
struct SpgemmStats {
  std::int64_t products = 0;  // Σ_{a_ik≠0} nnz(B_k)
  std::int64_t nnz_c = 0;
  int slices = 0;             // ESC row slices used (0 when not applicable)
};

class SpgemmAlgorithm {
 public:
  virtual ~SpgemmAlgorithm() = default;
  virtual CsrMatrix multiply(const CsrMatrix& A, const CsrMatrix& B, SpgemmStats* stats) const = 0;
};
using SpgemmRegistry = Registry<SpgemmAlgorithm>;

// An algorithm that is one kernel function of sparse/host or sparse/cuda.
class SpgemmFunction : public SpgemmAlgorithm {
 public:
  using Fn = CsrMatrix (*)(const CsrMatrix&, const CsrMatrix&, const SpgemmOptions&, SpgemmStats*);
  explicit SpgemmFunction(Fn fn, SpgemmOptions opt = {}) : fn_(fn), opt_(opt) {}
  CsrMatrix multiply(const CsrMatrix& A, const CsrMatrix& B, SpgemmStats* stats) const override {
    return fn_(A, B, opt_, stats);
  }

 private:
  Fn fn_;
  SpgemmOptions opt_;
};
const SpgemmRegistry& spgemm_registry();

// C = A B with `algorithm` ("" or "auto": the default of A's space).
CsrMatrix spgemm(const CsrMatrix& A, const CsrMatrix& B, const Component& algorithm = {},
                 SpgemmStats* stats = nullptr);

// Σ_{a_ik≠0} nnz(B_k), computed on A's space.
std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B);

}  // namespace saga
