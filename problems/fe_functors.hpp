#pragma once
// The P1 assembly as parallel_for functors (one cell per call), run by either
// backend: count the triplets of each cell (free vertex pairs), then write them.
// A cell's stiffness is computed again for each chunk of rows it touches (and
// not at all in the chunks it does not).
// Duplicates are summed afterwards by coo_to_csr (sort by (row, col), stable, so
// the sums are deterministic).
#include <cstdint>

#include "core/hd.hpp"
#include "core/types.hpp"
#include "problems/p1_element.hpp"

namespace saga::fe_functors {

// The dim + 1 vertices of cell e: their points (3 coordinates, z = 0 in 2D)
// and their unknown (or node) numbers, -1 where eliminated.
SAGA_HD inline void gather_cell(const double* coords, const index_t* cells, const index_t* number, int dim,
                                std::int64_t e, double p[4][3], index_t d[4]) {
  const int n = dim + 1;
  for (int a = 0; a < n; ++a) {
    const index_t v = cells[e * n + a];
    d[a] = number[v];
    for (int r = 0; r < 3; ++r) p[a][r] = r < dim ? coords[static_cast<std::int64_t>(v) * dim + r] : 0.0;
  }
}

// The functors below count and write only the triplets of rows in
// [row_lo, row_hi) (problems/cell_assembly.hpp assembles in chunks of rows),
// each written as row - row_lo.
struct CountFreePairs {
  const index_t* cells;
  const index_t* dof;  // unknown of each vertex, -1 for Dirichlet
  int dim;
  std::int64_t* count;
  index_t row_lo = 0, row_hi = 0;
  SAGA_HD void operator()(std::int64_t e) const {
    int k = 0, rows = 0;
    for (int a = 0; a <= dim; ++a) {
      const index_t d = dof[cells[e * (dim + 1) + a]];
      k += d >= 0;
      rows += d >= row_lo && d < row_hi;
    }
    count[e] = rows * k;
  }
};

struct WriteElementTriplets {
  const double* coords;  // dim per vertex
  const index_t* cells;
  const index_t* dof;
  const double* kappa;  // per cell, or null for 1
  double K[9];
  int dim;
  const std::int64_t* offset;
  index_t* row;
  index_t* col;
  double* val;
  index_t row_lo = 0, row_hi = 0;
  SAGA_HD void operator()(std::int64_t e) const {
    if (offset[e + 1] == offset[e]) return;  // no row of this chunk: skip the stiffness
    const int n = dim + 1;
    double p[4][3] = {};
    index_t d[4];
    gather_cell(coords, cells, dof, dim, e, p, d);
    double S[16];
    p1_stiffness(dim, p, K, kappa ? kappa[e] : 1.0, S);
    std::int64_t out = offset[e];
    for (int a = 0; a < n; ++a) {
      if (d[a] < row_lo || d[a] >= row_hi) continue;  // a Dirichlet vertex (-1) too
      for (int b = 0; b < n; ++b) {
        if (d[b] < 0) continue;
        row[out] = d[a] - row_lo;
        col[out] = d[b];
        val[out] = S[a * n + b];
        ++out;
      }
    }
  }
};

}  // namespace saga::fe_functors
