#pragma once
// CUDA backend of the problem generators.
#include "problems/stencil.hpp"
#include "sparse/csr.hpp"

namespace saga::cuda {
CsrMatrix poisson(const StencilSpec& spec, index_t N, index_t rows);
}
