// The Gmsh .msh reader (formats 2.2 and 4.1): hand-written files, broken files
// with line numbers, and the shipped mesh fixtures (made by gmsh from
// configs/meshes/*.geo) assembled and solved.
#include <Eigen/SparseCholesky>
#include <fstream>
#include <sstream>

#include "api/saga.hpp"
#include "problems/fe_assembly.hpp"
#include "problems/gmsh_reader.hpp"
#include "sparse/transpose.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// The unit square cut into 4 triangles around its centre (node 5), boundary
// lines in physical group 1 "wall", triangles in group 2 "domain".
const char* kSquareV22 = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
2
1 1 "wall"
2 2 "domain"
$EndPhysicalNames
$Nodes
5
1 0 0 0
2 1 0 0
3 1 1 0
4 0 1 0
5 0.5 0.5 0
$EndNodes
$Elements
9
1 15 2 0 1 1
2 1 2 1 1 1 2
3 1 2 1 2 2 3
4 1 2 1 3 3 4
5 1 2 1 4 4 1
6 2 2 2 1 1 2 5
7 2 2 2 1 2 3 5
8 2 2 2 1 3 4 5
9 2 2 2 1 4 1 5
$EndElements
)";

const char* kSquareV41 = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
2
1 1 "wall"
2 2 "domain"
$EndPhysicalNames
$Entities
1 1 1 0
1 0 0 0 0
1 0 0 0 1 1 0 1 1 2 1 -1
1 0 0 0 1 1 0 1 2 1 1
$EndEntities
$Nodes
2 5 1 5
0 1 0 4
1
2
3
4
0 0 0
1 0 0
1 1 0
0 1 0
2 1 1 1
5
0.5 0.5 0 0.3 0.4
$EndNodes
$Elements
3 9 1 9
0 1 15 1
1 1
1 1 1 4
2 1 2
3 2 3
4 3 4
5 4 1
2 1 2 4
6 1 2 5
7 2 3 5
8 3 4 5
9 4 1 5
$EndElements
)";

std::string replace_line(const std::string& text, int line, const std::string& with) {
  std::istringstream in(text);
  std::string out, l;
  for (int k = 1; std::getline(in, l); ++k) out += (k == line ? with : l) + "\n";
  return out;
}

void check_square(const Mesh& m) {
  CHECK(m.dim == 2);
  CHECK(m.vertices() == 5);
  CHECK(m.cell_count() == 4);
  CHECK(m.facets.size() == 8);
  CHECK(m.group_names.at(1) == "wall");
  CHECK(m.group_names.at(2) == "domain");
  for (int g : m.cell_group) CHECK(g == 2);
  for (int g : m.facet_group) CHECK(g == 1);
}
}  // namespace

TEST_CASE("Gmsh 2.2 and 4.1: the same hand-written mesh") {
  Mesh a = read_gmsh_text(kSquareV22, "square22.msh");
  Mesh b = read_gmsh_text(kSquareV41, "square41.msh");
  check_square(a);
  check_square(b);
  CHECK(a.coords == b.coords);
  CHECK(a.cells == b.cells);
  CHECK(a.facets == b.facets);
  // Whole boundary or the "wall" group: the 4 corners. The centre row: each of
  // the 4 right triangles contributes 1 (right angle at the centre).
  for (Mesh* m : {&a, &b}) {
    CHECK(mark_boundary_dirichlet(*m) == 4);
    CHECK(mark_group_dirichlet(*m, {"wall"}) == 4);
    CHECK(mark_group_dirichlet(*m, {"1"}) == 4);
    const FeSystem s = assemble_p1(*m, {}, Space::host);
    REQUIRE(s.A.rows() == 1);
    CHECK(to_host_csr(s.A).val[0] == doctest::Approx(4.0));
  }
  CHECK_THROWS_WITH_AS(mark_group_dirichlet(a, {"inlet"}), doctest::Contains("no boundary facets in physical group 'inlet'"),
                       InputError);
}

TEST_CASE("broken Gmsh files: errors name the file and line") {
  struct Case {
    const char* base;
    int line;
    const char* with;
    const char* expect;
  };
  const std::string v22 = kSquareV22, v41 = kSquareV41;
  const Case cases[] = {
      {kSquareV22, 2, "2.2 1 8", "square.msh:2: binary .msh files are not supported"},
      {kSquareV22, 2, "4.0 0 8", "square.msh:2: format version 4 is not supported"},
      {kSquareV22, 11, "1 0 zero 0", "square.msh:11: y: 'zero' is not a number"},
      {kSquareV22, 12, "2 1 0", "square.msh:12: missing z"},
      {kSquareV22, 12, "1 1 0 0", "square.msh:12: node 1 is defined twice"},
      {kSquareV22, 26, "6 2 2 2 1 1 2 7", "square.msh:26: element 6 refers to node 7, which is not defined"},
      {kSquareV22, 26, "6 3 2 2 1 1 2 5 4", "square.msh:26: element 6 has type 3 (quadrangle)"},
      {kSquareV22, 26, "6 2 2 2 1 1 2 5 9", "square.msh:26: unexpected '9' at the end of the line"},
      {kSquareV22, 16, "$EndNode", "square.msh:16: expected $EndNodes, found '$EndNode'"},
      {kSquareV22, 17, "$Elemnts", "square.msh:"},  // an unknown section swallows the rest: no $EndElemnts
      {kSquareV41, 13, "1 0 0 0 1 1 0 1 1 2", "square.msh:13: missing bounding entity"},
      {kSquareV41, 16, "2 6 1 5", "square.msh:28: the node blocks hold 5 nodes, the header says 6"},
      {kSquareV41, 28, "0.5 0.5 0 0.3 x", "square.msh:28: parametric coordinate: 'x' is not a number"},
      {kSquareV41, 40, "6 1 2 8", "square.msh:40: element 6 refers to node 8"},
      {kSquareV41, 39, "2 1 2 5", "square.msh:44: element tag: '$EndElements' is not an integer"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.with);
    const std::string text = replace_line(c.base, c.line, c.with);
    CHECK_THROWS_WITH_AS(read_gmsh_text(text, "square.msh"), doctest::Contains(c.expect), InputError);
  }
  // Truncated files and files with no cells.
  const std::string v = kSquareV22;
  CHECK_THROWS_WITH_AS(read_gmsh_text(v.substr(0, v.find("$EndElements")), "square.msh"),
                       doctest::Contains("square.msh:27: unexpected end of file, expected $EndElements"), InputError);
  CHECK_THROWS_WITH_AS(read_gmsh_text(v.substr(0, v.find("$Elements")), "square.msh"),
                       doctest::Contains("without a $Elements section"), InputError);
  CHECK_THROWS_WITH_AS(read_gmsh_text("hello\n", "x.msh"), doctest::Contains("x.msh:1: expected a section"), InputError);
  CHECK_THROWS_WITH_AS(read_gmsh_text("", "x.msh"), doctest::Contains("not a Gmsh mesh"), InputError);
  std::string lines_only = replace_line(v, 18, "5");
  lines_only.erase(lines_only.find("6 2 2 2"), lines_only.find("$EndElements") - lines_only.find("6 2 2 2"));
  CHECK_THROWS_WITH_AS(read_gmsh_text(lines_only, "square.msh"), doctest::Contains("no triangles or tetrahedra"),
                       InputError);
  CHECK_THROWS_WITH_AS(read_gmsh("/nonexistent/mesh.msh"), doctest::Contains("cannot open mesh file"), InputError);
}

TEST_CASE("shipped Gmsh fixtures: both formats agree, assemble SPD, AMG-PCG converges") {
  const std::string dir = SAGA_SOURCE_DIR "/tests/data/";
  for (const char* name : {"horseshoe", "box"}) {
    CAPTURE(name);
    const Mesh a = read_gmsh(dir + name + "_v22.msh"), b = read_gmsh(dir + name + "_v41.msh");
    CHECK(a.dim == (std::string(name) == "box" ? 3 : 2));
    CHECK(a.vertices() == b.vertices());
    CHECK(a.cells == b.cells);
    CHECK(a.coords == b.coords);
    CHECK(a.facet_group == b.facet_group);
  }
  Mesh m = read_gmsh(dir + "horseshoe_h005_v41.msh");
  CHECK(m.group_names.size() == 4);
  const index_t all = mark_boundary_dirichlet(m);
  const index_t feet = mark_group_dirichlet(m, {"feet"});
  CHECK(feet < all);
  CHECK(feet > 4);
  for (const auto& coefficients : {std::map<std::string, double>{}, std::map<std::string, double>{{"arch", 1e4}}}) {
    FeCoefficients k;
    k.group_values = coefficients;
    const FeSystem s = assemble_p1(m, k, Space::host);
    CHECK(s.A.nnz() == s.A.rows() + 2 * interior_edges(m));
    Eigen::SparseMatrix<double> e = to_eigen(s.A);
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(e);
    CHECK(llt.info() == Eigen::Success);
    SolverParams sp;
    AmgParams ap;
    ap.coarse_size = 50;
    Solver solver(s.A.clone(), ap, sp);
    Vector x = Vector::zeros(s.A.rows(), Space::host);
    const SolveResult r = solver.solve(Vector::from_vector(std::vector<double>(s.A.rows(), 1.0), Space::host), x);
    CHECK(r.converged);
    CHECK(r.iterations < 30);
    CHECK(solver.stats().levels.size() >= 2);
  }
  FeCoefficients bad;
  bad.group_values = {{"tail", 2.0}};
  CHECK_THROWS_WITH_AS(assemble_p1(m, bad, Space::host), doctest::Contains("no cells in physical group 'tail'"),
                       InputError);
}
