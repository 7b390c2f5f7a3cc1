// The component layer: registries (names, defaults, backend support, errors
// that list the choices), parameters declared once (read, validate, list,
// document), configs as trees of (name, options) nodes with per-level lists,
// the executor scopes, and the convection-diffusion generator's entries.
#include "amg/aggregation.hpp"
#include "amg/coarse_solver.hpp"
#include "amg/strength.hpp"
#include "api/saga.hpp"
#include "app/component_json.hpp"
#include "app/config.hpp"
#include "core/device.hpp"
#include "problems/problem.hpp"
#include "solver/cycle.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/config_errors.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
std::string err(const std::string& text) { return test::config_error(text); }
}  // namespace

TEST_CASE("registries know their components, defaults and backends") {
  CHECK(smoothers().has("jacobi"));
  CHECK(cycles().names() == std::vector<std::string>{"V", "W", "F"});
  for (const char* n : {"pcg", "cg", "fcg", "gmres", "amg"}) CHECK(krylov_methods().has(n));
  CHECK_FALSE(krylov_methods().has("sor"));
  CHECK(amg::coarse_solvers().names() == std::vector<std::string>{"dense_cholesky", "dense_lu"});
  CHECK(amg::strength_measures().default_name(Space::host) == "symmetric");
  CHECK(amg::aggregation_methods().default_name(Space::host) == "blocked");
  CHECK(problem_generators().names() ==
        std::vector<std::string>{"poisson", "fe", "matrix_market", "convection_diffusion", "rmat_laplacian", "elasticity"});
  CHECK(smoothers().default_name(Space::host) == "jacobi");
  CHECK(krylov_methods().resolve(Component("auto"), Space::host) == "pcg");
  CHECK(spgemm_registry().resolve(Component(), Space::host) == "gustavson");
  CHECK(spmv_registry().resolve(Component(), Space::host) == "omp_rows");
  if (device::compiled()) {
    CHECK(spgemm_registry().default_name(Space::device) == "binned");
    CHECK(spgemm_registry().names(Space::device) == std::vector<std::string>{"binned", "esc", "cusparse"});
    CHECK(spmv_registry().default_name(Space::device) == "binned");
    CHECK(spmv_registry().names(Space::device) ==
          std::vector<std::string>{"binned", "scalar", "csr_vector", "cusparse"});
    CHECK_THROWS_WITH_AS(spgemm_registry().validate(Component("esc"), Space::host),
                         doctest::Contains("amg.spgemm: SpGEMM algorithm 'esc' does not run on the host backend "
                                           "(choices there: gustavson)"),
                         InputError);
    spgemm_registry().validate(Component("binned", Options().set("long_rows", "esc")), Space::device);
    spgemm_registry().validate(Component("binned", Options().set("long_rows", "merge")), Space::device);
    CHECK_THROWS_WITH_AS(
        spgemm_registry().validate(Component("binned", Options().set("long_rows", "bucket")), Space::device),
        doctest::Contains("long_rows"), InputError);
  }
  const std::string unknown_sor = "amg.smoother: unknown smoother 'sor' (choices: " + join_names(smoothers().names()) + ")";
  CHECK_THROWS_WITH_AS(smoothers().validate(Component("sor")), doctest::Contains(unknown_sor.c_str()), InputError);
}

TEST_CASE("parameters are declared once: read, checked, listed, documented") {
  const auto docs = krylov_methods().entry(Component("gmres"), Space::host).docs();
  REQUIRE(docs.size() == 1);
  CHECK(docs[0].key == "restart");
  CHECK(docs[0].type == "integer");
  CHECK(docs[0].default_value == "30");
  CHECK(docs[0].range == "[1, 1000]");
  const ParamList values = krylov_methods().values(Component("gmres", Options().set("restart", 12)), Space::host);
  CHECK(std::get<std::int64_t>(values[0].value) == 12);
  Component bad("gmres", Options().set("restart", "4.5", "c.yaml:7:13"));
  CHECK_THROWS_WITH_AS(krylov_methods().validate(bad), doctest::Contains("c.yaml:7:13: solver.restart: expected an "
                                                                         "integer, got '4.5'"),
                       InputError);
  CHECK_THROWS_WITH_AS(krylov_methods().validate(Component("gmres", Options().set("restart", 4000))),
                       doctest::Contains("solver.restart: 4000 is not allowed (expected [1, 1000])"), InputError);
  CHECK_THROWS_WITH_AS(krylov_methods().validate(Component("gmres", Options().set("restrat", 4))),
                       doctest::Contains("solver.restrat: unknown key (known: restart)"), InputError);
  // 'auto' means computed for weights.
  CHECK(std::get<double>(smoothers().values(Component("jacobi", Options().set("omega", "auto")), Space::host)[0].value) ==
        0.0);
  // Lists and maps (nested YAML).
  const auto fe = problem_generators().values(
      Component("fe", Options()
                          .set("mesh", "x.msh")
                          .set("dirichlet", "feet, walls")
                          .set("coefficient.type", "groups")
                          .set("coefficient.groups.arch", 100)),
      Space::host);
  for (const auto& e : fe) {
    if (e.key == "dirichlet") CHECK(std::get<StringList>(e.value) == StringList{"feet", "walls"});
    if (e.key == "coefficient.groups") CHECK(std::get<NumberMap>(e.value).at("arch") == 100);
  }
  CHECK_THROWS_WITH_AS(
      problem_generators().validate(Component("fe", Options().set("coefficient.groups.arch", -1))),
      doctest::Contains("problem.coefficient.groups.arch: -1 is not allowed (expected > 0)"), InputError);
}

TEST_CASE("configs are trees of (name, options); every old form still reads") {
  const RunConfig c = parse_config(
      "problem: {type: convection_diffusion, N: 40, peclet: 2}\n"
      "amg:\n"
      "  smoother: {name: jacobi, omega: 0.6}\n"
      "  cycle: F\n"
      "  coarse_solver: dense_lu\n"
      "  levels: [{theta: 0.25}, {smoother: jacobi, post_sweeps: 2}]\n"
      "solver: {type: gmres, restart: 20, tolerance: 1e-9, preconditioner: {name: pcg, max_iterations: 2}}\n",
      "c.yaml");
  CHECK(c.amg.smoother.name == "jacobi");
  CHECK(c.amg.smoother.options.find("omega")->text == "0.6");
  CHECK(c.amg.smoother.options.find("omega")->where == "c.yaml:3:35");
  CHECK(c.amg.cycle.name == "F");
  CHECK(c.amg.levels.size() == 2);
  CHECK(static_cast<const SetupParams&>(c.amg).at_level(0).theta == 0.25);
  CHECK(static_cast<const SetupParams&>(c.amg).at_level(1).theta == 0.08);
  CHECK(static_cast<const CycleParams&>(c.amg).at_level(c.amg.levels, 1).post_sweeps == 2);
  CHECK(static_cast<const CycleParams&>(c.amg).at_level(c.amg.levels, 1).smoother.name == "jacobi");
  CHECK(c.solver.type.name == "gmres");
  CHECK(c.solver.type.options.find("restart")->text == "20");
  CHECK(c.solver.tolerance == 1e-9);
  CHECK(c.solver.preconditioner.name == "pcg");
  const SolverParams inner = nested_solver_params(c.solver.preconditioner);
  CHECK(inner.max_iterations == 2);
  CHECK(inner.tolerance == 0.1);
  // The report names what ran, with every parameter.
  const nlohmann::json j = amg_json(c.amg, Space::host);
  CHECK(j["smoother"]["name"] == "jacobi");
  CHECK(j["smoother"]["params"]["omega"] == 0.6);
  CHECK(j["spgemm"]["name"] == "gustavson");
  CHECK(j["strength"]["name"] == "symmetric");
  CHECK(j["aggregation"]["name"] == "blocked");
  // Old forms: a plain name, amg.omega for the smoother's weight.
  const RunConfig o = parse_config("amg: {smoother: jacobi, omega: 0.7, cycle: W}\nsolver: {type: cg}\n", "c.yaml");
  CHECK(o.amg.smoother.options.find("omega")->text == "0.7");
  CHECK(o.solver.type.name == "cg");
}

TEST_CASE("config errors for components name the file, line, key and the valid choices") {
  CHECK(err("amg: {smoother: sor}\n").find("c.yaml:1:17: amg.smoother: unknown smoother 'sor' (choices: " +
                                           join_names(smoothers().names()) + ")") == 0);
  CHECK(err("amg:\n  smoother: {name: jacobi, omega: -1}\n")
            .find("c.yaml:2:35: amg.smoother.omega: -1 is not allowed (expected >= 0") == 0);
  CHECK(err("amg: {smoother: {degree: 3}}\n").find("amg.smoother: expected a name, or a mapping with 'name'") !=
        std::string::npos);

  CHECK(err("amg: {levels: [{thetta: 1}]}\n").find("amg.levels[0].thetta: unknown key") != std::string::npos);
  CHECK(err("amg: {levels: [{smoother: sor}]}\n").find("unknown smoother 'sor'") != std::string::npos);
  CHECK(err("solver: {type: gmres, restart: 0}\n").find("c.yaml:1:32: solver.restart: 0 is not allowed") == 0);
  CHECK(err("solver: {type: bicgstab, restart: 5}\n").find("solver.restart: unknown key (this component has no "
                                                            "parameters)") != std::string::npos);
  CHECK(err("solver: {type: pcg, restart: 5}\n").find("solver.restart: unknown key (known: check_every, confirm, graph)") !=
        std::string::npos);
  CHECK(err("solver: {type: pcg, graph: always}\n").find("solver.graph: 'always'") != std::string::npos);
  CHECK(err("solver: {preconditioner: jacobl}\n").find("unknown preconditioner 'jacobl' (choices: amg, none, "
                                                        "jacobi") != std::string::npos);
  CHECK(err("solver: {preconditioner: {name: jacobi, sweeps: 0}}\n").find("solver.preconditioner.sweeps: 0 is not "
                                                                          "allowed") != std::string::npos);
  // --set overrides: a plain name gains options; bad paths are clear.
  const RunConfig o = parse_config("amg: {smoother: jacobi}\n", "c.yaml", {"amg.smoother.omega=0.5", "solver.type=cg"});
  CHECK(o.amg.smoother.options.find("omega")->text == "0.5");
  CHECK(o.solver.type.name == "cg");
  CHECK_THROWS_WITH_AS(parse_config("", "c.yaml", {"amg.smoother"}), doctest::Contains("expected KEY.PATH=VALUE"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse_config("", "c.yaml", {"amg.theta=2"}),
                       doctest::Contains("c.yaml (--set): amg.theta: 2 is not allowed"), InputError);
  CHECK(err("amg: {strength: classical}\n").find("c.yaml:1:17: amg.strength: unknown strength measure 'classical' "
                                                  "(choices: symmetric") == 0);
  CHECK(err("amg: {aggregation: {name: mis2, size: 3}}\n").find("amg.aggregation.size: unknown key") !=
        std::string::npos);
  CHECK(err("problem: {type: heat}\n").find("c.yaml:1:17: problem.type: unknown problem type 'heat' (choices: "
                                            "poisson, fe, matrix_market, convection_diffusion, rmat_laplacian, elasticity)") == 0);
  CHECK(err("problem: {type: fe, mesh: box, dirichlet: [feet]}\n").find("generated meshes have no physical groups") !=
        std::string::npos);
  if (device::compiled())  // rejected when the config is read, before any work
    CHECK(err("backend: host\namg: {spgemm: esc}\n").find("c.yaml:2:15: amg.spgemm: SpGEMM algorithm 'esc' does not "
                                                          "run on the host backend") == 0);
}

TEST_CASE("executor scopes nest; host arrays need no executor") {
  const auto h = Executor::host();
  CHECK(h->space() == Space::host);
  CHECK(h->name() == "host");
  CHECK(active_executor(Space::host) == h);
  {
    ExecutorScope s(h);
    CHECK(active_executor(Space::host) == h);
  }
  CHECK(Executor::default_for(Space::host) == h);
  Vector v = ones(10, Space::host);
  CHECK(v[3] == 1.0);
  // A solver keeps the executor it was given.
  AmgParams p;
  p.coarse_size = 10;
  const Solver s(from_host_csr(HostCsr{2, 2, {0, 1, 2}, {0, 1}, {2.0, 3.0}}, Space::host), p, {}, h);
  CHECK(s.executor() == h);
}

TEST_CASE("convection-diffusion entries: upwind stencil, exact values") {
  const ProblemContext ctx;
  // N = 3, Pe = 1, wind along +x (angle 0): west = -1 - 2, east = -1, south = north = -1, diag = 4 + 2.
  const HostCsr h = to_host_csr(problem_generators()
                                    .create(Component("convection_diffusion",
                                                      Options().set("N", 3).set("peclet", 1).set("angle", 0)),
                                            Space::host, ctx)
                                    ->generate(Space::host)
                                    .A);
  CHECK(h.rows == 9);
  CHECK(h.val.size() == 33);  // 9 + 2 * 2 * 3 * 2
  // Row 4 (the centre): south 1, west 3, centre 4, east 5, north 7.
  const std::vector<index_t> cols(h.col.begin() + h.row_ptr[4], h.col.begin() + h.row_ptr[5]);
  const std::vector<double> vals(h.val.begin() + h.row_ptr[4], h.val.begin() + h.row_ptr[5]);
  CHECK(cols == std::vector<index_t>{1, 3, 4, 5, 7});
  CHECK(vals[0] == doctest::Approx(-1.0));
  CHECK(vals[1] == doctest::Approx(-3.0));
  CHECK(vals[2] == doctest::Approx(6.0));
  CHECK(vals[3] == doctest::Approx(-1.0));
  CHECK(vals[4] == doctest::Approx(-1.0));
  // An M-matrix: interior rows sum to zero.
  double sum = 0;
  for (double v : vals) sum += v;
  CHECK(sum == doctest::Approx(0.0));
}

TEST_CASE("the amg layer's list of cycle keys in amg.levels matches the cycle's parameters") {
  // amg/ cannot see solver/cycle_params.hpp, so it names the cycle's per-level
  // keys itself (cycle_level_keys); they must stay those CycleParams declares,
  // but spmv_copies: the room of the whole cycle's copies, not one level's.
  std::set<std::string> cycle = param_keys<CycleParams>();
  CHECK(cycle.erase("spmv_copies") == 1);
  cycle.insert("smoother");
  CHECK(cycle_level_keys() == cycle);
}
