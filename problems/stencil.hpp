#pragma once
// The structured Poisson stencils of docs/problems.md, one row at a time, with their
// variants: anisotropy (-eps u_xx - u_yy, rotated) and jumping coefficients.
// Interior unknowns of an N^d grid in lexicographic order (x fastest),
// homogeneous Dirichlet boundary eliminated (a boundary neighbour has no entry),
// unscaled values. Shared by the host and CUDA generators (SAGA_HD).
//
// A row is built from a StencilSpec: an off-centre weight per offset (unit
// coefficient) and a coefficient field kappa at the grid nodes. The entry for
// neighbour j of row i is weight(j - i) * w_ij with w_ij the harmonic mean of
// kappa_i and kappa_j; the centre is minus the sum of those over every offset of
// the stencil, boundary neighbours included. With kappa = 1 and no anisotropy
// this gives exactly the isotropic stencils (centre 4, 8, 6, 26; neighbours -1).
// With `neumann` the centre sums only the neighbours inside the grid (no flux
// through the boundary, as cell-centred finite volumes): every row sums to
// zero, the matrix is singular and the constants are its null space.
#include <cstdint>

#include "core/hd.hpp"
#include "core/types.hpp"
#include "problems/coefficient_field.hpp"

namespace saga {

enum class Stencil { fd2d_5pt, fe2d_9pt, fd3d_7pt, fe3d_27pt };

SAGA_HD inline int stencil_dim(Stencil s) { return s == Stencil::fd2d_5pt || s == Stencil::fe2d_9pt ? 2 : 3; }

// Whether offset (dx, dy, dz) belongs to the isotropic stencil.
SAGA_HD inline bool stencil_has(Stencil s, int dx, int dy, int dz) {
  const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
  switch (s) {
    case Stencil::fd2d_5pt: return dz == 0 && nonzero <= 1;
    case Stencil::fe2d_9pt: return dz == 0;
    case Stencil::fd3d_7pt: return nonzero <= 1;
    default: return true;
  }
}

SAGA_HD inline int stencil_offset_index(int dx, int dy, int dz) { return (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1); }

struct StencilSpec {
  Stencil shape = Stencil::fd3d_7pt;
  // Off-centre weight of offset (dx,dy,dz) at stencil_offset_index; the centre
  // slot is unused. An offset is in the pattern when the isotropic stencil has
  // it or its weight is nonzero (a rotated 5-point stencil gains the corners).
  double weight[27] = {};
  CoefficientField kappa;
  bool neumann = false;  // zero row sums (see above); make_stencil_spec checks the weights are non-positive

  SAGA_HD bool has(int dx, int dy, int dz) const {
    if (dx == 0 && dy == 0 && dz == 0) return false;
    return stencil_has(shape, dx, dy, dz) || weight[stencil_offset_index(dx, dy, dz)] != 0.0;
  }
  // kappa at grid node (x, y, z); boundary nodes are at -1 and N.
  SAGA_HD double kappa_at(std::int64_t x, std::int64_t y, std::int64_t z, index_t N) const {
    const double h = 1.0 / (N + 1);
    return kappa.at((x + 1) * h, (y + 1) * h, stencil_dim(shape) == 3 ? (z + 1) * h : 0.0);
  }
  // Value of the connection from node (x,y,z), whose kappa is ki, to its
  // neighbour at offset (dx,dy,dz): the weight times the harmonic mean of the
  // two kappas (1 for a constant field).
  SAGA_HD double connection(double ki, std::int64_t x, std::int64_t y, std::int64_t z, int dx, int dy, int dz,
                            index_t N) const {
    const double w = weight[stencil_offset_index(dx, dy, dz)];
    if (kappa.is_constant()) return w;
    const double kj = kappa_at(x + dx, y + dy, z + dz, N);
    return w * 2.0 * ki * kj / (ki + kj);
  }
};

SAGA_HD inline bool in_grid(std::int64_t x, std::int64_t y, std::int64_t z, index_t N, bool three_d) {
  return x >= 0 && x < N && y >= 0 && y < N && z >= 0 && (!three_d || z < N);
}

// Writes row `row` of the N^d stencil matrix (columns ascending) into col/val
// when they are non-null; returns the number of entries.
SAGA_HD inline int stencil_row(const StencilSpec& spec, index_t N, std::int64_t row, index_t* col, double* val) {
  const bool three_d = stencil_dim(spec.shape) == 3;
  const std::int64_t x = row % N, y = (row / N) % N, z = three_d ? row / (std::int64_t(N) * N) : 0;
  const double ki = spec.kappa.is_constant() ? 1.0 : spec.kappa_at(x, y, z, N);
  // The centre is the negated sum over all offsets; computed first so that the
  // entries can be written in ascending column order in one pass.
  double centre = 0.0;
  if (col) {
    for (int dz = three_d ? -1 : 0; dz <= (three_d ? 1 : 0); ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (spec.has(dx, dy, dz) && (!spec.neumann || in_grid(x + dx, y + dy, z + dz, N, three_d)))
            centre -= spec.connection(ki, x, y, z, dx, dy, dz, N);
  }
  int count = 0;
  for (int dz = three_d ? -1 : 0; dz <= (three_d ? 1 : 0); ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const bool is_centre = dx == 0 && dy == 0 && dz == 0;
        if (!is_centre && !spec.has(dx, dy, dz)) continue;
        const std::int64_t nx = x + dx, ny = y + dy, nz = z + dz;
        if (!in_grid(nx, ny, nz, N, three_d)) continue;
        if (col) {
          col[count] = static_cast<index_t>((nz * N + ny) * N + nx);
          val[count] = is_centre ? centre : spec.connection(ki, x, y, z, dx, dy, dz, N);
        }
        ++count;
      }
  return count;
}

}  // namespace saga
