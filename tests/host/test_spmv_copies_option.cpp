// amg.spmv_copies (CycleParams): the device memory the cycle's SpMV copies may
// take. On the host: read from a config and --set, a bad value or a per-level
// key names what was expected, the report lists it, and a host solve (which
// makes no copies) is the same whatever it says. The GPU side is
// tests/gpu/test_spmv_copies_option_gpu.cpp.
#include <doctest/doctest.h>

#include <string>

#include "api/saga.hpp"
#include "app/component_json.hpp"
#include "app/config.hpp"
#include "problems/structured.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("amg.spmv_copies: within_peak by default; read from a config and --set; bad values name the key") {
  CHECK(parse_config("", "c.yaml").amg.spmv_copies == "within_peak");
  CHECK(parse_config("amg: {spmv_copies: free}\n", "c.yaml").amg.spmv_copies == "free");
  CHECK(parse_config("", "c.yaml", {"amg.spmv_copies=none"}).amg.spmv_copies == "none");
  CHECK_THROWS_WITH_AS(parse_config("amg: {spmv_copies: all}\n", "c.yaml"), doctest::Contains("amg.spmv_copies"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse_config("amg: {spmv_copies: all}\n", "c.yaml"), doctest::Contains("within_peak"),
                       InputError);
  CycleParams p;
  read_params(p, Options{{"spmv_copies", "none"}}, "amg");
  CHECK(p.spmv_copies == "none");
  // The room is the whole solve's: not a key of one level.
  CHECK_THROWS_WITH_AS(parse_config("amg: {levels: [{}, {spmv_copies: free}]}\n", "c.yaml"),
                       doctest::Contains("c.yaml:1:34: amg.levels[1].spmv_copies: unknown key"), InputError);
  // The JSON report's amg section lists it.
  CHECK(amg_json(parse_config("amg: {spmv_copies: free}\n", "c.yaml").amg, Space::host)["spmv_copies"] == "free");
}

TEST_CASE("amg.spmv_copies on the host: no copies, the same iterates whatever it says") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, 20, Space::host);
  const Vector b = random_vector(A.rows(), seed, Space::host);
  std::vector<double> first;
  for (const std::string room : {"within_peak", "free", "none"}) {
    CAPTURE(room);
    AmgParams p;
    p.spmv_copies = room;
    const Solver s(A, p);
    CHECK(s.preconditioner().cycle().spmv_copies().bytes == 0);
    Vector x = Vector::zeros(A.rows(), Space::host);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    if (first.empty())
      first = x.to_vector();
    else
      CHECK(x.to_vector() == first);  // bit for bit
  }
}
