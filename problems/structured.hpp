#pragma once
// Structured Poisson problems (docs/problems.md) built directly on either backend.
#include <cstdint>
#include <string>

#include "problems/stencil.hpp"
#include "sparse/csr.hpp"

namespace saga {

// Parses "2d5", "2d9", "3d7", "3d27" (and the long names poisson2d_5pt, ...).
Stencil parse_stencil(const std::string& name);
std::string stencil_name(Stencil s);

// Number of unknowns N^d and the closed-form nnz of docs/problems.md.
std::int64_t poisson_rows(Stencil s, index_t N);
std::int64_t poisson_nnz(Stencil s, index_t N);
// nnz of a variant's pattern (a rotated 5-point stencil has 9 points).
std::int64_t poisson_nnz(const StencilSpec& spec, index_t N);

// The stencil of a variant: -div(kappa K grad u) with K the anisotropy tensor.
// Anisotropy is offered for 2d5, 2d9 (exact Q1 element stencil) and 3d7 (the
// rotation is about z; a rotated 5- or 7-point stencil gains the xy corners of
// the mixed derivative). A non-constant kappa needs non-positive off-centre
// weights (so that the matrix stays an SPD M-matrix); combinations that would
// break that are InputErrors.
// neumann: zero row sums (StencilSpec::neumann), for stencils whose weights are
// all non-positive (so that the singular matrix stays positive semi-definite).
StencilSpec make_stencil_spec(Stencil s, const Anisotropy& anisotropy = {}, const CoefficientField& kappa = {},
                              bool neumann = false);

// The N^d matrix, generated in `space` (device: by a CUDA kernel, no transfer).
CsrMatrix poisson(Stencil s, index_t N, Space space);
CsrMatrix poisson(const StencilSpec& spec, index_t N, Space space);

}  // namespace saga
