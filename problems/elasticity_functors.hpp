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
  SAGA_HD void operator()(std::int64_t e) const {
    int k = 0;
    for (int a = 0; a <= dim; ++a) k += node[cells[e * (dim + 1) + a]] >= 0;
    count[e] = static_cast<std::int64_t>(k * dim) * (k * dim);
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
  SAGA_HD void operator()(std::int64_t e) const {
    const int n = dim + 1, m = n * dim;
    double p[4][3] = {};
    index_t d[4];
    gather_cell(coords, cells, node, dim, e, p, d);
    double S[144];
    p1_elasticity_stiffness(dim, p, lambda, mu, S);
    std::int64_t out = offset[e];
    for (int a = 0; a < n; ++a) {
      if (d[a] < 0) continue;
      for (int i = 0; i < dim; ++i)
        for (int b = 0; b < n; ++b) {
          if (d[b] < 0) continue;
          for (int j = 0; j < dim; ++j) {
            row[out] = d[a] * dim + i;
            col[out] = d[b] * dim + j;
            val[out] = S[(a * dim + i) * m + b * dim + j];
            ++out;
          }
        }
    }
  }
};

}  // namespace saga::fe_functors
