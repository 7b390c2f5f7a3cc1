// The JSON reports validate against their documented schemas
// (docs/report.schema.json for `saga solve --report`,
// docs/profile.schema.json for `saga profile-setup --json`), and the
// validator rejects broken reports.
#include <limits>

#include "app/profile.hpp"
#include "app/run.hpp"
#include "tests/helpers.hpp"
#include "tests/json_schema.hpp"

using namespace saga;
using namespace saga::test;

namespace {
void check_valid(const SchemaValidator& v, const nlohmann::json& doc) {
  const auto errors = v.validate(doc);
  for (const auto& e : errors) MESSAGE(e);
  CHECK(errors.empty());
}
}  // namespace

TEST_CASE("saga solve reports validate against docs/report.schema.json") {
  const SchemaValidator v(load_json(SAGA_SOURCE_DIR "/docs/report.schema.json"));
  const char* configs[] = {
      "problem: {type: poisson, stencil: 2d5, N: 40}",
      "problem: {type: fe, mesh: box, cells: 8, coefficient: {type: checkerboard, contrast: 100, blocks: 2}}",
      "problem: {type: poisson, stencil: 3d7, N: 5, rhs: ones}",  // one level: no SpGEMM entries
      "problem: {type: poisson, stencil: 2d5, N: 30}\nsolver: {type: pcg, max_iterations: 2}",  // not converged
      "problem: {type: poisson, stencil: 2d5, N: 30}\nupdates: {steps: 2, edges: 0.02}",  // update steps
      "problem: {type: poisson, stencil: 2d5, N: 30}\nupdates: {steps: 2, couplings: existing}",  // numeric resetups
  };
  for (const char* text : configs) {
    CAPTURE(text);
    const RunResult r = run_solve(parse_config(text, "c.yaml"), Executor::host());
    const nlohmann::json j = to_json(r);
    check_valid(v, j);
    CHECK(j["hierarchy"]["levels"].size() == r.hierarchy.levels.size());
    CHECK(j["solve"]["residual_history"].size() == static_cast<std::size_t>(r.solve.iterations + 1));
    CHECK(j.contains("updates") == (r.config.updates.steps > 0));
  }
  // The validator is not vacuous.
  nlohmann::json j = to_json(run_solve(parse_config("problem: {type: poisson, stencil: 2d5, N: 20}", "c.yaml"),
                                       Executor::host()));
  j["solve"].erase("iterations");
  j["backend"] = "tpu";
  j["hierarchy"]["levels"][0]["rows"] = -3;
  j["setup"]["phase_seconds"]["bogus"] = 1.0;
  const auto errors = v.validate(j);
  CHECK(errors.size() == 4);
}

TEST_CASE("saga solve --repeat: every run's times, the same iterations, updates once, a valid report") {
  const SchemaValidator v(load_json(SAGA_SOURCE_DIR "/docs/report.schema.json"));
  const RunConfig c = parse_config("problem: {type: poisson, stencil: 2d5, N: 30}\nupdates: {steps: 1, edges: 0.02}",
                                   "c.yaml");
  const RunResult r = run_solve_repeated(c, 3, Executor::host());
  REQUIRE(r.repeats.size() == 3);
  for (const auto& x : r.repeats) {
    CHECK(x.iterations == r.solve.iterations);  // deterministic: the same hierarchy and iterates each run
    CHECK(x.setup_seconds > 0);
    CHECK(x.solve_seconds > 0);
  }
  CHECK(r.repeats.front().setup_seconds == r.setup_seconds);
  CHECK(r.updates.size() == 1);
  const nlohmann::json j = to_json(r);
  check_valid(v, j);
  CHECK(j["repeats"]["runs"].size() == 3);
  const auto* best = r.best_repeat();
  REQUIRE(best != nullptr);
  for (const auto& x : r.repeats) CHECK(best->setup_seconds + best->solve_seconds <= x.setup_seconds + x.solve_seconds);
  CHECK(format_summary(r).find("repeats   3 runs") != std::string::npos);
  // One run: no repeats in the report; none at all is refused.
  CHECK_FALSE(to_json(run_solve_repeated(c, 1, Executor::host())).contains("repeats"));
  CHECK_THROWS_AS(run_solve_repeated(c, 0, Executor::host()), InputError);
}

TEST_CASE("a broken-down solve still writes a valid report: non-finite residuals as strings") {
  const SchemaValidator v(load_json(SAGA_SOURCE_DIR "/docs/report.schema.json"));
  RunResult r = run_solve(parse_config("problem: {type: poisson, stencil: 2d5, N: 20}\nsolver: {type: pcg, max_iterations: 3}",
                                       "c.yaml"),
                          Executor::host());
  r.solve.converged = false;
  r.solve.residual_history.push_back(std::numeric_limits<double>::infinity());
  r.solve.residual_history.push_back(std::numeric_limits<double>::quiet_NaN());
  r.solve.relative_residual = std::numeric_limits<double>::quiet_NaN();
  r.solve.convergence_factor = std::numeric_limits<double>::infinity();
  r.error = std::numeric_limits<double>::quiet_NaN();
  const nlohmann::json j = to_json(r);
  check_valid(v, j);
  CHECK(j["solve"]["relative_residual"] == "NaN");
  CHECK(j["solve"]["convergence_factor"] == "Infinity");
  CHECK(j["solve"]["residual_history"].back() == "NaN");
  CHECK(j["error"] == "NaN");
  // JSON numbers cannot be NaN: no silent nulls (as values; "nullspace" is a key).
  const std::string text = j.dump();
  for (const char* null_value : {":null", ",null", "[null"}) CHECK(text.find(null_value) == std::string::npos);
}

TEST_CASE("profile-setup JSON validates against docs/profile.schema.json; repeated profiles agree") {
  const SchemaValidator v(load_json(SAGA_SOURCE_DIR "/docs/profile.schema.json"));
  const RunConfig c = parse_config("problem: {type: poisson, stencil: 2d9, N: 64}", "c.yaml");
  const SetupProfile p = profile_setup(c, Executor::host(), 3);
  check_valid(v, to_json(p));
  CHECK(p.repeat == 3);
  CHECK(p.spgemm == "gustavson");  // the registry names what ran: the host default
  CHECK(p.setup.min <= p.setup.median);
  CHECK(p.setup.median <= p.setup.max);
  // The products of each SpGEMM do not depend on the repetition or timing.
  REQUIRE(!p.spgemm_products.empty());
  for (const auto& sp : p.spgemm_products) {
    CHECK(sp.products >= sp.nnz);
    CHECK(sp.nnz > 0);
  }
  double phases = 0;
  for (const auto& t : p.phase_total) phases += t.median;
  CHECK(phases <= 1.5 * p.setup.max);
  CHECK(p.spgemm_share() > 0);
  CHECK(p.spgemm_share() < 1);
  std::ostringstream csv;
  write_profile_csv(p, csv, true);
  const std::string text = csv.str();
  CHECK(std::count(text.begin(), text.end(), '\n') ==
        1 + 1 + static_cast<long>(p.phases.size()) + 1 + static_cast<long>(p.phases.size() * p.phase_level.size()));
  CHECK_THROWS_WITH_AS(profile_setup(c, Executor::host(), 1, "nonexistent"), doctest::Contains("unknown SpGEMM algorithm 'nonexistent'"),
                       InputError);
  const TimeStat t = time_stat({3, 1, 2, 10});
  CHECK(t.median == 2.5);
  CHECK(t.spread() == doctest::Approx(9 / 2.5));
}
