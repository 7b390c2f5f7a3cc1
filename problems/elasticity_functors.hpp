#pragma once
// The P1 elasticity assembly as parallel_for functors (one cell per call), run
// by either backend: count the triplets of each cell (pairs of free vertices,
// dim x dim each), then write them; coo_to_csr sums the duplicates in a fixed
// order (deterministic).
#include <cstdint>

#include "core/hd.hpp"
#include "core/types.hpp"
#include "problems/fe_functors.hpp"
#include "problems/p1_element.hpp"

namespace saga::fe_functors {

struct CountFreeBlockPairs {
  const index_t* cells;
  const index_t* node;  // node of each vertex, -1 for a clamped one
  int dim;
  std::int64_t* count;
  index_t row_lo = 0, row_hi = 0;  // rows (node * dim + component) counted: [row_lo, row_hi)
  SAGA_HD void operator()(std::int64_t e) const {
    int k = 0, rows = 0;
    for (int a = 0; a <= dim; ++a) {
      const index_t d = node[cells[e * (dim + 1) + a]];
      k += d >= 0;
      if (d >= 0)
        for (int i = 0; i < dim; ++i) rows += d * dim + i >= row_lo && d * dim + i < row_hi;
    }
    count[e] = static_cast<std::int64_t>(rows) * (k * dim);
  }
};

struct WriteElasticityTriplets {
  const double* coords;  // dim per vertex
  const index_t* cells;
  const index_t* node;
  double lambda, mu;
  int dim;
  const std::int64_t* offset;
  index_t* row;
  index_t* col;
  double* val;
  index_t row_lo = 0, row_hi = 0;  // rows written: [row_lo, row_hi), as row - row_lo
  SAGA_HD void operator()(std::int64_t e) const {
    if (offset[e + 1] == offset[e]) return;  // no row of this chunk: skip the stiffness
    const int n = dim + 1, m = n * dim;
    double p[4][3] = {};
    index_t d[4];
    gather_cell(coords, cells, node, dim, e, p, d);
    double S[144];
    p1_elasticity_stiffness(dim, p, lambda, mu, S);
    std::int64_t out = offset[e];
    for (int a = 0; a < n; ++a) {
      if (d[a] < 0) continue;
      for (int i = 0; i < dim; ++i) {
        const index_t r = d[a] * dim + i;
        if (r < row_lo || r >= row_hi) continue;
        for (int b = 0; b < n; ++b) {
          if (d[b] < 0) continue;
          for (int j = 0; j < dim; ++j) {
            row[out] = r - row_lo;
            col[out] = d[b] * dim + j;
            val[out] = S[(a * dim + i) * m + b * dim + j];
            ++out;
          }
        }
      }
    }
  }
};

}  // namespace saga::fe_functors
