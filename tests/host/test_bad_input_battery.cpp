// The bad-input battery (tests/cli/bad_input_cases.hpp, docs/reliability.md):
// the `saga` binary on every class of bad input, in a fresh folder each.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/device.hpp"
#include "problems/gmsh_geo.hpp"
#include "tests/cli/bad_input_cases.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("bad-input battery: every class gets a clear error, no crash, nothing claiming success") {
  const std::vector<BadInputCase> cases = bad_input_cases();
  std::set<std::string> names;
  for (const auto& c : cases) names.insert(c.name);
  CHECK(names.size() == cases.size());  // each case is its own class
  CHECK(cases.size() >= 100);
  MESSAGE("bad-input classes: " << cases.size());
  const fs::path root = fs::temp_directory_path() / fmt::format("saga-battery-{}", ::getpid());
  fs::remove_all(root);
  int index = 0;
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CAPTURE(c.args);
    const fs::path dir = root / std::to_string(index++);
    fs::create_directories(dir);
    for (const auto& [name, text] : c.files) {
      const fs::path p = dir / name;
      fs::create_directories(p.parent_path());
      std::ofstream(p, std::ios::binary) << text;
    }
    // Bounded: a hang is a failure, not a stuck CI. The host-memory budget is
    // the same on every machine (a size line that needs more is refused).
    const std::string cmd = fmt::format("cd '{}' && SAGA_HOST_MEMORY_LIMIT=8000000000 timeout 120 '{}' {} > out.txt 2>&1",
                                        dir.string(), SAGA_CLI, c.args);
    const int rc = std::system(cmd.c_str());
    const std::string out = slurp(dir / "out.txt");
    CAPTURE(out);
    if (std::getenv("SAGA_BATTERY_SHOW")) MESSAGE(c.name << " -> exit " << WEXITSTATUS(rc) << ": " << out);
    REQUIRE(WIFEXITED(rc));
    const int status = WEXITSTATUS(rc);
    CHECK(status != 124);  // timeout's status: the case hung
    CHECK(status == c.exit_status);
    if (c.needs_gmsh && !gmsh_available()) {  // .geo meshing needs the gmsh program: say so
      CHECK(out.find("needs the gmsh program") != std::string::npos);
      continue;
    }
    for (const auto& m : c.message) CHECK_MESSAGE(out.find(m) != std::string::npos, "missing: " << m);
    CHECK(out.find("terminate called") == std::string::npos);
    CHECK(out.find(".cpp:") == std::string::npos);  // source locations only with --verbose
    const fs::path report = dir / "r.json";
    if (c.exit_status == 3) {
      REQUIRE(fs::is_regular_file(report));
      const auto j = nlohmann::json::parse(slurp(report));
      CHECK(j["solve"]["converged"] == false);
    } else if (c.exit_status != 0) {
      CHECK(!fs::is_regular_file(report));  // nothing written that claims success
    }
  }
  fs::remove_all(root);
}

TEST_CASE("--verbose keeps the source location of an error") {
  const fs::path dir = fs::temp_directory_path() / fmt::format("saga-verbose-{}", ::getpid());
  fs::create_directories(dir);
  std::ofstream(dir / "c.yaml") << kMtxConfig;
  std::ofstream(dir / "m.mtx") << mtx_header("2 2 2") + "1 1 1\n2 2 -3\n";
  const std::string cmd = fmt::format("cd '{}' && '{}' solve c.yaml -v > out.txt 2>&1", dir.string(), SAGA_CLI);
  CHECK(WEXITSTATUS(std::system(cmd.c_str())) == 1);
  CHECK(slurp(dir / "out.txt").find(".cpp:") != std::string::npos);
  fs::remove_all(dir);
}
