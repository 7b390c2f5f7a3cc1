// The shipped geometries meshed by gmsh in both formats, read back, assembled
// and solved, also through a YAML config the way a user runs them.
#include <filesystem>
#include <fstream>

#include "app/config.hpp"
#include "app/run.hpp"
#include "problems/fe_assembly.hpp"
#include "problems/gmsh_geo.hpp"
#include "problems/gmsh_reader.hpp"
#include "tests/helpers.hpp"

using namespace saga;

namespace {
const std::string kMeshes = SAGA_SOURCE_DIR "/configs/meshes/";
}

TEST_CASE("each .geo meshes in formats 2.2 and 4.1 to the same mesh") {
  const auto dir = std::filesystem::temp_directory_path() / "saga-gmsh-test";
  std::filesystem::create_directories(dir);
  for (const auto& entry : {std::pair<const char*, double>{"square", 0.1}, {"horseshoe", 0.1}, {"box", 0.2}}) {
    const char* name = entry.first;  // (not a structured binding: CAPTURE is a lambda; clang 14)
    const double h = entry.second;
    CAPTURE(name);
    const std::string geo = kMeshes + name + ".geo";
    const std::string a = (dir / (std::string(name) + "22.msh")).string(), b = (dir / (std::string(name) + "41.msh")).string();
    run_gmsh(geo, h, "msh22", a);
    run_gmsh(geo, h, "msh41", b);
    Mesh m22 = read_gmsh(a), m41 = read_gmsh(b);
    CHECK(m22.dim == (std::string(name) == "box" ? 3 : 2));
    CHECK(m22.vertices() == m41.vertices());
    CHECK(m22.cells == m41.cells);
    CHECK(m22.facet_group == m41.facet_group);
    mark_boundary_dirichlet(m41);
    const FeSystem s = assemble_p1(m41, {}, Space::host);
    CHECK(s.A.nnz() == s.A.rows() + 2 * interior_edges(m41));
    // Finer h, more vertices.
    CHECK(mesh_from_geo(geo, h / 2).vertices() > 2 * m41.vertices());
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a config with a .geo mesh solves; a broken .geo reports gmsh's message") {
  const std::string cfg = kMeshes + "../fe_test.yaml";  // relative paths resolve against the config's folder
  RunConfig c = parse_config(
      "problem: {type: fe, mesh: meshes/horseshoe.geo, h: 0.04, dirichlet: [feet],\n"
      "          coefficient: {type: groups, groups: {arch: 100}}}\n"
      "backend: host\n",
      cfg);
  CHECK(c.problem.type.options.find("mesh")->text == "meshes/horseshoe.geo");
  CHECK(c.problem.directory == kMeshes + "..");  // where the mesh path is resolved
  const RunResult r = run_solve(c, Executor::host());
  CHECK(r.solve.converged);
  CHECK(r.rows > 1000);
  CHECK(r.solve.iterations < 30);
  CHECK(r.problem.find("kappa(arch)=100") != std::string::npos);

  const auto bad = std::filesystem::temp_directory_path() / "saga-broken.geo";
  {
    std::ofstream out(bad);
    out << "Point(1) = {0, 0, 0};\nLine(1) = {1, 7};\n";
  }
  CHECK_THROWS_WITH_AS(mesh_from_geo(bad.string(), 0.1), doctest::Contains("gmsh failed"), InputError);
  std::filesystem::remove(bad);
}
