// SpMSpV over semirings (sparse/spmspv.hpp) against a hand-computed case and
// brute-force oracles, and the frontier MIS-2 rounds built on it against full
// sweeps.
#include <limits>
#include <map>

#include "amg/mis2.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/spmspv.hpp"
#include "tests/helpers.hpp"
#include "tests/sparse_vectors.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// Brute force: y[j] over every (i, j) with i in x, in x's order.
std::map<index_t, double> oracle(const HostCsr& A, const std::vector<index_t>& xi, const std::vector<double>& xv,
                                 Semiring s) {
  std::map<index_t, double> y;
  for (std::size_t k = 0; k < xi.size(); ++k)
    for (offset_t h = A.row_ptr[xi[k]]; h < A.row_ptr[xi[k] + 1]; ++h) {
      const index_t j = A.col[h];
      const double a = A.val[h], x = xv.empty() ? 1.0 : xv[k];
      const double p = s == Semiring::min_plus ? a + x : a * x;
      auto it = y.find(j);
      if (it == y.end()) {
        y[j] = s == Semiring::or_and ? 1.0 : p;
        continue;
      }
      if (s == Semiring::plus_times) it->second += p;
      if (s == Semiring::min_plus) it->second = std::min(it->second, p);
      if (s == Semiring::max_times) it->second = std::max(it->second, p);
    }
  return y;
}
}  // namespace

TEST_CASE("SpMSpV: hand-computed case, every semiring") {
  // A = [1 2 0 0; 0 3 4 0; 5 0 0 6; 0 0 7 0], x = {0: 2, 2: -1}:
  // rows 0 and 2 reach columns 0, 1, 3.
  HostCsr h{4, 4, {0, 2, 4, 6, 7}, {0, 1, 1, 2, 0, 3, 2}, {1, 2, 3, 4, 5, 6, 7}};
  const CsrMatrix A = from_host_csr(h, Space::host);
  const SparseVector x = sparse_vector(4, {0, 2}, {2.0, -1.0});
  const SparseVector plus = spmspv(A, x, Semiring::plus_times);
  CHECK(plus.index.to_vector() == std::vector<index_t>{0, 1, 3});
  CHECK(plus.value.to_vector() == std::vector<double>{1 * 2 + 5 * -1, 2 * 2, 6 * -1});
  const SparseVector minp = spmspv(A, x, Semiring::min_plus);
  CHECK(minp.value.to_vector() == std::vector<double>{std::min(1 + 2, 5 - 1), 2 + 2, 6 - 1});
  const SparseVector maxt = spmspv(A, x, Semiring::max_times);
  CHECK(maxt.value.to_vector() == std::vector<double>{2, 4, -6});
  const SparseVector pattern = spmspv(A, sparse_vector(4, {1, 3}, {}), Semiring::or_and);
  CHECK(pattern.index.to_vector() == std::vector<index_t>{1, 2});
  CHECK(pattern.value.empty());
  CHECK(pattern.size == 4);
  // An empty frontier reaches nothing.
  CHECK(spmspv(A, sparse_vector(4, {}, {}), Semiring::plus_times).nnz() == 0);
}

TEST_CASE("SpMSpV: random matrices against the brute-force oracle") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  RandomSpec sp;
  sp.rows = 120;
  sp.cols = 90;
  const HostCsr h = random_csr(sp, rng);
  const CsrMatrix A = from_host_csr(h, Space::host);
  for (double p : {0.0, 0.05, 0.5, 1.0}) {
    const SparseVector x = random_frontier(A.rows(), p, rng);
    const std::vector<index_t> xi = x.index.to_vector();
    const std::vector<double> xv = x.value.to_vector();
    for (Semiring s : {Semiring::plus_times, Semiring::min_plus, Semiring::max_times, Semiring::or_and}) {
      CAPTURE(to_string(s));
      CAPTURE(p);
      const std::map<index_t, double> want = oracle(h, xi, xv, s);
      const SparseVector y = spmspv(A, x, s);
      REQUIRE(y.nnz() == want.size());
      const std::vector<index_t> yi = y.index.to_vector();
      const std::vector<double> yv = y.value.to_vector();
      std::size_t k = 0;
      for (const auto& [j, v] : want) {
        CHECK(yi[k] == j);
        if (s != Semiring::or_and) CHECK(yv[k] == v);  // same order of ⊕: bitwise
        ++k;
      }
    }
  }
}

TEST_CASE("SpMSpV: a column reached from many rows is folded in blocks of 64") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0, 1);
  const index_t n = 300;  // every row has column 0: a run of 300 products (5 blocks)
  HostCsr h{n, 3, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) {
    h.col.push_back(0), h.val.push_back(U(rng));
    h.col.push_back(1 + i % 2), h.val.push_back(U(rng));
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  std::vector<index_t> xi(n);
  std::vector<double> xv(n);
  for (index_t i = 0; i < n; ++i) xi[i] = i, xv[i] = U(rng) * 1e3;
  const SparseVector y = spmspv(from_host_csr(h, Space::host), sparse_vector(n, xi, xv), Semiring::plus_times);
  double blocked = 0, sequential = 0;
  for (index_t b = 0; b < n; b += kSpmspvBlock) {
    double part = h.val[2 * b] * xv[b];
    for (index_t i = b + 1; i < std::min(n, b + kSpmspvBlock); ++i) part += h.val[2 * i] * xv[i];
    blocked = b == 0 ? part : blocked + part;
  }
  for (index_t i = 0; i < n; ++i) sequential += h.val[2 * i] * xv[i];
  REQUIRE(y.nnz() == 3);
  CHECK(y.value.to_vector()[0] == blocked);
  CHECK(std::abs(y.value.to_vector()[0] - sequential) <= 1e-12 * std::abs(sequential));
}

TEST_CASE("SpMSpV mark (dense output) stamps exactly the reached set") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  RandomSpec sp;
  sp.rows = 150;
  sp.cols = 150;
  const CsrMatrix A = from_host_csr(random_csr(sp, rng), Space::host);
  Array<std::int32_t> stamp(150, Space::host);
  for (index_t j = 0; j < 150; ++j) stamp[j] = -1;
  for (int round = 1; round <= 3; ++round) {
    const SparseVector x = random_frontier(A.rows(), 0.1 * round, rng);
    const index_t count = static_cast<index_t>(x.nnz());
    spmspv_mark(A, x.index, count, stamp, round);
    std::vector<index_t> marked;
    for (index_t j = 0; j < 150; ++j)
      if (stamp[j] == round) marked.push_back(j);
    CHECK(marked == spmspv(A, x, Semiring::or_and).index.to_vector());
    // With the rows themselves.
    spmspv_mark(A, x.index, count, stamp, 100 + round, true);
    for (index_t i : x.index.to_vector()) CHECK(stamp[i] == 100 + round);
  }
  CHECK_THROWS_WITH_AS(spmspv_mark(A, Array<index_t>(2, Space::host), 3, stamp, 1), doctest::Contains("3 rows listed"),
                       Error);
}

TEST_CASE("SpMSpV: bad input is an error naming the problem") {
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 4, Space::host);
  CHECK_THROWS_WITH_AS(spmspv(A, sparse_vector(15, {1}, {1.0}), Semiring::plus_times),
                       doctest::Contains("length 15 but the matrix has 16 rows"), InputError);
  CHECK_THROWS_WITH_AS(spmspv(A, sparse_vector(16, {3, 2}, {1.0, 1.0}), Semiring::plus_times),
                       doctest::Contains("increasing"), InputError);
  CHECK_THROWS_WITH_AS(spmspv(A, sparse_vector(16, {3, 16}, {1.0, 1.0}), Semiring::min_plus),
                       doctest::Contains("in [0, 16)"), InputError);
  CHECK_THROWS_WITH_AS(spmspv(A, sparse_vector(16, {3}, {}), Semiring::plus_times),
                       doctest::Contains("needs a value"), InputError);
  CHECK_THROWS_WITH_AS(spmspv(A, sparse_vector(16, {3}, {1.0}), Semiring::plus_times, SpmspvAlgorithm::dense),
                       doctest::Contains("use sort"), InputError);
  CHECK(spmspv_choice(Semiring::plus_times, 1 << 20, 100) == SpmspvAlgorithm::sort);
  CHECK(spmspv_choice(Semiring::or_and, 1 << 20, 100) == SpmspvAlgorithm::dense);
  CHECK(spmspv_choice(Semiring::or_and, 10, 1 << 20) == SpmspvAlgorithm::dense);  // 1M columns: 16 MB, cheap
  CHECK(spmspv_choice(Semiring::or_and, 1000, 1 << 27) == SpmspvAlgorithm::sort);
  CHECK(spmspv_choice(Semiring::min_plus, 1 << 26, 1 << 27) == SpmspvAlgorithm::dense);
}

TEST_CASE("MIS-2 frontier rounds give the full sweeps' set") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  RmatParams rp;
  rp.scale = 10;
  rp.edges = 6;
  rp.seed = rng();
  std::vector<CsrMatrix> graphs;
  graphs.push_back(poisson(Stencil::fd2d_5pt, 60, Space::host));
  graphs.push_back(poisson(Stencil::fe3d_27pt, 12, Space::host));
  graphs.push_back(rmat_laplacian(rp, 1.0, Space::host));
  // A graph whose rows do not store the diagonal (a path 0-1-...-n).
  {
    const index_t n = 200;
    HostCsr h{n, n, {0}, {}, {}};
    for (index_t i = 0; i < n; ++i) {
      if (i > 0) h.col.push_back(i - 1), h.val.push_back(1.0);
      if (i + 1 < n) h.col.push_back(i + 1), h.val.push_back(1.0);
      h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
    }
    graphs.push_back(from_host_csr(h, Space::host));
  }
  for (const CsrMatrix& G : graphs) {
    const std::uint32_t s = static_cast<std::uint32_t>(rng());
    const amg::Mis2Result full = amg::mis2(G, s, amg::Mis2Options{0.0});
    CHECK(full.frontier_rounds == 0);
    for (double ratio : {0.05, 0.25, 1.0}) {
      CAPTURE(ratio);
      const amg::Mis2Result fr = amg::mis2(G, s, amg::Mis2Options{ratio});
      CHECK(fr.in_set.to_vector() == full.in_set.to_vector());
      CHECK(fr.rounds == full.rounds);
      if (ratio == 1.0 && full.rounds > 1) CHECK(fr.frontier_rounds == full.rounds - 1);
    }
    // On a subgraph: every third node relays, every fifth is excluded.
    std::vector<std::int32_t> role(G.rows());
    for (index_t i = 0; i < G.rows(); ++i)
      role[i] = i % 5 == 0 ? amg::kExcluded : i % 3 == 0 ? amg::kRelay : amg::kCandidate;
    const Array<std::int32_t> r = Array<std::int32_t>::from_vector(role, Space::host);
    CHECK(amg::mis2(G, s, r, amg::Mis2Options{1.0}).in_set.to_vector() ==
          amg::mis2(G, s, r, amg::Mis2Options{0.0}).in_set.to_vector());
  }
}
