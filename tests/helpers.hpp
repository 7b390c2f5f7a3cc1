#pragma once
// Test helpers: random matrices with awkward structure, Eigen conversions,
// comparisons.
#include <doctest/doctest.h>

#include <Eigen/Sparse>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "solver/solve_result.hpp"
#include "sparse/coo.hpp"
#include "sparse/csr.hpp"

namespace saga::test {

using EigenCsr = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

// Sizes of the heavy GPU tests. SAGA_TEST_SIZE=small shrinks them for the
// compute-sanitizer runs (tools/device_sanitize.sh), where kernels run 100-1000x
// slower; the small sizes still reach every path the full ones do (several
// levels, rows longer than a CTA, sliced products). Unset or "full": full size.
inline bool small_test_sizes() {
  static const bool small = [] {
    const char* e = std::getenv("SAGA_TEST_SIZE");
    const std::string v = e ? e : "full";
    if (v != "full" && v != "small") {
      std::fprintf(stderr, "SAGA_TEST_SIZE must be 'full' or 'small', got '%s'\n", v.c_str());
      std::exit(2);
    }
    return v == "small";
  }();
  return small;
}
template <class T>
T sized(T full, T small) {
  return small_test_sizes() ? small : full;
}

// A fresh random seed, printed ("random seed N") so that a failure can be
// replayed: SAGA_TEST_SEED=N1,N2,... gives the run's calls these seeds in order
// (the last one repeats), so with a filter to one test case
// (`SAGA_TEST_SEED=N ./tests/saga_tests -tc="its name"`) the case runs again
// on the seeds it printed. A malformed list is an error, not a fresh seed.
inline std::uint64_t fresh_seed() {
  static const std::vector<std::uint64_t> given = [] {
    std::vector<std::uint64_t> seeds;
    const char* e = std::getenv("SAGA_TEST_SEED");
    if (!e) return seeds;
    const std::string text = e;
    std::size_t at = 0;
    while (at <= text.size()) {
      const std::size_t comma = std::min(text.find(',', at), text.size());
      const std::string item = text.substr(at, comma - at);
      char* end = nullptr;
      errno = 0;
      const unsigned long long v = std::strtoull(item.c_str(), &end, 10);
      if (item.empty() || item[0] == '-' || *end != '\0' || errno == ERANGE) {
        std::fprintf(stderr, "SAGA_TEST_SEED must be a comma-separated list of unsigned 64-bit integers, got '%s'\n",
                     e);
        std::exit(2);
      }
      seeds.push_back(v);
      at = comma + 1;
    }
    return seeds;
  }();
  static std::size_t next = 0;
  std::uint64_t s;
  if (!given.empty()) {
    s = given[std::min(next++, given.size() - 1)];
  } else {
    static std::random_device rd;
    s = (static_cast<std::uint64_t>(rd()) << 32) | rd();
  }
  const std::string from = given.empty() ? "" : " (from SAGA_TEST_SEED)";
  MESSAGE("random seed " << s << from);
  return s;
}

struct RandomSpec {
  index_t rows = 50, cols = 40;
  double density = 0.1;
  double empty_row_fraction = 0.1;   // rows with no entries
  index_t empty_cols = 3;            // columns never used
  index_t long_rows = 2;             // rows far longer than average (dense-ish)
};

// Appends a row of h with the distinct entries of `cols` (sorted) and values
// uniform in [-1, 1).
inline void append_row(HostCsr& h, std::vector<index_t> cols, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> V(-1.0, 1.0);
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  for (index_t j : cols) {
    h.col.push_back(j);
    h.val.push_back(V(rng));
  }
  h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
}

inline HostCsr random_csr(const RandomSpec& s, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
  std::vector<index_t> usable;
  for (index_t j = 0; j < s.cols; ++j)
    if (j % std::max<index_t>(1, s.cols / std::max<index_t>(1, s.empty_cols)) != 0 || s.empty_cols == 0)
      usable.push_back(j);
  HostCsr h{s.rows, s.cols, {0}, {}, {}};
  for (index_t i = 0; i < s.rows; ++i) {
    std::set<index_t> cols;
    const bool long_row = i < s.long_rows;
    if (!long_row && P(rng) < s.empty_row_fraction) {
      h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
      continue;
    }
    for (index_t j : usable)
      if (P(rng) < (long_row ? 0.9 : s.density)) cols.insert(j);
    for (index_t j : cols) {
      h.col.push_back(j);
      double v = U(rng);
      if (std::abs(v) < 1e-3) v = 0.5;
      h.val.push_back(v);
    }
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  return h;
}

inline EigenCsr to_eigen(const HostCsr& h) {
  std::vector<Eigen::Triplet<double>> t;
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) t.emplace_back(i, h.col[k], h.val[k]);
  EigenCsr m(h.rows, h.cols);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}
inline EigenCsr to_eigen(const CsrMatrix& A) { return to_eigen(to_host_csr(A)); }

// Structure equal exactly (Eigen's product keeps numerically-zero entries too,
// so compare the patterns after pruning neither), values to rel tolerance.
inline void check_equal(const HostCsr& a, const HostCsr& b, double rel = 1e-12) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  REQUIRE(a.row_ptr == b.row_ptr);
  REQUIRE(a.col == b.col);
  double scale = 0.0;
  for (double v : b.val) scale = std::max(scale, std::abs(v));
  for (std::size_t k = 0; k < a.val.size(); ++k)
    REQUIRE(std::abs(a.val[k] - b.val[k]) <= rel * std::max(scale, 1e-300) + 0.0);
}

// A double matrix holding A's values rounded to float (the oracle of matrices
// stored in single precision), on the host.
inline CsrMatrix rounded_to_float(const CsrMatrix& A) {
  HostCsr h = to_host_csr(A);
  for (double& v : h.val) v = static_cast<double>(static_cast<float>(v));
  return from_host_csr(h, Space::host);
}

// A with every value multiplied by `factor` (the same pattern, in A's space).
inline CsrMatrix scaled(const CsrMatrix& A, double factor) {
  HostCsr h = to_host_csr(A);
  for (double& v : h.val) v *= factor;
  return from_host_csr(h, A.space());
}

// A with each value scaled by 1 + `relative` u, u uniform in [-1, 1) drawn
// from (seed, min(i, j), max(i, j)): values off the float grid, symmetric
// where A is (a_ij and a_ji get the same factor). In A's space.
inline CsrMatrix perturbed_symmetric(const CsrMatrix& A, std::uint64_t seed, double relative = 1e-3) {
  HostCsr h = to_host_csr(A);
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) {
      const index_t j = h.col[k];
      std::mt19937_64 rng(seed ^ (static_cast<std::uint64_t>(std::min(i, j)) * 0x9E3779B97F4A7C15ull +
                                  static_cast<std::uint64_t>(std::max(i, j))));
      h.val[k] *= 1.0 + relative * std::uniform_real_distribution<double>(-1, 1)(rng);
    }
  return from_host_csr(h, A.space());
}

inline HostCsr from_eigen(EigenCsr m) {
  m.makeCompressed();
  HostCsr h{static_cast<index_t>(m.rows()), static_cast<index_t>(m.cols()), {}, {}, {}};
  h.row_ptr.assign(m.outerIndexPtr(), m.outerIndexPtr() + m.rows() + 1);
  h.col.assign(m.innerIndexPtr(), m.innerIndexPtr() + m.nonZeros());
  h.val.assign(m.valuePtr(), m.valuePtr() + m.nonZeros());
  return h;
}

// The smallest N >= from whose N^3 grid has at least `rows` rows (a 3D problem
// past a kernel's bound of rows for the GPU at hand).
inline index_t cube_side_for(std::int64_t rows, index_t from) {
  index_t N = from;
  while (static_cast<std::int64_t>(N) * N * N < rows) ++N;
  return N;
}

// A solve's parameters: method, preconditioner and tolerance (the rest at their defaults).
inline SolverParams solver_params(const Component& type, const Component& preconditioner, double tolerance = 1e-8) {
  SolverParams sp;
  sp.type = type;
  sp.preconditioner = preconditioner;
  sp.tolerance = tolerance;
  return sp;
}

inline double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double scale = 0.0, diff = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::abs(b[i]));
    diff = std::max(diff, std::abs(a[i] - b[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

// A graph from its (symmetric) adjacency sets, each holding its own node: the
// diagonal 10, the other entries uniform in [-1.1, -0.1).
inline CsrMatrix graph_from_adjacency(const std::vector<std::set<index_t>>& adj, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  const index_t n = static_cast<index_t>(adj.size());
  HostCsr h{n, n, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) {
    for (index_t j : adj[i]) {
      h.col.push_back(j);
      h.val.push_back(i == j ? 10.0 : -U(rng) - 0.1);
    }
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  return from_host_csr(h, Space::host);
}

// Random graph with edges i -> j (one direction only) for 0 < |i - j| <= band, and a diagonal.
inline CsrMatrix banded_nonsymmetric_graph(index_t n, index_t band, double p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<std::set<index_t>> adj(n);
  for (index_t i = 0; i < n; ++i) {
    adj[i].insert(i);
    for (index_t j = std::max<index_t>(0, i - band); j < std::min(n, i + band + 1); ++j)
      if (j != i && U(rng) < p) adj[i].insert(j);
  }
  return graph_from_adjacency(adj, rng);
}

// A random nonsymmetric pattern, entries up to 64 columns right of the
// diagonal (wrapping), a tenth of the rows the diagonal alone (isolated nodes).
inline CsrMatrix random_nonsymmetric_graph(index_t n, int per_row, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0.1, 1.0);
  HostCsr h{n, n, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) {
    std::set<index_t> cols{i};
    if (rng() % 10 != 0)
      for (int k = 0; k < per_row; ++k) cols.insert(static_cast<index_t>((i + 1 + rng() % 64) % n));
    for (index_t j : cols) h.col.push_back(j), h.val.push_back(j == i ? 4.0 : -U(rng));
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  return from_host_csr(h, Space::host);
}

}  // namespace saga::test
