#pragma once
// Sparse vectors for the SpMSpV tests (host and GPU).
#include <random>
#include <vector>

#include "sparse/spmspv.hpp"

namespace saga::test {

// A host sparse vector from its indices and values (no values: a pattern).
inline SparseVector sparse_vector(index_t size, const std::vector<index_t>& idx, const std::vector<double>& val) {
  SparseVector x;
  x.size = size;
  x.index = Array<index_t>::from_vector(idx, Space::host);
  if (!val.empty()) x.value = Array<double>::from_vector(val, Space::host);
  return x;
}

// Random x over the rows of a matrix: each row with probability p, values in [-2, 2).
inline SparseVector random_frontier(index_t rows, double p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<index_t> idx;
  std::vector<double> val;
  for (index_t i = 0; i < rows; ++i)
    if (U(rng) < p) {
      idx.push_back(i);
      val.push_back(4 * U(rng) - 2);
    }
  return sparse_vector(rows, idx, val);
}

}  // namespace saga::test
