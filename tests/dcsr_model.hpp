#pragma once
// The model DCSR tests check against: an ordered map (row, column) -> value,
// and random batches with small-integer values (sums of them are exact in
// double, so the DCSR and the model must agree bitwise whatever the order).
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "sparse/coo.hpp"
#include "sparse/dcsr.hpp"
#include "tests/helpers.hpp"

namespace saga::test {

struct DcsrModel {
  index_t rows = 0, cols = 0;
  std::map<std::pair<index_t, index_t>, double> a;

  static DcsrModel of(const HostCsr& h) {
    DcsrModel m{h.rows, h.cols, {}};
    for (index_t i = 0; i < h.rows; ++i)
      for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) m.a[{i, h.col[k]}] += h.val[k];
    return m;
  }
  HostCsr csr() const {
    HostCsr h{rows, cols, {0}, {}, {}};
    auto it = a.begin();
    for (index_t i = 0; i < rows; ++i) {
      for (; it != a.end() && it->first.first == i; ++it) {
        h.col.push_back(it->first.second);
        h.val.push_back(it->second);
      }
      h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
    }
    return h;
  }
  // Applies a batch as DcsrMatrix::insert does: repeats within the batch summed
  // first, then against the matrix per `mode` (keep and add give the same CSR).
  void insert(const std::vector<index_t>& r, const std::vector<index_t>& c, const std::vector<double>& v,
              DcsrDuplicates mode) {
    std::map<std::pair<index_t, index_t>, double> batch;
    for (std::size_t e = 0; e < r.size(); ++e) batch[{r[e], c[e]}] += v[e];
    for (const auto& [key, x] : batch) {
      if (mode == DcsrDuplicates::replace)
        a[key] = x;
      else
        a[key] += x;
    }
  }
  void erase(const std::vector<index_t>& r, const std::vector<index_t>& c) {
    for (std::size_t e = 0; e < r.size(); ++e) a.erase({r[e], c[e]});
  }
};

// A batch of n triplets: rows drawn with a power-law bias toward a few hot rows
// (they outgrow their segments first), some repeats, integer values in [-8, 8].
struct DcsrBatch {
  std::vector<index_t> r, c;
  std::vector<double> v;
  CooMatrix coo(index_t rows, index_t cols, Space s) const {
    return {rows, cols, Array<index_t>::from_vector(r, s), Array<index_t>::from_vector(c, s),
            Array<double>::from_vector(v, s)};
  }
};
inline DcsrBatch random_dcsr_batch(index_t rows, index_t cols, std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0.0, 1.0);
  std::uniform_int_distribution<index_t> C(0, cols - 1), V(-8, 8);
  DcsrBatch b;
  for (std::size_t e = 0; e < n; ++e) {
    const double u = U(rng);
    const index_t row = u < 0.3 ? static_cast<index_t>(U(rng) * std::min<index_t>(rows, 4))  // hot rows
                                : static_cast<index_t>(U(rng) * rows);
    b.r.push_back(std::min(row, rows - 1));
    b.c.push_back(C(rng));
    const index_t x = V(rng);
    b.v.push_back(x == 0 ? 1.0 : x);
    if (e + 1 < n && U(rng) < 0.05) {  // a repeat inside the batch
      b.r.push_back(b.r.back());
      b.c.push_back(b.c.back());
      b.v.push_back(2.0);
      ++e;
    }
  }
  return b;
}

// Small-integer matrix (exact sums).
inline HostCsr integer_csr(index_t rows, index_t cols, double density, std::mt19937_64& rng) {
  RandomSpec s;
  s.rows = rows;
  s.cols = cols;
  s.density = density;
  HostCsr h = random_csr(s, rng);
  std::uniform_int_distribution<int> V(1, 9);
  for (double& x : h.val) x = V(rng);
  return h;
}

}  // namespace saga::test
