#pragma once
// The four structured Poisson stencils of GUIDE.md §1, one row at a time.
// Interior unknowns of an N^d grid in lexicographic order (x fastest),
// homogeneous Dirichlet boundary eliminated (a boundary neighbour has no entry),
// unscaled values. Shared by the host and CUDA generators (SAGA_HD).
#include <cstdint>

#include "core/hd.hpp"
#include "core/types.hpp"

namespace saga {

enum class Stencil { fd2d_5pt, fe2d_9pt, fd3d_7pt, fe3d_27pt };

SAGA_HD inline int stencil_dim(Stencil s) { return s == Stencil::fd2d_5pt || s == Stencil::fe2d_9pt ? 2 : 3; }
SAGA_HD inline double stencil_centre(Stencil s) {
  switch (s) {
    case Stencil::fd2d_5pt: return 4.0;
    case Stencil::fe2d_9pt: return 8.0;
    case Stencil::fd3d_7pt: return 6.0;
    default: return 26.0;
  }
}
// Whether offset (dx, dy, dz) belongs to the stencil.
SAGA_HD inline bool stencil_has(Stencil s, int dx, int dy, int dz) {
  const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
  switch (s) {
    case Stencil::fd2d_5pt: return dz == 0 && nonzero <= 1;
    case Stencil::fe2d_9pt: return dz == 0;
    case Stencil::fd3d_7pt: return nonzero <= 1;
    default: return true;
  }
}

// Writes row `row` of the N^d stencil matrix (columns ascending) into col/val
// when they are non-null; returns the number of entries.
SAGA_HD inline int stencil_row(Stencil s, index_t N, std::int64_t row, index_t* col, double* val) {
  const bool three_d = stencil_dim(s) == 3;
  const std::int64_t x = row % N, y = (row / N) % N, z = three_d ? row / (std::int64_t(N) * N) : 0;
  int count = 0;
  for (int dz = three_d ? -1 : 0; dz <= (three_d ? 1 : 0); ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (!stencil_has(s, dx, dy, dz)) continue;
        const std::int64_t nx = x + dx, ny = y + dy, nz = z + dz;
        if (nx < 0 || nx >= N || ny < 0 || ny >= N || nz < 0 || (three_d && nz >= N)) continue;
        if (col) {
          col[count] = static_cast<index_t>((nz * N + ny) * N + nx);
          val[count] = (dx == 0 && dy == 0 && dz == 0) ? stencil_centre(s) : -1.0;
        }
        ++count;
      }
  return count;
}

}  // namespace saga
