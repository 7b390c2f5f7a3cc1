// YAML config: defaults, every field, and errors that name file, line and key.
#include <filesystem>

#include "app/config.hpp"
#include "tests/config_errors.hpp"
#include "tests/helpers.hpp"

using namespace saga;

namespace {
std::string err(const std::string& text) { return test::config_error(text); }
}  // namespace

TEST_CASE("config defaults and full parse") {
  const RunConfig d = parse_config("", "c.yaml");
  CHECK(d.problem.type.name == "poisson");
  CHECK(d.amg.theta == 0.08);
  CHECK(d.solver.tolerance == 1e-8);
  const RunConfig c = parse_config(
      "problem: {type: poisson, stencil: 2d9, N: 33, rhs: ones, seed: 5}\n"
      "amg: {theta: 0.25, coarse_size: 100, max_levels: 4, smoother: jacobi, pre_sweeps: 2, post_sweeps: 3, omega: "
      "0.7, prolongator_omega: auto, cycle: W, rho_iterations: 10, seed: 9, spgemm: gustavson}\n"
      "solver: {type: amg, tolerance: 1e-6, max_iterations: 50}\nbackend: host\n",
      "c.yaml");
  CHECK(c.problem.type.name == "poisson");
  CHECK(c.problem.type.options.find("stencil")->text == "2d9");
  CHECK(c.problem.type.options.find("N")->text == "33");
  CHECK(c.problem.rhs == "ones");
  CHECK(c.problem.seed == 5);
  CHECK(c.amg.theta == 0.25);
  CHECK(c.amg.coarse_size == 100);
  CHECK(c.amg.pre_sweeps == 2);
  CHECK(c.amg.post_sweeps == 3);
  REQUIRE(c.amg.smoother.options.find("omega"));
  CHECK(c.amg.smoother.options.find("omega")->text == "0.7");
  CHECK(c.amg.prolongator_omega == 0.0);
  CHECK(c.amg.cycle == "W");
  CHECK(c.amg.spgemm.name == "gustavson");
  CHECK(c.solver.type == "amg");
  CHECK(c.solver.max_iterations == 50);
  CHECK(c.backend == "host");
}

TEST_CASE("config errors name file, line, column and key") {
  CHECK(err("problem:\n  type: poisson\n  stencl: 3d7\n").find("c.yaml:3:11: problem.stencl: unknown key (known: N, anisotropy.angle") == 0);
  CHECK(err("amg:\n  theta: abc\n").find("c.yaml:2:10: amg.theta: expected a finite number, got 'abc'") == 0);
  CHECK(err("amg:\n  theta: 2\n").find("c.yaml:2:10: amg.theta: 2 is not allowed (expected [0, 1])") == 0);
  CHECK(err("problem: {N: 1.5}\n").find("c.yaml:1:14: problem.N: expected an integer, got '1.5'") == 0);
  CHECK(err("problem: {N: 0}\n").find("c.yaml:1:14: problem.N: 0 is not allowed (expected >= 1)") == 0);
  CHECK(err("problem: {stencil: 4d}\n").find("problem.stencil: '4d' is not allowed (expected one of 2d5, 2d9, 3d7, "
                                             "3d27)") != std::string::npos);
  CHECK(err("solver: {type: gmress}\n").find("c.yaml:1:16: solver.type: unknown solver 'gmress' (choices: pcg, cg, "
                                              "fcg, gmres") == 0);
  CHECK(err("solver: {tolerance: 0}\n").find("solver.tolerance") != std::string::npos);
  CHECK(err("backend: gpu\n").find("c.yaml:1:10: backend: 'gpu'") == 0);
  CHECK(err("foo: 1\n").find("c.yaml:1:1: unknown key 'foo'") == 0);
  CHECK(err("amg: [1, 2]\n").find("'amg' must be a mapping") != std::string::npos);
  CHECK(err("amg: {cycle: X}\n").find("c.yaml:1:14: amg.cycle: unknown cycle 'X' (choices: V, W, F)") == 0);
  CHECK(err("problem: {type: poisson\n").find("c.yaml:2:1: YAML syntax error") == 0);
  CHECK(err("problem: {type: matrix_market}\n").find("problem.matrix") != std::string::npos);
  CHECK_THROWS_WITH_AS(load_config("/nonexistent.yaml"), doctest::Contains("cannot open config"), InputError);
}

TEST_CASE("every shipped config parses") {
  namespace fs = std::filesystem;
  int n = 0;
  for (const auto& e : fs::directory_iterator(fs::path(SAGA_SOURCE_DIR) / "configs"))
    if (e.path().extension() == ".yaml") {
      CAPTURE(e.path().string());
      CHECK_NOTHROW(load_config(e.path().string()));
      ++n;
    }
  CHECK(n >= 11);
}
