// The CUDA SpMSpV (both algorithms) gives bitwise the host's result, and the
// device MIS-2 with frontier rounds the host's set.
#include "amg/mis2.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/spmspv.hpp"
#include "tests/helpers.hpp"
#include "tests/sparse_vectors.hpp"

using namespace saga;
using namespace saga::test;

namespace {
SparseVector to_device(const SparseVector& x) {
  SparseVector d;
  d.size = x.size;
  d.index = x.index.to(Space::device);
  d.value = x.value.to(Space::device);
  return d;
}
}  // namespace

TEST_CASE("GPU SpMSpV equals host bitwise, every semiring and algorithm") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  RandomSpec sp;
  sp.rows = 3000;
  sp.cols = 2500;
  sp.density = 0.004;
  sp.long_rows = 3;
  RmatParams rp;
  rp.scale = 13;
  rp.edges = 8;
  rp.seed = rng();
  std::vector<CsrMatrix> mats;
  mats.push_back(from_host_csr(random_csr(sp, rng), Space::host));
  mats.push_back(poisson(Stencil::fe3d_27pt, sized(20, 10), Space::host));
  mats.push_back(rmat_matrix(rp, Space::host));  // power-law rows, nonsymmetric
  for (const CsrMatrix& Ah : mats) {
    const CsrMatrix Ad = Ah.to(Space::device);
    for (double p : {0.0, 0.002, 0.1, 0.6, 1.0}) {
      const SparseVector xh = random_frontier(Ah.rows(), p, rng);
      const SparseVector xd = to_device(xh);
      for (Semiring s : {Semiring::plus_times, Semiring::min_plus, Semiring::max_times, Semiring::or_and}) {
        const SparseVector want = spmspv(Ah, xh, s);
        for (SpmspvAlgorithm a : {SpmspvAlgorithm::automatic, SpmspvAlgorithm::sort, SpmspvAlgorithm::dense}) {
          if (a == SpmspvAlgorithm::dense && s == Semiring::plus_times) continue;
          CAPTURE(to_string(s));
          CAPTURE(to_string(a));
          CAPTURE(p);
          const SparseVector got = spmspv(Ad, xd, s, a);
          CHECK(got.space() == Space::device);
          CHECK(got.size == want.size);
          REQUIRE(got.index.to_vector() == want.index.to_vector());
          CHECK(got.value.to_vector() == want.value.to_vector());
        }
      }
      // The dense-output variant stamps the same set.
      Array<std::int32_t> stamp = Array<std::int32_t>::zeros(static_cast<std::size_t>(Ah.cols()), Space::device);
      spmspv_mark(Ad, xd.index, static_cast<index_t>(xd.nnz()), stamp, 7);
      std::vector<index_t> marked;
      const std::vector<std::int32_t> sv = stamp.to_vector();
      for (index_t j = 0; j < Ah.cols(); ++j)
        if (sv[j] == 7) marked.push_back(j);
      CHECK(marked == spmspv(Ah, xh, Semiring::or_and).index.to_vector());
    }
  }
  // Invalid entries are found on the device too.
  const CsrMatrix P = poisson(Stencil::fd2d_5pt, 4, Space::device);
  SparseVector bad;
  bad.size = 16;
  bad.index = Array<index_t>::from_vector({2, 16}, Space::device);
  CHECK_THROWS_WITH_AS(spmspv(P, bad, Semiring::or_and), doctest::Contains("in [0, 16)"), InputError);
  bad.index = Array<index_t>::from_vector({5, 5}, Space::device);
  CHECK_THROWS_WITH_AS(spmspv(P, bad, Semiring::or_and), doctest::Contains("increasing"), InputError);
}

TEST_CASE("GPU MIS-2 with frontier rounds, or all rounds in one cooperative kernel, equals host") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  RmatParams rp;
  rp.scale = 12;
  rp.edges = 8;
  rp.seed = rng();
  std::vector<CsrMatrix> graphs;
  graphs.push_back(poisson(Stencil::fd2d_5pt, sized(90, 40), Space::host));
  graphs.push_back(poisson(Stencil::fd3d_7pt, sized(24, 10), Space::host));
  graphs.push_back(poisson(Stencil::fe3d_27pt, sized(16, 8), Space::host));
  graphs.push_back(rmat_laplacian(rp, 1.0, Space::host));
  for (const CsrMatrix& Gh : graphs) {
    const CsrMatrix Gd = Gh.to(Space::device);
    const std::uint32_t s = static_cast<std::uint32_t>(rng());
    const amg::Mis2Result want = amg::mis2(Gh, s, amg::Mis2Options{0.0});
    for (double ratio : {0.0, 0.25, 1.0}) {  // rounds launched one by one (no cooperative kernel)
      CAPTURE(ratio);
      const amg::Mis2Result got = amg::mis2(Gd, s, amg::Mis2Options{ratio, 0, 0});
      CHECK(got.in_set.to_vector() == want.in_set.to_vector());
      CHECK(got.rounds == want.rounds);
    }
    // Every round in one cooperative kernel: the same set in as many rounds.
    const amg::Mis2Result coop = amg::mis2(Gd, s, amg::Mis2Options{0.05, Gd.rows(), 0});
    CHECK(coop.in_set.to_vector() == want.in_set.to_vector());
    CHECK(coop.rounds == want.rounds);
    CHECK(coop.frontier_rounds == 0);
    // On a subgraph (roles: excluded, relay, candidate), as the phased aggregation uses it.
    std::vector<std::int32_t> role(Gh.rows());
    for (auto& x : role) x = static_cast<std::int32_t>(rng() % 3);
    const Array<std::int32_t> rh = Array<std::int32_t>::from_vector(role, Space::host);
    const Array<std::int32_t> rd = rh.to(Space::device);
    const auto sub_want = amg::mis2(Gh, s, rh).in_set.to_vector();
    CHECK(amg::mis2(Gd, s, rd, amg::Mis2Options{0.05, Gd.rows(), 0}).in_set.to_vector() == sub_want);
    CHECK(amg::mis2(Gd, s, rd, amg::Mis2Options{0.05, 0, 0}).in_set.to_vector() == sub_want);
  }
}
