// The joining passes of the aggregation (aggregate_from_roots) on the GPU: for
// graphs of up to 2^18 nodes they run in one cooperative kernel (numberings as
// chunked scans, the counts read once), and must give the host's aggregates —
// with isolated nodes (left out), a nonsymmetric strength pattern (pass 3's
// leftovers), roots that are not a MIS-2 at all, and sizes that spread the
// nodes over many blocks and partial chunks.
#include <set>

#include "amg/aggregation.hpp"
#include "amg/mis2.hpp"
#include "problems/structured.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;


TEST_CASE("GPU joining passes in one cooperative kernel, or launched, equal the host's") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::string, CsrMatrix>> graphs;
  graphs.emplace_back("2D 5-pt", poisson(Stencil::fd2d_5pt, sized(300, 40), Space::host));
  graphs.emplace_back("3D 27-pt", poisson(Stencil::fe3d_27pt, sized(40, 10), Space::host));
  graphs.emplace_back("random nonsymmetric", random_nonsymmetric_graph(sized(200000, 5000), 3, rng));
  graphs.emplace_back("one node", random_nonsymmetric_graph(1, 0, rng));
  for (const auto& named : graphs) {
    const std::string& name = named.first;
    const CsrMatrix& Sh = named.second;
    CAPTURE(name);
    REQUIRE(Sh.rows() <= amg::cuda::kCooperativeMis2MaxRows);
    const CsrMatrix Sd = Sh.to(Space::device);
    std::vector<Array<std::int32_t>> root_sets;
    root_sets.push_back(amg::mis2(Sh, 7).in_set);
    std::vector<std::int32_t> random_roots(Sh.rows());
    for (auto& x : random_roots) x = rng() % 7 == 0;
    root_sets.push_back(Array<std::int32_t>::from_vector(random_roots, Space::host));
    for (const auto& roots : root_sets) {
      const amg::Aggregates h = amg::aggregate_from_roots(Sh, roots);
      for (index_t cooperative : {Sd.rows(), index_t{0}}) {  // one kernel, or the launched steps
        CAPTURE(cooperative);
        const amg::Aggregates d =
            amg::aggregate_from_roots(Sd, roots.to(Space::device), amg::Mis2Options{0.05, cooperative, 0});
        CHECK(d.count == h.count);
        CHECK(d.unaggregated == h.unaggregated);
        CHECK(d.of_node.to_vector() == h.of_node.to_vector());
      }
    }
  }
}
