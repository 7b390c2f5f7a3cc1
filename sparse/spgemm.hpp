#pragma once
// Sparse matrix-matrix product C = A B, behind a registry of algorithms per
// memory space. Host: "gustavson" (dense accumulator per thread). Device:
// "esc" (the reference expand-sort-contract), "cusparse" (cusparseSpGEMM, for
// comparison). The optimized SpGEMM registers itself here later.
#include <cstdint>
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace saga {

struct SpgemmOptions {
  std::string algorithm;  // "" = the space's default
  // Device memory the ESC expansion may use at once (keys, values and sort
  // buffers); larger products are processed in row slices.
  std::size_t memory_budget_bytes = std::size_t(2) << 30;
};

// Work counts of a product (GUIDE.md §3).
struct SpgemmStats {
  std::int64_t products = 0;  // Σ_{a_ik≠0} nnz(B_k)
  std::int64_t nnz_c = 0;
  int slices = 0;             // ESC row slices used (0 when not applicable)
};

using SpgemmFn = CsrMatrix (*)(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt,
                               SpgemmStats* stats);

CsrMatrix spgemm(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt = {},
                 SpgemmStats* stats = nullptr);

void register_spgemm(const std::string& name, Space space, SpgemmFn fn);
std::vector<std::string> spgemm_algorithms(Space space);

// Σ_{a_ik≠0} nnz(B_k), computed on A's space.
std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B);

}  // namespace saga
