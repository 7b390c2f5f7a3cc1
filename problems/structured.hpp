#pragma once
// Structured Poisson problems (GUIDE.md §1) built directly on either backend.
#include <cstdint>
#include <string>

#include "problems/stencil.hpp"
#include "sparse/csr.hpp"

namespace saga {

// Parses "2d5", "2d9", "3d7", "3d27" (and the long names poisson2d_5pt, ...).
Stencil parse_stencil(const std::string& name);
std::string stencil_name(Stencil s);

// Number of unknowns N^d and the closed-form nnz of GUIDE.md §1.
std::int64_t poisson_rows(Stencil s, index_t N);
std::int64_t poisson_nnz(Stencil s, index_t N);

// The N^d matrix, generated in `space` (device: by a CUDA kernel, no transfer).
CsrMatrix poisson(Stencil s, index_t N, Space space);

}  // namespace saga
