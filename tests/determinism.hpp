#pragma once
// Determinism as a test (docs/reliability.md): the same config twice gives
// bitwise the same hierarchy (every level's A, P, R, aggregates count, rho)
// and the same residual history, on the executor given.
#include "api/saga.hpp"
#include "app/config.hpp"
#include "app/run.hpp"
#include "tests/helpers.hpp"

namespace saga::test {

inline void check_same_hierarchy(const Hierarchy& a, const Hierarchy& b) {
  REQUIRE(a.levels().size() == b.levels().size());
  for (std::size_t l = 0; l < a.levels().size(); ++l) {
    CAPTURE(l);
    const auto &x = a.levels()[l], &y = b.levels()[l];
    check_equal(to_host_csr(x.A), to_host_csr(y.A), 0.0);
    CHECK(to_host_csr(x.A).val == to_host_csr(y.A).val);  // bitwise, not within a tolerance
    CHECK(x.rho == y.rho);
    if (l + 1 < a.levels().size()) {
      CHECK(to_host_csr(x.P).val == to_host_csr(y.P).val);
      CHECK(to_host_csr(x.P).col == to_host_csr(y.P).col);
      CHECK(to_host_csr(x.R).val == to_host_csr(y.R).val);
    }
  }
}

inline void check_deterministic(const std::vector<std::string>& configs, const std::shared_ptr<const Executor>& exec) {
  for (const auto& text : configs) {
    CAPTURE(text);
    RunConfig c = parse_config(text, "c.yaml");
    const RunResult r1 = run_solve(c, exec), r2 = run_solve(c, exec);
    CHECK(r1.solve.residual_history == r2.solve.residual_history);
    CHECK(r1.solve.iterations == r2.solve.iterations);
    REQUIRE(r1.hierarchy.levels.size() == r2.hierarchy.levels.size());
    for (std::size_t l = 0; l < r1.hierarchy.levels.size(); ++l) {
      CHECK(r1.hierarchy.levels[l].nnz == r2.hierarchy.levels[l].nnz);
      CHECK(r1.hierarchy.levels[l].aggregates == r2.hierarchy.levels[l].aggregates);
      CHECK(r1.hierarchy.levels[l].rho == r2.hierarchy.levels[l].rho);
    }
    // The matrices themselves, level by level.
    const Problem p = build_problem(c.problem, exec->space());
    const AmgPreconditioner m1(p.A, c.amg, exec), m2(p.A, c.amg, exec);
    check_same_hierarchy(m1.hierarchy(), m2.hierarchy());
  }
}

inline const std::vector<std::string>& determinism_configs() {
  static const std::vector<std::string> c = {
      "problem: {type: poisson, stencil: 3d27, N: 20}",
      "problem: {type: poisson, stencil: 2d5, N: 90}\namg: {theta: 0.08, aggregation: phased}",
      "problem: {type: fe, mesh: square, cells: 40}\namg: {aggregation: greedy}",
      "problem: {type: rmat_laplacian, scale: 11}\nsolver: {type: fgmres}",
      "problem: {type: poisson, stencil: 3d7, N: 16}\namg: {smoother: chebyshev, cycle: W}\nsolver: {type: fcg}",
  };
  return c;
}

}  // namespace saga::test
