#pragma once
// The P1 assembly as parallel_for functors (one cell per call), run by either
// backend: count the triplets of each cell (free vertex pairs), then write them.
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

struct CountFreePairs {
  const index_t* cells;
  const index_t* dof;  // unknown of each vertex, -1 for Dirichlet
  int dim;
  std::int64_t* count;
  SAGA_HD void operator()(std::int64_t e) const {
    int k = 0;
    for (int a = 0; a <= dim; ++a) k += dof[cells[e * (dim + 1) + a]] >= 0;
    count[e] = k * k;
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
  SAGA_HD void operator()(std::int64_t e) const {
    const int n = dim + 1;
    double p[4][3] = {};
    index_t d[4];
    gather_cell(coords, cells, dof, dim, e, p, d);
    double S[16];
    p1_stiffness(dim, p, K, kappa ? kappa[e] : 1.0, S);
    std::int64_t out = offset[e];
    for (int a = 0; a < n; ++a) {
      if (d[a] < 0) continue;
      for (int b = 0; b < n; ++b) {
        if (d[b] < 0) continue;
        row[out] = d[a];
        col[out] = d[b];
        val[out] = S[a * n + b];
        ++out;
      }
    }
  }
};

}  // namespace saga::fe_functors
