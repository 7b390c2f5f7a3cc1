// The CUDA problem generators equal the host ones: structured variants
// (anisotropy, jumping coefficients) and P1 assembly on generated and Gmsh
// meshes; AMG-PCG on FE problems takes the same iterations on both backends.
#include <fmt/format.h>

#include "app/run.hpp"
#include "problems/elasticity.hpp"
#include "problems/fe_assembly.hpp"
#include "problems/gmsh_reader.hpp"
#include "problems/mesh_generate.hpp"
#include "problems/structured.hpp"
#include "tests/fe_helpers.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("GPU structured variants equal host") {
  CoefficientField checker, random;
  checker.kind = CoefficientField::Kind::checkerboard;
  checker.contrast = 1e6;
  checker.blocks = 4;
  random.kind = CoefficientField::Kind::random;
  random.contrast = 1e4;
  random.blocks = 5;
  random.seed = fresh_seed();
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const index_t N = stencil_dim(s) == 2 ? sized(101, 41) : sized(23, 11);
    std::vector<StencilSpec> specs = {make_stencil_spec(s, {}, checker), make_stencil_spec(s, {}, random)};
    if (s != Stencil::fe3d_27pt) specs.push_back(make_stencil_spec(s, {1e-3, 30}));
    for (const StencilSpec& spec : specs) {
      const CsrMatrix d = poisson(spec, N, Space::device);
      CHECK(d.nnz() == poisson_nnz(spec, N));
      check_equal(to_host_csr(d), to_host_csr(poisson(spec, N, Space::host)), 1e-14);
    }
  }
}

TEST_CASE("GPU P1 assembly equals host") {
  const std::uint64_t seed = fresh_seed();
  FeCoefficients k = random_fe_coefficients(seed, 1e3, 4);
  k.anisotropy = {0.01, 20};
  for (int dim : {2, 3}) {
    CAPTURE(dim);
    const Mesh m = unit_simplex_mesh(dim, dim == 2 ? 300 : 40, dim == 2 ? 0.24 : 0.15, seed);
    for (const FeCoefficients& c : {FeCoefficients{}, k}) {
      const FeSystem h = assemble_p1(m, c, Space::host), d = assemble_p1(m, c, Space::device);
      CHECK(d.A.space() == Space::device);
      CHECK(d.A.nnz() == d.A.rows() + 2 * interior_edges(m));
      check_equal(to_host_csr(d.A), to_host_csr(h.A), 1e-13);
    }
  }
  Mesh g = read_gmsh(SAGA_SOURCE_DIR "/tests/data/horseshoe_h005_v41.msh");
  mark_group_dirichlet(g, {"feet"});
  FeCoefficients groups;
  groups.group_values = {{"legs", 1e3}};
  check_equal(to_host_csr(assemble_p1(g, groups, Space::device).A), to_host_csr(assemble_p1(g, groups, Space::host).A),
              1e-13);
  Mesh b = read_gmsh(SAGA_SOURCE_DIR "/tests/data/box_v41.msh");
  mark_boundary_dirichlet(b);
  check_equal(to_host_csr(assemble_p1(b, {}, Space::device).A), to_host_csr(assemble_p1(b, {}, Space::host).A), 1e-13);
}

TEST_CASE("GPU P1 and elasticity assembly in chunks of rows: the whole assembly's matrix, run after run") {
  const std::uint64_t seed = fresh_seed();
  FeCoefficients k = random_fe_coefficients(seed, 1e3, 4);
  for (int dim : {2, 3}) {
    CAPTURE(dim);
    const Mesh m = unit_simplex_mesh(dim, dim == 2 ? sized(400, 80) : sized(48, 14), 0.15, seed);
    const HostCsr whole = to_host_csr(assemble_p1(m, k, Space::device).A);
    const HostCsr host = to_host_csr(assemble_p1(m, k, Space::host, 20000).A);
    for (std::int64_t chunk : {static_cast<std::int64_t>(whole.val.size()), std::int64_t(20000)}) {
      CAPTURE(chunk);
      const HostCsr c = to_host_csr(assemble_p1(m, k, Space::device, chunk).A);
      CHECK(c.row_ptr == whole.row_ptr);
      CHECK(c.col == whole.col);
      check_equal(c, whole, 1e-14);  // the device's sums may associate by position
      check_equal(c, host, 1e-13);
      CHECK(to_host_csr(assemble_p1(m, k, Space::device, chunk).A).val == c.val);  // run after run
    }
    // Elasticity: a node's dim rows may fall in two chunks.
    Mesh e = unit_simplex_mesh(dim, dim == 2 ? sized(200, 40) : sized(24, 8), 0.15, seed);
    const ElasticityMaterial mat{2.0, 0.3};
    const HostCsr ew = to_host_csr(assemble_elasticity(e, mat, Space::device).A);
    const HostCsr ec = to_host_csr(assemble_elasticity(e, mat, Space::device, false, 7777).A);
    CHECK(ec.row_ptr == ew.row_ptr);
    CHECK(ec.col == ew.col);
    check_equal(ec, ew, 1e-14);
    check_equal(ec, to_host_csr(assemble_elasticity(e, mat, Space::host, false, 7777).A), 1e-13);
  }
}

TEST_CASE("GPU AMG-PCG on FE and variant problems takes the host's iterations") {
  const std::string configs[] = {
      fmt::format("problem: {{type: fe, mesh: square, cells: {}, perturbation: 0.2}}", sized(256, 64)),
      fmt::format("problem: {{type: fe, mesh: box, cells: {}, perturbation: 0.1, anisotropy: {{epsilon: 0.01, angle: 30}}}}",
                  sized(24, 10)),
      fmt::format("problem: {{type: fe, mesh: square, cells: {}, coefficient: {{type: checkerboard, contrast: 1.0e4, blocks: 4}}}}",
                  sized(128, 48)),
      fmt::format("problem: {{type: poisson, stencil: 2d9, N: {}, anisotropy: {{epsilon: 0.001, angle: 45}}}}", sized(200, 64)),
      fmt::format("problem: {{type: poisson, stencil: 3d7, N: {}, coefficient: {{type: random, contrast: 1.0e4, blocks: 4}}}}",
                  sized(32, 12)),
  };
  for (const std::string& text : configs) {
    CAPTURE(text);
    // The same coarse size on both backends (its default differs: coarse_size_for).
    const RunConfig c = parse_config(text + "\namg: {coarse_size: 500}", "gpu.yaml");
    const RunResult rh = run_solve(c, Executor::host()), rd = run_solve(c, Executor::cuda());
    CHECK(rh.solve.converged);
    CHECK(rd.solve.converged);
    CHECK(std::abs(rd.solve.iterations - rh.solve.iterations) <= 1);
    CHECK(rd.hierarchy.levels.size() == rh.hierarchy.levels.size());
    CHECK(rd.hierarchy.operator_complexity == doctest::Approx(rh.hierarchy.operator_complexity));
  }
}
