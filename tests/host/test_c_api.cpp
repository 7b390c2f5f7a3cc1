// The C API (api/saga_c.h) as a C program uses it: parameters by name, setup
// from 32- and 64-bit CSR arrays, solve, apply, resetup, results, timings; and
// every misuse answered with a status and a message, never a crash.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "api/saga.hpp"
#include "api/saga_c.h"
#include "sparse/vector_ops.hpp"
#include "problems/structured.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

// The C API's 32-bit entry takes int32 row offsets whatever this build's offset_t.
namespace {
std::vector<std::int32_t> int32_offsets(const HostCsr& h) { return {h.row_ptr.begin(), h.row_ptr.end()}; }
// Solves b with the solver and checks it converged to `tolerance`; its iterations.
int solved_iterations(saga_solver s, const std::vector<double>& b, std::vector<double>& x, double tolerance) {
  REQUIRE(saga_solver_solve(s, b.data(), x.data()) == SAGA_OK);
  int its = 0, conv = 0;
  double rel = 1;
  CHECK(saga_solver_result(s, &its, &conv, &rel) == SAGA_OK);
  CHECK(conv == 1);
  CHECK(rel <= tolerance);
  return its;
}
}  // namespace

TEST_CASE("C API: parameters by name, setup (32/64-bit), solve, apply, resetup, results") {
  const HostCsr h = to_host_csr(poisson(Stencil::fd2d_5pt, 40, Space::host));
  const int n = h.rows;
  saga_solver s = nullptr;
  REQUIRE(saga_solver_create(&s, "host") == SAGA_OK);
  CHECK(std::string(saga_version()) == SAGA_VERSION);
  CHECK(saga_solver_set(s, "amg.smoother", "chebyshev") == SAGA_OK);
  CHECK(saga_solver_set(s, "amg.smoother.degree", "3") == SAGA_OK);
  CHECK(saga_solver_set_many(s, "amg.theta = 0.1; solver.tolerance=1e-10\n# a comment\nsolver.max_iterations=200") ==
        SAGA_OK);
  REQUIRE(saga_solver_setup(s, n, int32_offsets(h).data(), h.col.data(), h.val.data()) == SAGA_OK);
  int levels = 0;
  double oc = 0;
  CHECK(saga_solver_hierarchy(s, &levels, &oc) == SAGA_OK);
  CHECK(levels >= 2);
  CHECK(oc > 1.0);
  std::vector<double> b(n, 1.0), x(n, 0.0);
  REQUIRE(saga_solver_solve(s, b.data(), x.data()) == SAGA_OK);
  int its = 0, conv = 0;
  double rel = 1;
  CHECK(saga_solver_result(s, &its, &conv, &rel) == SAGA_OK);
  CHECK(conv == 1);
  CHECK(rel <= 1e-10);
  std::vector<double> hist(1000);
  int len = 0;
  CHECK(saga_solver_residual_history(s, hist.data(), 1000, &len) == SAGA_OK);
  CHECK(len == its + 1);
  CHECK(hist[0] == doctest::Approx(1.0));
  // The same through C++: the same iterates.
  AmgParams amg;
  amg.smoother = Component("chebyshev", Options().set("degree", 3));
  amg.theta = 0.1;
  SolverParams sp;
  sp.tolerance = 1e-10;
  sp.max_iterations = 200;
  Vector xc = Vector::zeros(n, Space::host);
  const SolveResult rc = Solver(from_host_csr(h, Space::host), amg, sp).solve(ones(n, Space::host), xc);
  CHECK(rc.iterations == its);
  CHECK(max_rel_diff(xc.to_vector(), x) == 0.0);
  double total = 0, ptap = -1;
  CHECK(saga_solver_setup_seconds(s, nullptr, 0, &total) == SAGA_OK);
  CHECK(saga_solver_setup_seconds(s, "PtAP", 0, &ptap) == SAGA_OK);
  CHECK(total > 0);
  CHECK(ptap >= 0);
  std::vector<double> z(n);
  CHECK(saga_solver_apply(s, b.data(), z.data()) == SAGA_OK);
  CHECK(z[n / 2] > 0);
  // A second solve (CG's kept vectors) and one after releasing them: the same x.
  std::vector<double> x_again(n, 0.0), x_released(n, 0.0);
  CHECK(saga_solver_solve(s, b.data(), x_again.data()) == SAGA_OK);
  CHECK(saga_solver_release_workspace(s) == SAGA_OK);
  CHECK(saga_solver_solve(s, b.data(), x_released.data()) == SAGA_OK);
  CHECK(x_again == x);
  CHECK(x_released == x);
  // Resetup: doubled values; the solution halves.
  std::vector<double> v2(h.val);
  for (double& v : v2) v *= 2;
  CHECK(saga_solver_resetup(s, v2.data(), 1) == SAGA_OK);
  CHECK(saga_solver_setup_seconds(s, nullptr, 1, &total) == SAGA_OK);
  std::vector<double> x2(n, 0.0);
  CHECK(saga_solver_solve(s, b.data(), x2.data()) == SAGA_OK);
  for (int i = 0; i < n; i += 97) CHECK(x2[i] == doctest::Approx(x[i] / 2).epsilon(1e-8));
  saga_solver_destroy(s);

  // 64-bit indices: the same matrix, the same answer.
  saga_solver t = nullptr;
  REQUIRE(saga_solver_create(&t, "host") == SAGA_OK);
  std::vector<int64_t> rp(h.row_ptr.begin(), h.row_ptr.end()), ci(h.col.begin(), h.col.end());
  REQUIRE(saga_solver_setup_i64(t, n, rp.data(), ci.data(), h.val.data()) == SAGA_OK);
  std::vector<double> x3(n, 0.0);
  CHECK(saga_solver_solve(t, b.data(), x3.data()) == SAGA_OK);
  CHECK(saga_solver_result(t, &its, &conv, nullptr) == SAGA_OK);
  CHECK(conv == 1);
  saga_solver_destroy(t);
}

TEST_CASE("C API misuse: a status and a message, never a crash") {
  const HostCsr h = to_host_csr(poisson(Stencil::fd2d_5pt, 10, Space::host));
  const int n = h.rows;
  std::vector<double> b(n, 1.0), x(n, 0.0);
  CHECK(saga_solver_create(nullptr, "host") == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("null") != std::string::npos);
  saga_solver s = nullptr;
  CHECK(saga_solver_create(&s, "tpu") == SAGA_ERROR_INPUT);
  CHECK(s == nullptr);
  REQUIRE(saga_solver_create(&s, "host") == SAGA_OK);
  CHECK(std::string(saga_last_error()).empty());
  CHECK(saga_solver_solve(s, b.data(), x.data()) == SAGA_ERROR_STATE);
  CHECK(std::string(saga_last_error()).find("not set up") != std::string::npos);
  CHECK(saga_solver_release_workspace(s) == SAGA_ERROR_STATE);  // before any setup
  CHECK(std::string(saga_last_error()).find("not set up") != std::string::npos);
  CHECK(saga_solver_release_workspace(nullptr) == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("null") != std::string::npos);
  CHECK(saga_solver_set(s, "amg.thetta", "0.1") == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("thetta") != std::string::npos);
  CHECK(saga_solver_set(s, "amg.theta", "2") == SAGA_ERROR_INPUT);
  CHECK(saga_solver_set(s, "amg.smoother", "gauss") == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("gauss") != std::string::npos);
  CHECK(saga_solver_set(s, "solver.tolerance", "abc") == SAGA_ERROR_INPUT);
  CHECK(saga_solver_set(s, "color", "red") == SAGA_ERROR_INPUT);
  CHECK(saga_solver_set_many(s, "amg.theta") == SAGA_ERROR_INPUT);
  CHECK(saga_solver_setup(s, n, nullptr, h.col.data(), h.val.data()) == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("row_ptr") != std::string::npos);
  std::vector<int32_t> bad_col(h.col);
  bad_col[3] = n + 5;
  CHECK(saga_solver_setup(s, n, int32_offsets(h).data(), bad_col.data(), h.val.data()) == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("col[3]") != std::string::npos);
  std::vector<double> bad_val(h.val);
  bad_val[0] = -4;  // a non-positive diagonal
  CHECK(saga_solver_setup(s, n, int32_offsets(h).data(), h.col.data(), bad_val.data()) == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("row 0") != std::string::npos);
  REQUIRE(saga_solver_setup(s, n, int32_offsets(h).data(), h.col.data(), h.val.data()) == SAGA_OK);
  CHECK(saga_solver_set(s, "amg.theta", "0.2") == SAGA_ERROR_STATE);
  CHECK(saga_solver_result(s, nullptr, nullptr, nullptr) == SAGA_ERROR_STATE);  // no solve yet
  CHECK(saga_solver_solve(s, nullptr, x.data()) == SAGA_ERROR_INPUT);
  std::vector<double> nan_val(h.val);
  nan_val[5] = std::nan("");
  CHECK(saga_solver_resetup(s, nan_val.data(), 1) == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("non-finite") != std::string::npos);
  CHECK(saga_solver_solve(s, b.data(), x.data()) == SAGA_OK);  // still usable
  double t = 0;
  CHECK(saga_solver_setup_seconds(s, "blah", 0, &t) == SAGA_ERROR_INPUT);
  CHECK(saga_solver_setup_seconds(nullptr, nullptr, 0, &t) == SAGA_ERROR_INPUT);
  saga_solver_destroy(s);
  saga_solver_destroy(nullptr);
}

TEST_CASE("C API: a handle from a YAML or JSON config (text or file) equals one set by name; bad configs say where") {
  const HostCsr h = to_host_csr(poisson(Stencil::fd2d_5pt, 48, Space::host));
  const int n = h.rows;
  const std::vector<double> b(n, 1.0);
  auto solve = [&](saga_solver s) {
    std::vector<double> x(n, 0.0);
    REQUIRE(saga_solver_setup(s, n, int32_offsets(h).data(), h.col.data(), h.val.data()) == SAGA_OK);
    REQUIRE(saga_solver_solve(s, b.data(), x.data()) == SAGA_OK);
    int its = 0, conv = 0;
    double rel = 0;
    REQUIRE(saga_solver_result(s, &its, &conv, &rel) == SAGA_OK);
    CHECK(conv == 1);
    return std::pair{its, x};
  };
  saga_solver by_name = nullptr;
  REQUIRE(saga_solver_create(&by_name, "host") == SAGA_OK);
  REQUIRE(saga_solver_set_many(by_name, "amg.smoother=chebyshev; amg.smoother.degree=2; amg.theta=0.05; "
                                        "solver.type=fgmres; solver.restart=20; solver.tolerance=1e-10") == SAGA_OK);
  const auto want = solve(by_name);
  saga_solver_destroy(by_name);
  const char* yaml =
      "# a solver config\n"
      "amg:\n  theta: 0.05\n  smoother: {name: chebyshev, degree: 2}\n"
      "solver: {type: fgmres, restart: 20, tolerance: 1.0e-10}\n"
      "backend: host\n";
  const char* json =
      "{\"amg\": {\"theta\": 0.05, \"smoother\": {\"name\": \"chebyshev\", \"degree\": 2}},\n"
      " \"solver\": {\"type\": \"fgmres\", \"restart\": 20, \"tolerance\": 1e-10}, \"backend\": \"host\"}";
  for (const char* text : {yaml, json}) {
    saga_solver s = nullptr;
    REQUIRE(saga_solver_create_from_config(&s, text, nullptr) == SAGA_OK);
    const auto got = solve(s);
    CHECK(got.first == want.first);
    CHECK(got.second == want.second);  // the same parameters: the same iterates
    saga_solver_destroy(s);
  }
  // A `saga solve` config file as it is (its problem section ignored), backend from the caller.
  const std::string path = std::string(SAGA_SOURCE_DIR) + "/examples/c_poisson.yaml";
  saga_solver f = nullptr;
  REQUIRE(saga_solver_create_from_config(&f, path.c_str(), "host") == SAGA_OK);
  CHECK(solve(f).first > 0);
  saga_solver_destroy(f);
  for (const char* seed : {"poisson_2d5_N512.yaml", "poisson_3d27_N64.yaml", "updates_values_3d7.yaml"}) {
    CAPTURE(seed);
    const std::string p = std::string(SAGA_SOURCE_DIR) + "/configs/" + seed;
    saga_solver s = nullptr;
    CHECK(saga_solver_create_from_config(&s, p.c_str(), "host") == SAGA_OK);
    saga_solver_destroy(s);
  }
  // Bad configs: the file:line:col and the key.
  struct Bad {
    const char* text;
    const char* says;
  };
  for (const Bad& bad : {Bad{"amg: {theta: 0.1}\nsolverr: {type: pcg}\n", "config:2:1: unknown section 'solverr'"},
                         Bad{"amg:\n  theta: lots\n", "config:2:10: amg.theta"},
                         Bad{"amg: {smoother: {name: nosuch}}\n", "nosuch"},
                         Bad{"amg: {theta: 0.1}\namg: {theta: 0.2}\n", "'amg' given twice"},
                         Bad{"amg: [1, 2\n", "YAML syntax error"},
                         Bad{"/no/such/file.yaml", "a path to a config file that exists"},
                         Bad{"backend: gpu\n", "config:1:10: unknown backend 'gpu'"}}) {
    const std::string text = bad.text;
    CAPTURE(text);
    int marker = 0;
    saga_solver s = reinterpret_cast<saga_solver>(&marker);  // must be reset to null on failure
    CHECK(saga_solver_create_from_config(&s, bad.text, nullptr) != SAGA_OK);
    CHECK(s == nullptr);
    CHECK(std::string(saga_last_error()).find(bad.says) != std::string::npos);
    MESSAGE(std::string(saga_last_error()));
  }
  CHECK(saga_solver_create_from_config(nullptr, yaml, nullptr) == SAGA_ERROR_INPUT);
}

TEST_CASE("C API: solver.preconditioner none sets up no hierarchy; apply says so, solve and resetup work") {
  const HostCsr h = to_host_csr(poisson(Stencil::fd2d_5pt, 30, Space::host));
  const int n = h.rows;
  saga_solver s = nullptr;
  REQUIRE(saga_solver_create(&s, "host") == SAGA_OK);
  CHECK(saga_solver_set_many(s, "solver.type = pcg; solver.preconditioner = none; solver.tolerance = 1e-10") ==
        SAGA_OK);
  REQUIRE(saga_solver_setup(s, n, int32_offsets(h).data(), h.col.data(), h.val.data()) == SAGA_OK);
  int levels = -1;
  double oc = -1;
  CHECK(saga_solver_hierarchy(s, &levels, &oc) == SAGA_OK);
  CHECK(levels == 0);
  CHECK(oc == 0.0);
  std::vector<double> b(n, 1.0), x(n, 0.0), z(n, 0.0);
  const int its = solved_iterations(s, b, x, 1e-10);
  // The same iterates as CG on the matrix alone.
  const CsrMatrix A = from_host_csr(h, Space::host);
  SolverParams sp;
  sp.type = "pcg";
  sp.tolerance = 1e-10;
  Vector xc = Vector::zeros(n, Space::host);
  CHECK(krylov_solve(MatrixOperator(A), nullptr, ones(n, Space::host), xc, sp).iterations == its);
  CHECK(max_rel_diff(xc.to_vector(), x) == 0.0);
  CHECK(saga_solver_apply(s, b.data(), z.data()) == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("no AMG preconditioner") != std::string::npos);
  // Resetup with doubled values: the solution halves.
  std::vector<double> v2(h.val);
  for (double& v : v2) v *= 2;
  REQUIRE(saga_solver_resetup(s, v2.data(), 0) == SAGA_OK);
  std::vector<double> x2(n, 0.0);
  REQUIRE(saga_solver_solve(s, b.data(), x2.data()) == SAGA_OK);
  CHECK(x2[n / 2] == doctest::Approx(x[n / 2] / 2).epsilon(1e-8));
  saga_solver_destroy(s);
}
