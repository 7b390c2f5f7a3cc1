#pragma once
// The bad-input battery (docs/reliability.md): every class of bad input a user
// can give the `saga` command, with what saga must answer. Each case runs the
// real binary in a fresh folder holding its files; the checks are the exit
// status, substrings the message must contain (the file:line, key or row, and
// the problem), and that no report claiming success was written.
#include <string>
#include <utility>
#include <vector>

namespace saga::test {

struct BadInputCase {
  std::string name;                                         // the class of bad input
  std::vector<std::pair<std::string, std::string>> files;   // written into the case's folder
  std::string args;                                         // after `saga`
  int exit_status;                                          // 1 error, 2 command line, 3 not converged
  std::vector<std::string> message;                         // substrings of stdout + stderr, all required
  bool needs_gmsh = false;  // meshes a .geo: where gmsh is missing, the message must say that instead
};

// A 3x3 SPD matrix in Matrix Market form, and a config that reads m.mtx.
inline const char* kGoodMtx = "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 4\n2 1 -1\n2 2 4\n3 2 -1\n3 3 4\n";
inline const char* kMtxConfig = "problem: {type: matrix_market, matrix: m.mtx}\nbackend: host\n";
inline std::string mtx_header(const std::string& size) {
  return "%%MatrixMarket matrix coordinate real general\n" + size + "\n";
}
inline const char* kMsh22Head = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
inline const char* kMeshConfig = "problem: {type: fe, mesh: m.msh}\nbackend: host\n";

inline std::vector<BadInputCase> bad_input_cases() {
  using F = std::vector<std::pair<std::string, std::string>>;
  auto cfg = [](const std::string& text) { return F{{"c.yaml", text}}; };
  auto mtx = [](const std::string& text) { return F{{"c.yaml", kMtxConfig}, {"m.mtx", text}}; };
  auto msh = [](const std::string& text) { return F{{"c.yaml", kMeshConfig}, {"m.msh", text}}; };
  const std::string solve = "solve c.yaml --backend host --report r.json";
  std::vector<BadInputCase> c;
  // ---- YAML configs -----------------------------------------------------------------------------
  c.push_back({"yaml syntax error", cfg("problem: {type: poisson\n"), solve, 1, {"c.yaml:", "YAML syntax error"}});
  c.push_back({"yaml tab indentation", cfg("problem:\n\ttype: poisson\n"), solve, 1, {"c.yaml:", "YAML syntax error"}});
  c.push_back({"yaml scalar document", cfg("42\n"), solve, 1, {"c.yaml", "mapping"}});
  c.push_back({"yaml list document", cfg("- problem\n- amg\n"), solve, 1, {"c.yaml", "mapping"}});
  c.push_back({"yaml binary garbage", cfg(std::string("\x01\x02\xff\xfe{[", 6)), solve, 1, {"c.yaml"}});
  c.push_back({"yaml complex key (fuzz)", cfg("amg:\n  levels:\n? - {theta: 1}\n: 2\n"), solve, 1, {"c.yaml:3", "plain name"}});
  c.push_back({"updates zero steps", cfg("updates: {steps: 0}\n"), solve, 1, {"c.yaml:1", "updates.steps: 0"}});
  c.push_back({"updates negative edges", cfg("updates: {steps: 2, edges: -0.1}\n"), solve, 1,
               {"c.yaml:1", "updates.edges: -0.1"}});
  c.push_back({"updates unknown key", cfg("updates: {steps: 2, edgez: 3}\n"), solve, 1, {"c.yaml:1", "updates.edgez"}});
  c.push_back({"updates not a mapping", cfg("updates: 3\n"), solve, 1, {"c.yaml:1", "'updates' must be a mapping"}});
  c.push_back({"unknown top-level key", cfg("probelm: {type: poisson}\n"), solve, 1, {"c.yaml:1:1", "probelm", "known"}});
  c.push_back({"duplicate top-level key", cfg("problem: {type: poisson}\nproblem: {type: fe}\n"), solve, 1,
               {"c.yaml:2:1", "duplicate key 'problem'", "line 1"}});
  c.push_back({"duplicate nested key", cfg("problem:\n  type: poisson\n  N: 16\n  N: 32\n"), solve, 1,
               {"c.yaml:4:3", "duplicate key 'N'", "line 3"}});
  c.push_back({"problem not a mapping", cfg("problem: [1, 2]\n"), solve, 1, {"c.yaml:1", "problem"}});
  c.push_back({"unknown problem type", cfg("problem: {type: poison}\n"), solve, 1, {"c.yaml:1", "poison", "poisson"}});
  c.push_back({"unknown problem key", cfg("problem: {type: poisson, NN: 3}\n"), solve, 1, {"c.yaml:1", "NN"}});
  c.push_back({"grid size zero", cfg("problem: {type: poisson, N: 0}\n"), solve, 1, {"c.yaml:1", "N"}});
  c.push_back({"grid size negative", cfg("problem: {type: poisson, N: -4}\n"), solve, 1, {"c.yaml:1", "N"}});
  c.push_back({"grid size not an integer", cfg("problem: {type: poisson, N: 3.5}\n"), solve, 1, {"c.yaml:1", "N", "3.5"}});
  c.push_back({"unknown stencil", cfg("problem: {type: poisson, stencil: 4d9}\n"), solve, 1, {"c.yaml:1", "4d9"}});
  c.push_back({"unknown right-hand side", cfg("problem: {type: poisson, N: 8, rhs: twos}\n"), solve, 1,
               {"problem.rhs", "twos", "random_solution"}});
  c.push_back({"right-hand side file missing", cfg("problem: {type: poisson, N: 8, rhs: nofile.mtx}\n"), solve, 1,
               {"nofile.mtx", "no such file"}});
  c.push_back({"right-hand side path is a folder", F{{"c.yaml", "problem: {type: poisson, N: 8, rhs: b.mtx}\n"}, {"b.mtx/keep", ""}},
               solve, 1, {"b.mtx", "folder"}});
  c.push_back({"coefficient contrast overflows", cfg("problem: {type: poisson, N: 8, coefficient: {type: checkerboard, contrast: 1e300}}\n"),
               solve, 1, {"c.yaml:1", "contrast", "1e+100"}});
  c.push_back({"unknown coefficient type", cfg("problem: {type: poisson, N: 8, coefficient: {type: stripes}}\n"), solve, 1,
               {"c.yaml", "stripes"}});
  c.push_back({"fe cells too few", cfg("problem: {type: fe, mesh: square, cells: 1}\n"), solve, 1, {"c.yaml:1", "cells"}});
  c.push_back({"fe mesh file missing", cfg("problem: {type: fe, mesh: nofile.msh}\n"), solve, 1, {"nofile.msh", "no such file"}});
  c.push_back({"fe mesh path is a folder", F{{"c.yaml", "problem: {type: fe, mesh: d.msh}\n"}, {"d.msh/keep", ""}}, solve, 1,
               {"d.msh", "folder"}});
  c.push_back({"rmat scale too large", cfg("problem: {type: rmat_laplacian, scale: 40}\n"), solve, 1, {"c.yaml:1", "scale"}});
  c.push_back({"unknown amg key", cfg("amg: {thetaa: 0.1}\n"), solve, 1, {"c.yaml:1", "thetaa"}});
  // ---- near-nullspace and elasticity (amg.nullspace, problem.type elasticity) --------------------
  const std::string bar = "problem: {type: elasticity, mesh: bar, cells: 2, length: 2}\n";
  c.push_back({"unknown nullspace source", cfg("amg: {nullspace: rigid}\n"), solve, 1,
               {"c.yaml:1", "rigid", "rigid_body"}});
  c.push_back({"nullspace file without path", cfg("amg: {nullspace: {name: file}}\n"), solve, 1,
               {"amg.nullspace", "path"}});
  c.push_back({"nullspace file missing", cfg("amg: {nullspace: {name: file, path: B.mtx}}\n"), solve, 1,
               {"B.mtx", "no such file"}});
  c.push_back({"nullspace file wrong rows", F{{"c.yaml", "problem: {type: poisson, N: 4}\namg: {nullspace: {name: file, path: B.mtx}}\n"},
                                              {"B.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n1\n1\n"}},
               solve, 1, {"B.mtx", "3 rows", "64"}});
  c.push_back({"nullspace file is sparse", F{{"c.yaml", "problem: {type: poisson, N: 2}\namg: {nullspace: {name: file, path: B.mtx}}\n"},
                                             {"B.mtx", "%%MatrixMarket matrix coordinate real general\n4 1 1\n1 1 1\n"}},
               solve, 1, {"B.mtx", "array"}});
  c.push_back({"nullspace file NaN entry", F{{"c.yaml", "problem: {type: poisson, N: 2}\namg: {nullspace: {name: file, path: B.mtx}}\n"},
                                             {"B.mtx", "%%MatrixMarket matrix array real general\n4 1\n1\nnan\n1\n1\n"}},
               solve, 1, {"B.mtx:4", "nan", "not finite"}});
  c.push_back({"nullspace zero column", F{{"c.yaml", "problem: {type: poisson, stencil: 2d5, N: 2}\namg: {nullspace: {name: file, path: B.mtx}}\n"},
                                          {"B.mtx", "%%MatrixMarket matrix array real general\n4 2\n1\n1\n1\n1\n0\n0\n0\n0\n"}},
               solve, 1, {"B.mtx", "column 2 is zero"}});
  c.push_back({"nullspace rows not whole blocks", F{{"c.yaml", "problem: {type: poisson, stencil: 2d5, N: 3}\namg: {nullspace: {name: file, path: B.mtx, block_size: 2}}\n"},
                                                    {"B.mtx", "%%MatrixMarket matrix array real general\n9 1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n"}},
               solve, 1, {"9 rows", "whole nodes of 2"}});
  c.push_back({"rigid body without coordinates", cfg("problem: {type: poisson, N: 4}\namg: {nullspace: rigid_body}\n"), solve, 1,
               {"rigid_body", "coordinates"}});
  c.push_back({"rigid body coordinates of a scalar problem", F{{"c.yaml", "problem: {type: poisson, stencil: 2d5, N: 2}\namg: {nullspace: {name: rigid_body, coordinates: x.mtx}}\n"},
                                                               {"x.mtx", "%%MatrixMarket matrix array real general\n4 2\n0\n1\n0\n1\n0\n0\n1\n1\n"}},
               solve, 1, {"x.mtx", "4 nodes", "8 unknowns", "4 rows"}});
  c.push_back({"rigid body coordinates of dimension 4", F{{"c.yaml", "problem: {type: poisson, N: 2}\namg: {nullspace: {name: rigid_body, coordinates: x.mtx}}\n"},
                                                          {"x.mtx", "%%MatrixMarket matrix array real general\n1 4\n0\n1\n0\n1\n"}},
               solve, 1, {"x.mtx", "4 columns", "2 or 3"}});
  c.push_back({"elasticity poisson ratio 0.5", cfg("problem: {type: elasticity, poisson_ratio: 0.5}\n"), solve, 1,
               {"c.yaml:1", "poisson_ratio", "0.5"}});
  c.push_back({"elasticity negative young", cfg("problem: {type: elasticity, young: -2}\n"), solve, 1, {"c.yaml:1", "young"}});
  c.push_back({"elasticity unknown mesh", cfg("problem: {type: elasticity, mesh: beam}\n"), solve, 1, {"mesh", "beam", "bar"}});
  c.push_back({"elasticity gmsh without clamped groups", cfg("problem: {type: elasticity, mesh: m.msh}\n"), solve, 1,
               {"clamped", "physical groups"}});
  c.push_back({"elasticity generated with clamped groups", cfg(bar.substr(0, bar.size() - 2) + ", clamped: [left]}\n"), solve, 1,
               {"clamped", "x = 0"}});
  c.push_back({"theta negative", cfg("amg: {theta: -1}\n"), solve, 1, {"c.yaml:1", "theta", "-1"}});
  c.push_back({"theta not a number", cfg("amg: {theta: abc}\n"), solve, 1, {"c.yaml:1", "theta", "abc"}});
  c.push_back({"unknown smoother", cfg("amg: {smoother: gauss}\n"), solve, 1, {"c.yaml:1", "gauss", "jacobi"}});
  c.push_back({"unknown smoother option", cfg("amg: {smoother: {name: jacobi, omeg: 1}}\n"), solve, 1, {"c.yaml:1", "omeg"}});
  c.push_back({"chebyshev degree zero", cfg("amg: {smoother: {name: chebyshev, degree: 0}}\n"), solve, 1, {"c.yaml:1", "degree"}});
  c.push_back({"unknown cycle", cfg("amg: {cycle: Z}\n"), solve, 1, {"c.yaml:1", "Z"}});
  c.push_back({"unknown coarse solver", cfg("amg: {coarse_solver: magic}\n"), solve, 1, {"c.yaml:1", "magic"}});
  c.push_back({"unknown spgemm", cfg("amg: {spgemm: fast}\n"), solve, 1, {"c.yaml:1", "fast"}});
  c.push_back({"unknown aggregation", cfg("amg: {aggregation: best}\n"), solve, 1, {"c.yaml:1", "best", "mis2"}});
  c.push_back({"aggregation option out of range", cfg("amg: {aggregation: {name: mis2, frontier_ratio: 2}}\n"), solve, 1,
               {"c.yaml:1", "frontier_ratio"}});
  c.push_back({"no smoothing sweeps", cfg("amg: {pre_sweeps: 0, post_sweeps: 0}\n"), solve, 1, {"pre_sweeps", "post_sweeps", "0"}});
  c.push_back({"no sweeps on one level", cfg("amg: {levels: [{}, {pre_sweeps: 0, post_sweeps: 0}]}\n"), solve, 1,
               {"amg.levels[1]", "pre_sweeps"}});
  c.push_back({"negative sweeps", cfg("amg: {pre_sweeps: -1}\n"), solve, 1, {"c.yaml:1", "pre_sweeps"}});
  c.push_back({"levels not a list", cfg("amg: {levels: 3}\n"), solve, 1, {"c.yaml:1", "levels"}});
  c.push_back({"unknown level key", cfg("amg: {levels: [{foo: 1}]}\n"), solve, 1, {"c.yaml", "foo"}});
  c.push_back({"coarse size negative", cfg("amg: {coarse_size: -5}\n"), solve, 1, {"c.yaml:1", "coarse_size"}});
  c.push_back({"max levels zero", cfg("amg: {max_levels: 0}\n"), solve, 1, {"c.yaml:1", "max_levels"}});
  c.push_back({"unknown solver type", cfg("solver: {type: gmress}\n"), solve, 1, {"c.yaml:1", "gmress", "fgmres"}});
  c.push_back({"tolerance negative", cfg("solver: {tolerance: -1}\n"), solve, 1, {"c.yaml:1", "tolerance"}});
  c.push_back({"max iterations zero", cfg("solver: {max_iterations: 0}\n"), solve, 1, {"c.yaml:1", "max_iterations"}});
  c.push_back({"unknown preconditioner", cfg("solver: {preconditioner: ilu}\n"), solve, 1, {"c.yaml:1", "ilu"}});
  c.push_back({"bad backend in config", cfg("backend: gpu\n"), "solve c.yaml --report r.json", 1, {"c.yaml:1", "gpu", "auto"}});
  c.push_back({"nonsymmetric problem with pcg", cfg("problem: {type: convection_diffusion, N: 16}\nsolver: {type: pcg}\n"),
               solve, 1, {"not symmetric", "fgmres"}});
  c.push_back({"config path is a folder", F{{"d.yaml/keep", ""}}, "solve d.yaml --report r.json", 1, {"d.yaml", "folder"}});
  c.push_back({"config file missing", F{}, "solve none.yaml --report r.json", 1, {"none.yaml", "no such file"}});
  c.push_back({"--set without value", cfg("{}\n"), solve + " --set amg.theta", 1, {"amg.theta", "="}});
  c.push_back({"--set unknown key", cfg("{}\n"), solve + " --set amg.foo=1", 1, {"foo", "--set"}});
  c.push_back({"--set wrong type", cfg("{}\n"), solve + " --set amg.theta=abc", 1, {"theta", "abc"}});
  // ---- Matrix Market ---------------------------------------------------------------------------
  c.push_back({"mtx missing header", mtx("3 3 1\n1 1 1\n"), solve, 1, {"m.mtx:1", "%%MatrixMarket"}});
  c.push_back({"mtx vector object", mtx("%%MatrixMarket vector coordinate real general\n3 3 1\n1 1 1\n"), solve, 1, {"m.mtx:1"}});
  c.push_back({"mtx complex field", mtx("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n"), solve, 1,
               {"m.mtx:1", "complex"}});
  c.push_back({"mtx hermitian symmetry", mtx("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n"), solve, 1,
               {"m.mtx:1", "hermitian"}});
  c.push_back({"mtx array for a matrix", mtx("%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n"), solve, 1,
               {"m.mtx", "array"}});
  c.push_back({"mtx missing size line", mtx("%%MatrixMarket matrix coordinate real general\n% only a comment\n"), solve, 1,
               {"m.mtx", "size line"}});
  c.push_back({"mtx malformed size line", mtx(mtx_header("3 3")), solve, 1, {"m.mtx:2", "size line"}});
  c.push_back({"mtx negative size", mtx(mtx_header("-3 3 1") + "1 1 1\n"), solve, 1, {"m.mtx:2", "size line"}});
  c.push_back({"mtx entry out of range", mtx(mtx_header("3 3 1") + "4 1 1.0\n"), solve, 1, {"m.mtx:3", "(4, 1)", "outside"}});
  c.push_back({"mtx zero index", mtx(mtx_header("3 3 1") + "0 1 1.0\n"), solve, 1, {"m.mtx:3", "1-based"}});
  c.push_back({"mtx malformed value", mtx(mtx_header("1 1 1") + "1 1 abc\n"), solve, 1, {"m.mtx:3", "abc"}});
  c.push_back({"mtx nan value", mtx(mtx_header("1 1 1") + "1 1 nan\n"), solve, 1, {"m.mtx:3", "not finite"}});
  c.push_back({"mtx inf value", mtx(mtx_header("1 1 1") + "1 1 -inf\n"), solve, 1, {"m.mtx:3", "not finite"}});
  c.push_back({"mtx overflowing value", mtx(mtx_header("1 1 1") + "1 1 1e400\n"), solve, 1,
               {"m.mtx:3", "1e400", "range of double"}});
  c.push_back({"mtx too few entries", mtx(mtx_header("2 2 3") + "1 1 1\n2 2 1\n"), solve, 1, {"m.mtx", "2 of 3 entries"}});
  c.push_back({"mtx too many entries", mtx(mtx_header("2 2 1") + "1 1 1\n2 2 1\n"), solve, 1, {"m.mtx:4", "more entries"}});
  c.push_back({"mtx trailing text", mtx(mtx_header("1 1 1") + "1 1 1.0 extra\n"), solve, 1, {"m.mtx:3", "extra"}});
  c.push_back({"mtx symmetric upper entry", mtx("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n"), solve, 1,
               {"m.mtx:3", "upper"}});
  c.push_back({"mtx not square", mtx(mtx_header("3 4 1") + "1 1 1\n"), solve, 1, {"m.mtx", "3x4", "square"}});
  c.push_back({"mtx huge declared size", mtx(mtx_header("2000000000 2000000000 1") + "1 1 1\n"), solve, 1,
               {"m.mtx:2", "GB", "available"}});
  c.push_back({"mtx empty file", mtx(""), solve, 1, {"m.mtx: empty file"}});
  c.push_back({"mtx path is a folder", F{{"c.yaml", kMtxConfig}, {"m.mtx/keep", ""}}, solve, 1, {"m.mtx", "folder"}});
  c.push_back({"mtx file missing", F{{"c.yaml", kMtxConfig}}, solve, 1, {"m.mtx", "no such file"}});
  // ---- matrices (through Matrix Market) --------------------------------------------------------
  c.push_back({"matrix zero diagonal", mtx(mtx_header("2 2 3") + "1 1 1\n1 2 0.5\n2 1 0.5\n"), solve, 1, {"row 1", "diagonal"}});
  c.push_back({"matrix negative diagonal", mtx(mtx_header("2 2 2") + "1 1 1\n2 2 -3\n"), solve, 1, {"row 1", "-3"}});
  c.push_back({"matrix empty row", mtx(mtx_header("3 3 2") + "1 1 1\n3 3 1\n"), solve, 1, {"row 1", "diagonal"}});
  c.push_back({"matrix nonsymmetric with pcg", mtx(mtx_header("2 2 4") + "1 1 4\n1 2 -1\n2 1 -2.5\n2 2 4\n"), solve, 1,
               {"not symmetric", "a(0, 1) = -1", "a(1, 0) = -2.5", "fgmres"}});
  c.push_back({"matrix singular, b inconsistent",
               F{{"c.yaml", "problem: {type: matrix_market, matrix: m.mtx, rhs: ones}\n"},
                 {"m.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 1\n2 1 -1\n2 2 2\n3 2 -1\n3 3 1\n"}},
               solve, 1, {"singular", "sum of b = 3", "no solution"}});
  c.push_back({"matrix_market without a matrix", cfg("problem: {type: matrix_market}\n"), solve, 1, {"matrix"}});
  c.push_back({"rhs vector wrong length",
               F{{"c.yaml", "problem: {type: matrix_market, matrix: m.mtx, rhs: b.mtx}\n"}, {"m.mtx", kGoodMtx},
                 {"b.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n1\n"}},
               solve, 1, {"b.mtx", "2 entries", "3 rows"}});
  c.push_back({"rhs vector with nan",
               F{{"c.yaml", "problem: {type: matrix_market, matrix: m.mtx, rhs: b.mtx}\n"}, {"m.mtx", kGoodMtx},
                 {"b.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\nnan\n1\n"}},
               solve, 1, {"b.mtx:4", "not finite"}});
  c.push_back({"rhs vector in coordinate form",
               F{{"c.yaml", "problem: {type: matrix_market, matrix: m.mtx, rhs: b.mtx}\n"}, {"m.mtx", kGoodMtx},
                 {"b.mtx", mtx_header("3 1 1") + "1 1 1\n"}},
               solve, 1, {"b.mtx", "array"}});
  // ---- Gmsh meshes ----------------------------------------------------------------------------
  c.push_back({"msh not a gmsh file", msh("hello\n"), solve, 1, {"m.msh", "$MeshFormat"}});
  c.push_back({"msh unsupported version", msh("$MeshFormat\n3.0 0 8\n$EndMeshFormat\n"), solve, 1, {"m.msh", "3"}});
  c.push_back({"msh binary file", msh("$MeshFormat\n2.2 1 8\n$EndMeshFormat\n"), solve, 1, {"m.msh", "binary"}});
  c.push_back({"msh no nodes", msh(std::string(kMsh22Head) + "$Elements\n0\n$EndElements\n"), solve, 1, {"m.msh", "$Nodes"}});
  c.push_back({"msh no elements", msh(std::string(kMsh22Head) + "$Nodes\n1\n1 0 0 0\n$EndNodes\n"), solve, 1,
               {"m.msh", "$Elements"}});
  c.push_back({"msh unknown node", msh(std::string(kMsh22Head) + "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n"
                                    "$Elements\n1\n1 2 2 0 1 1 2 9\n$EndElements\n"),
               solve, 1, {"m.msh", "9"}});
  c.push_back({"msh truncated", msh(std::string(kMsh22Head) + "$Nodes\n3\n1 0 0 0\n"), solve, 1, {"m.msh"}});
  c.push_back({"msh degenerate triangle", msh(std::string(kMsh22Head) + "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 2 0 0\n$EndNodes\n"
                                           "$Elements\n1\n1 2 2 0 1 1 2 3\n$EndElements\n"),
               solve, 1, {"degenerate"}});
  c.push_back({"msh malformed node line", msh(std::string(kMsh22Head) + "$Nodes\n1\n1 0 zero 0\n$EndNodes\n"), solve, 1,
               {"m.msh:6"}});
  c.push_back({"geo broken geometry",
               F{{"c.yaml", "problem: {type: fe, mesh: g.geo, h: 0.1}\n"}, {"g.geo", "Point(1) = {0, 0, 0};\nLine(1) = {1, 7};\n"}},
               solve, 1, {"g.geo", "gmsh"}, true});
  c.push_back({"geo far too fine",
               F{{"c.yaml", "problem: {type: fe, mesh: g.geo, h: 1e-5}\n"},
                 {"g.geo", "Point(1)={0,0,0};Point(2)={1,0,0};Point(3)={1,1,0};Point(4)={0,1,0};\n"
                           "Line(1)={1,2};Line(2)={2,3};Line(3)={3,4};Line(4)={4,1};\n"
                           "Curve Loop(1)={1,2,3,4};Plane Surface(1)={1};\n"}},
               solve, 1, {"g.geo", "would make up to", "max_vertices"}, true});
  c.push_back({"missing .geo file", F{{"c.yaml", "problem: {type: fe, mesh: g.geo, h: 0.1}\n"}}, solve, 1,
               {"g.geo", "no such file"}});
  // ---- the command line -------------------------------------------------------------------------
  c.push_back({"no subcommand", F{}, "", 2, {"subcommand"}});
  c.push_back({"unknown subcommand", F{}, "solvee c.yaml", 2, {"unknown command 'solvee'", "solve"}});
  c.push_back({"unknown flag", cfg("{}\n"), "solve c.yaml --fast", 2, {"--fast"}});
  c.push_back({"missing config argument", F{}, "solve", 2, {"config"}});
  c.push_back({"repeat not a number", cfg("{}\n"), "profile-setup c.yaml --repeat abc", 2, {"abc"}});
  c.push_back({"unknown backend flag", cfg("problem: {type: poisson, N: 8}\n"), "solve c.yaml --backend gpu --report r.json", 1,
               {"gpu", "auto"}});
  c.push_back({"report folder missing", cfg("problem: {type: poisson, N: 8}\n"), "solve c.yaml --report no/r.json", 1,
               {"no/r.json", "does not exist"}});
  c.push_back({"report path is a folder", F{{"c.yaml", "problem: {type: poisson, N: 8}\n"}, {"r.json/keep", ""}},
               "solve c.yaml --backend host --report r.json", 1, {"r.json", "folder"}});
  c.push_back({"csv folder missing", cfg("problem: {type: poisson, N: 8}\n"), "profile-setup c.yaml --repeat 1 --csv no/p.csv",
               1, {"no/p.csv", "does not exist"}});
  c.push_back({"json folder missing", cfg("problem: {type: poisson, N: 8}\n"), "profile-setup c.yaml --repeat 1 --json no/p.json",
               1, {"no/p.json", "does not exist"}});
  c.push_back({"unknown spgemm flag", cfg("problem: {type: poisson, N: 8}\n"), "profile-setup c.yaml --backend host --spgemm fast",
               1, {"fast"}});
  c.push_back({"sweep file is a folder", F{{"s.yaml/keep", ""}}, "sweep s.yaml", 1, {"s.yaml", "folder"}});
  c.push_back({"sweep file without sweep", F{{"s.yaml", "configs: []\n"}}, "sweep s.yaml", 1, {"s.yaml", "sweep"}});
  c.push_back({"sweep duplicate key", F{{"s.yaml", "sweep: {configs: [a.yaml]}\nsweep: {}\n"}}, "sweep s.yaml", 1,
               {"s.yaml:2", "duplicate"}});
  c.push_back({"info names unknown kind", F{}, "info --names widgets", 1, {"widgets", "spgemm"}});
  c.push_back({"solve does not converge", cfg("problem: {type: poisson, N: 30}\nsolver: {type: pcg, max_iterations: 2}\n"),
               solve, 3, {"did NOT converge", "2 iterations"}});
  return c;
}

}  // namespace saga::test
