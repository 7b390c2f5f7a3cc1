#pragma once
// Power-law test matrices: R-MAT graphs (Chakrabarti, Zhan, Faloutsos 2004) and
// their graph Laplacians. Row lengths follow a power law (a few hub rows with
// 10^4-10^5 entries, most with a handful), the case adaptive row binning
// exists for (SpMV, SpGEMM). Deterministic from the seed on every platform
// (splitmix64 draws).
#include <cstdint>

#include "sparse/coo.hpp"
#include "sparse/csr.hpp"

namespace saga {

struct RmatParams {
  int scale = 16;             // 2^scale rows
  int edges = 16;             // edges drawn per row (before duplicates merge)
  double a = 0.57, b = 0.19, c = 0.19;  // quadrant probabilities (d = 1 - a - b - c): the Graph500 values
  std::uint64_t seed = 1;
};

// The directed R-MAT graph as a matrix: entry (i, j) for every edge drawn,
// duplicates summed, values uniform in [-0.5, 0.5) (a general power-law matrix).
CsrMatrix rmat_matrix(const RmatParams& p, Space space);
// The graph Laplacian of the symmetrised R-MAT graph (self loops dropped,
// duplicate edges weighted by their count) plus shift * I: symmetric, and
// positive definite for shift > 0.
CsrMatrix rmat_laplacian(const RmatParams& p, double shift, Space space);

}  // namespace saga
