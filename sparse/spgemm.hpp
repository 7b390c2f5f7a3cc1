#pragma once
// Sparse matrix-matrix product C = A B, behind the SpGEMM registry (one
// Registry<SpgemmAlgorithm>, core/registry.hpp). Host: "gustavson" (dense
// accumulator per thread). Device: "binned" (row-binned ESC in registers and
// shared memory, the device default), "esc" (the reference global
// expand-sort-contract), "cusparse" (cusparseSpGEMM, for comparison). A new
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
  // The budget a product uses when it starts: memory_budget_bytes, capped at a
  // quarter of the device memory free at that moment (the rest is for C and
  // for what the caller holds), at least 1 MiB. A nearly full device thus
  // slices the expansion finer instead of failing (docs/reliability.md).
  std::size_t budget_now() const;
};

// Work counts of a product (docs/design.md, "SpGEMM work").
struct SpgemmStats {
  std::int64_t products = 0;  // Σ_{a_ik≠0} nnz(B_k)
  std::int64_t nnz_c = 0;
  int slices = 0;             // ESC row slices used (0 when not applicable)
  std::int64_t budget_bytes = 0;  // the slice budget the ESC used (SpgemmOptions::budget_now)
  std::int64_t long_rows = 0; // rows too long for one CTA (binned: dense accumulators or the global ESC)
  // Device memory the product allocated besides C itself (analysis, bins,
  // counts, library buffers); the peak when it was allocated in steps.
  std::int64_t workspace_bytes = 0;
  // The width of the row offsets the product's kernels read: the build's,
  // or 32 where a 64-bit build's binned product read 32-bit copies
  // (docs/design.md, "Index widths").
  int offset_bits = 8 * sizeof(offset_t);
};

class SpgemmAlgorithm {
 public:
  virtual ~SpgemmAlgorithm() = default;
  virtual CsrMatrix multiply(const CsrMatrix& A, const CsrMatrix& B, SpgemmStats* stats) const = 0;

  // C = diag(s) (A B) + E, E of C's shape: the smoothed prolongator
  // P = T - ω D⁻¹ (A T) is multiply_scaled_add(A, T, -ω D⁻¹, T). The default
  // forms A B, scales its rows and adds E; an algorithm may fuse all three.
  virtual CsrMatrix multiply_scaled_add(const CsrMatrix& A, const CsrMatrix& B, const Vector& s, const CsrMatrix& E,
                                        SpgemmStats* stats) const;
  // Whether multiply_scaled_add is one fused pass (the setup then times it as
  // one phase instead of a product and an update).
  virtual bool fuses_scaled_add() const { return false; }

  // Recomputes the values of C = A B in place, where C holds the product of
  // matrices with A's and B's structures (the numeric phase of a re-setup:
  // only values changed). Throws when C's structure is not that of A B. The
  // default recomputes the whole product and copies its values.
  virtual void multiply_numeric(const CsrMatrix& A, const CsrMatrix& B, CsrMatrix& C, SpgemmStats* stats) const;
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

// Values-only recomputation of C = A B (see SpgemmAlgorithm::multiply_numeric).
void spgemm_numeric(const CsrMatrix& A, const CsrMatrix& B, CsrMatrix& C, const Component& algorithm = {},
                    SpgemmStats* stats = nullptr);

// Σ_{a_ik≠0} nnz(B_k), computed on A's space.
std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B);

}  // namespace saga
