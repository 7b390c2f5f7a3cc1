// A Solver sets up an AMG hierarchy only where its solve applies the
// multigrid cycle (applies_amg_cycle): with solver.preconditioner none, a
// smoother, or a method that uses no preconditioner (cg), it holds the matrix
// alone — the same iterates as the method on the matrix, no setup work, a
// resetup that swaps the values, and `saga solve` reports without a hierarchy.
#include <cmath>
#include <cstring>

#include "api/saga.hpp"
#include "app/config.hpp"
#include "app/run.hpp"
#include "problems/structured.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/attainable_accuracy.hpp"
#include "tests/helpers.hpp"
#include "tests/json_schema.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// A with `shift` added to every diagonal entry: the same pattern, new values.
CsrMatrix shifted(const CsrMatrix& A, double shift) {
  HostCsr h = to_host_csr(A);
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k)
      if (h.col[k] == i) h.val[k] += shift;
  return from_host_csr(h, Space::host);
}
bool bitwise_equal(const Vector& a, const Vector& b) {
  const std::vector<double> x = a.to_vector(), y = b.to_vector();
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}
}  // namespace

TEST_CASE("Solver: no AMG hierarchy where the solve applies no cycle; the same iterates as the method alone") {
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 40, Space::host);
  const std::uint64_t seed = fresh_seed();
  const Vector b = random_vector(static_cast<std::size_t>(A.rows()), seed, Space::host);
  const MatrixOperator op(A);
  struct Case {
    Component type, pre;
    bool amg;
  };
  const Case cases[] = {
      {Component("pcg"), Component("none"), false},
      {Component("gmres"), Component("none"), false},
      {Component("pcg"), Component("jacobi", Options().set("sweeps", 2)), false},
      {Component("cg"), Component("amg"), false},  // cg ignores its preconditioner
      {Component("pcg"), Component("amg"), true},
      {Component("fgmres"), Component("pcg", Options().set("max_iterations", 3)), true},  // nested: PCG(AMG)
      {Component("amg"), Component("amg"), true},  // the stationary iteration
  };
  for (const Case& c : cases) {
    CAPTURE(c.type.name);
    CAPTURE(c.pre.name);
    SolverParams sp = solver_params(c.type, c.pre);
    sp.max_iterations = 2000;
    CHECK(applies_amg_cycle(sp, Space::host) == c.amg);
    const Solver s(A, AmgParams{}, sp);
    CHECK(s.has_amg() == c.amg);
    Vector x = Vector::zeros(A.rows(), Space::host);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    CHECK(true_relative_residual(A, b, x) <= 1e-8 * 1.01);
    if (c.amg) {
      CHECK(s.stats().levels.size() >= 2);
      CHECK(s.preconditioner().stats().levels.size() == s.stats().levels.size());
      continue;
    }
    CHECK(s.stats().levels.empty());
    CHECK(s.stats().setup_seconds == 0.0);
    CHECK_THROWS_WITH_AS(s.preconditioner(),
                         doctest::Contains(fmt::format("solver.preconditioner '{}' applies no multigrid cycle",
                                                       c.pre.name)
                                               .c_str()),
                         InputError);
    CHECK(s.matrix().nnz() == A.nnz());
    // The method on A with the same preconditioner (none, or the smoother): the same iterations, the same bits.
    std::unique_ptr<LinearOperator> M;
    if (c.pre.name == "jacobi") {
      Component smoother;
      const int sweeps = smoother_preconditioner_sweeps(c.pre, &smoother);
      M = std::make_unique<SmootherOperator>(A, smoother, sweeps);
    }
    Vector y = Vector::zeros(A.rows(), Space::host);
    const SolveResult alone = krylov_solve(op, M.get(), b, y, sp);
    CHECK(r.iterations == alone.iterations);
    CHECK(bitwise_equal(x, y));
  }
}

TEST_CASE("Solver without AMG: resetup swaps the values and checks the pattern; bad input is still refused") {
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 30, Space::host);
  const Vector b = random_vector(static_cast<std::size_t>(A.rows()), fresh_seed(), Space::host);
  SolverParams sp;
  sp.type = "pcg";
  sp.preconditioner = "none";
  sp.tolerance = 1e-10;
  Solver s(A, AmgParams{}, sp);
  REQUIRE_FALSE(s.has_amg());
  Vector x = Vector::zeros(A.rows(), Space::host);
  const int before = s.solve(b, x).iterations;

  // New values, same pattern: solved with them, as a fresh Solver of them does.
  const CsrMatrix A2 = shifted(A, 0.5);
  const ResetupStats rs = s.resetup(A2);
  CHECK(rs.seconds >= 0.0);
  CHECK(rs.phase_seconds.empty());
  Vector x2 = Vector::zeros(A.rows(), Space::host);
  const SolveResult r2 = s.solve(b, x2);
  CHECK(r2.converged);
  CHECK(r2.iterations < before);  // the shift makes it better conditioned
  CHECK(true_relative_residual(A2, b, x2) <= 1e-10 * 1.01);
  Vector y2 = Vector::zeros(A.rows(), Space::host);
  const SolveResult fresh = Solver(A2, AmgParams{}, sp).solve(b, y2);
  CHECK(fresh.iterations == r2.iterations);
  CHECK(bitwise_equal(x2, y2));

  // Another pattern or size: refused, in the hierarchy's words.
  CHECK_THROWS_WITH_AS(s.resetup(poisson(Stencil::fd2d_5pt, 31, Space::host)),
                       doctest::Contains("resetup: a 961x961 matrix for a solver of 900x900"), InputError);
  CHECK_THROWS_WITH_AS(s.resetup(poisson(Stencil::fe2d_9pt, 30, Space::host)),
                       doctest::Contains("resetup keeps the pattern"), InputError);
  HostCsr h = to_host_csr(A);
  h.val[7] = std::nan("");
  CHECK_THROWS_WITH_AS(s.resetup(from_host_csr(h, Space::host)),
                       doctest::Contains("the new matrix has a non-finite entry"), InputError);
  // The solver still holds A2 after the refusals.
  Vector x3 = Vector::zeros(A.rows(), Space::host);
  CHECK(s.solve(b, x3).iterations == r2.iterations);

  // The setup refuses what the hierarchy's would: a non-finite or non-square matrix, a bad amg section.
  CHECK_THROWS_WITH_AS(Solver(from_host_csr(h, Space::host), AmgParams{}, sp),
                       doctest::Contains("the matrix has a non-finite entry"), InputError);
  const HostCsr wide{2, 3, {0, 1, 2}, {0, 2}, {1.0, 1.0}};
  CHECK_THROWS_WITH_AS(Solver(from_host_csr(wide, Space::host), AmgParams{}, sp),
                       doctest::Contains("the solver needs a square matrix (got 2x3)"), InputError);
  AmgParams bad;
  bad.smoother = Component("no_such_smoother");
  CHECK_THROWS_AS(Solver(A, bad, sp), InputError);
}

TEST_CASE("saga solve with solver.preconditioner none: no hierarchy in the summary nor the report, a valid report") {
  const SchemaValidator v(load_json(SAGA_SOURCE_DIR "/docs/report.schema.json"));
  const char* configs[] = {
      "problem: {type: poisson, stencil: 2d5, N: 30}\nsolver: {type: pcg, preconditioner: none}",
      "problem: {type: poisson, stencil: 2d5, N: 30}\nsolver: {type: pcg, preconditioner: {name: jacobi, sweeps: 2}}",
      "problem: {type: poisson, stencil: 2d5, N: 30}\nsolver: {type: pcg, preconditioner: none}\n"
      "updates: {steps: 2, couplings: existing}",  // numeric resetups of the matrix alone
  };
  for (const std::string text : configs) {
    CAPTURE(text);
    const RunResult r = run_solve(parse_config(text, "c.yaml"), Executor::host());
    CHECK_FALSE(r.has_hierarchy());
    CHECK(r.hierarchy.levels.empty());
    CHECK(r.solve.converged);
    const std::string summary = format_summary(r);
    CHECK(summary.find("hierarchy none: solver.type pcg with solver.preconditioner") != std::string::npos);
    CHECK(summary.find("SpGEMM share") == std::string::npos);
    CHECK(summary.find("-cycle") == std::string::npos);
    const nlohmann::json j = to_json(r);
    const auto errors = v.validate(j);
    for (const auto& e : errors) MESSAGE(e);
    CHECK(errors.empty());
    CHECK(j["hierarchy"].is_null());
    CHECK(j["cycle"] == "none");
    CHECK(j["coarse_solver"] == "none");
    CHECK(j["smoothers"].empty());
    if (r.config.updates.steps > 0) {
      REQUIRE(r.updates.size() == 2);
      for (const UpdateStep& st : r.updates) CHECK(st.converged);
    }
  }
}
