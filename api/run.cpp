#include "api/run.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>

#include "core/device.hpp"
#include "problems/fe_assembly.hpp"
#include "problems/gmsh_geo.hpp"
#include "problems/gmsh_reader.hpp"
#include "problems/mesh_generate.hpp"
#include "problems/rhs.hpp"
#include "problems/structured.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
std::string coefficient_type(const ProblemConfig& c) {
  if (!c.group_coefficients.empty()) return "groups";
  switch (c.coefficient.kind) {
    case CoefficientField::Kind::checkerboard: return "checkerboard";
    case CoefficientField::Kind::random: return "random";
    default: return "constant";
  }
}

std::string describe_variant(const ProblemConfig& c) {
  std::string s;
  if (!c.anisotropy.is_isotropic())
    s += fmt::format(", anisotropy eps={} angle={}", c.anisotropy.epsilon, c.anisotropy.angle_degrees);
  if (!c.coefficient.is_constant())
    s += fmt::format(", {} coefficient contrast={} blocks={}", coefficient_type(c), c.coefficient.contrast,
                     c.coefficient.blocks);
  for (const auto& [g, v] : c.group_coefficients) s += fmt::format(", kappa({})={}", g, v);
  return s;
}
}  // namespace

Problem build_problem(const ProblemConfig& c, Space space) {
  Problem p;
  if (c.type == "poisson") {
    const Stencil s = parse_stencil(c.stencil);
    p.A = poisson(make_stencil_spec(s, c.anisotropy, c.coefficient), c.N, space);
    p.description = fmt::format("poisson {} N={}{}", stencil_name(s), c.N, describe_variant(c));
  } else if (c.type == "fe") {
    Mesh m;
    if (c.mesh == "square" || c.mesh == "box") {
      m = unit_simplex_mesh(c.mesh == "square" ? 2 : 3, c.cells, c.perturbation, c.seed);
      p.description = fmt::format("P1 FE on the unit {} ({} cells per side, perturbation {})", c.mesh, c.cells,
                                  c.perturbation);
    } else {
      const bool geo = std::filesystem::path(c.mesh).extension() == ".geo";
      m = geo ? mesh_from_geo(c.mesh, c.h) : read_gmsh(c.mesh);
      p.description = fmt::format("P1 FE on {}{}", c.mesh, geo ? fmt::format(" (gmsh, h = {})", c.h) : "");
      if (c.dirichlet.empty())
        mark_boundary_dirichlet(m);
      else
        mark_group_dirichlet(m, c.dirichlet);
    }
    p.description += fmt::format(", {} {}{}", m.cell_count(), m.dim == 2 ? "triangles" : "tetrahedra",
                                 describe_variant(c));
    FeCoefficients k{c.anisotropy, c.coefficient, c.group_coefficients};
    p.A = assemble_p1(m, k, space).A;
  } else if (c.type == "matrix_market") {
    CsrMatrix A = read_matrix_market(c.matrix);
    SAGA_REQUIRE(A.rows() == A.cols(), "{}: matrix is {}x{}, not square", c.matrix, A.rows(), A.cols());
    p.A = A.to(space);
    p.description = fmt::format("matrix_market {}", c.matrix);
  } else {
    SAGA_REQUIRE(false, "unknown problem type '{}'", c.type);
  }
  if (c.rhs == "random_solution") {
    ManufacturedSystem m = rhs_from_random_solution(p.A, c.seed);
    p.b = std::move(m.b);
    p.x_star = std::move(m.x_star);
    p.description += fmt::format(", b = A x* (x* uniform [0,1), seed {})", c.seed);
  } else if (c.rhs == "ones") {
    p.b = ones(p.A.rows(), space);
    p.description += ", b = 1";
  } else {
    Vector b = read_matrix_market_vector(c.rhs);
    SAGA_REQUIRE(b.size() == static_cast<std::size_t>(p.A.rows()), "{}: right-hand side has {} entries, matrix {} rows",
                 c.rhs, b.size(), p.A.rows());
    p.b = b.to(space);
    p.description += fmt::format(", b from {}", c.rhs);
  }
  return p;
}

RunResult run_solve(const RunConfig& config, Backend backend) {
  RunResult r;
  r.config = config;
  r.backend = backend;
  const Space space = space_of(backend);
  if (backend == Backend::cuda) r.device_name = device::info().name;
  auto now = [&] {
    if (backend == Backend::cuda) device::synchronize();
    return std::chrono::steady_clock::now();
  };
  auto t0 = now();
  Problem p = build_problem(config.problem, space);
  r.problem_seconds = std::chrono::duration<double>(now() - t0).count();
  r.problem = p.description;
  r.rows = p.A.rows();
  r.nnz = p.A.nnz();
  spdlog::info("problem: {} (n = {}, nnz = {}) built in {:.3f} s", r.problem, r.rows, r.nnz, r.problem_seconds);

  t0 = now();
  Solver solver(std::move(p.A), config.amg, config.solver);
  r.setup_seconds = std::chrono::duration<double>(now() - t0).count();
  r.hierarchy = solver.stats();
  Vector x = Vector::zeros(r.rows, space, "solution");
  r.solve = solver.solve(p.b, x);
  r.solve_seconds = r.solve.seconds;
  if (p.x_star) {
    Vector e = x.clone();
    axpby(-1.0, *p.x_star, 1.0, e);
    r.error = norm2(e) / norm2(*p.x_star);
  }
  return r;
}

std::string format_summary(const RunResult& r) {
  const auto& h = r.hierarchy;
  std::string s;
  s += fmt::format("backend   {}{}\n", to_string(r.backend), r.device_name.empty() ? "" : " (" + r.device_name + ")");
  s += fmt::format("problem   {}\n          n = {}, nnz = {}\n", r.problem, r.rows, r.nnz);
  s += fmt::format("hierarchy {} levels, grid complexity {:.3f}, operator complexity {:.3f}\n", h.levels.size(),
                   h.grid_complexity, h.operator_complexity);
  s += fmt::format("  {:>5} {:>10} {:>12} {:>8} {:>11} {:>7}\n", "level", "rows", "nnz", "nnz/row", "aggregates",
                   "rho");
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const auto& L = h.levels[l];
    s += fmt::format("  {:>5} {:>10} {:>12} {:>8.1f} {:>11} {:>7}\n", l, L.rows, L.nnz,
                     static_cast<double>(L.nnz) / L.rows, L.aggregates ? std::to_string(L.aggregates) : "-",
                     L.rho > 0 ? fmt::format("{:.3f}", L.rho) : "-");
  }
  s += fmt::format("setup     {:.4f} s by phase:\n", h.setup_seconds);
  for (const auto& p : setup_phases()) {
    const double t = h.phase_seconds.count(p) ? h.phase_seconds.at(p) : 0.0;
    s += fmt::format("  {:<24} {:>9.4f} s {:>6.1f}%\n", setup_phase_label(p), t, 100.0 * t / h.setup_seconds);
  }
  s += fmt::format("  SpGEMM share of setup: {:.1f}% ({:.4f} s)\n", 100.0 * h.spgemm_seconds() / h.setup_seconds,
                   h.spgemm_seconds());
  const auto& so = r.solve;
  s += fmt::format("solve     {} ({}): {}\n", r.config.solver.type, r.config.amg.cycle + "-cycle", so.message);
  s += fmt::format("          iterations {}, final relative residual {:.3e}, convergence factor {:.3f}\n",
                   so.iterations, so.relative_residual, so.convergence_factor);
  if (r.error) s += fmt::format("          error ||x - x*|| / ||x*|| = {:.3e}\n", *r.error);
  s += fmt::format("time      setup {:.4f} s, solve {:.4f} s, total {:.4f} s (problem generation {:.4f} s)\n",
                   r.setup_seconds, r.solve_seconds, r.setup_seconds + r.solve_seconds, r.problem_seconds);
  return s;
}

nlohmann::json to_json(const RunResult& r) {
  using nlohmann::json;
  const auto& h = r.hierarchy;
  json j;
  j["saga_version"] = SAGA_VERSION;
  j["config"] = {{"name", r.config.name},
                 {"problem",
                  {{"type", r.config.problem.type},
                   {"stencil", r.config.problem.stencil},
                   {"N", r.config.problem.N},
                   {"matrix", r.config.problem.matrix},
                   {"rhs", r.config.problem.rhs},
                   {"seed", r.config.problem.seed},
                   {"anisotropy",
                    {{"epsilon", r.config.problem.anisotropy.epsilon},
                     {"angle", r.config.problem.anisotropy.angle_degrees}}},
                   {"coefficient",
                    {{"type", coefficient_type(r.config.problem)},
                     {"contrast", r.config.problem.coefficient.contrast},
                     {"blocks", r.config.problem.coefficient.blocks},
                     {"seed", r.config.problem.coefficient.seed},
                     {"groups", r.config.problem.group_coefficients}}},
                   {"mesh", r.config.problem.mesh},
                   {"cells", r.config.problem.cells},
                   {"perturbation", r.config.problem.perturbation},
                   {"h", r.config.problem.h},
                   {"dirichlet", r.config.problem.dirichlet}}},
                 {"amg",
                  {{"theta", r.config.amg.theta},
                   {"coarse_size", r.config.amg.coarse_size},
                   {"max_levels", r.config.amg.max_levels},
                   {"smoother", r.config.amg.smoother},
                   {"pre_sweeps", r.config.amg.pre_sweeps},
                   {"post_sweeps", r.config.amg.post_sweeps},
                   {"omega", r.config.amg.smoother_omega},
                   {"prolongator_omega", r.config.amg.prolongator_omega},
                   {"cycle", r.config.amg.cycle},
                   {"spgemm", r.config.amg.spgemm.algorithm.empty() ? "auto" : r.config.amg.spgemm.algorithm}}},
                 {"solver",
                  {{"type", r.config.solver.type},
                   {"tolerance", r.config.solver.tolerance},
                   {"max_iterations", r.config.solver.max_iterations}}}};
  j["backend"] = to_string(r.backend);
  j["device"] = r.device_name;
  j["problem"] = {{"description", r.problem}, {"rows", r.rows}, {"nnz", r.nnz}, {"seconds", r.problem_seconds}};
  json levels = json::array();
  for (const auto& L : h.levels) {
    json l = {{"rows", L.rows},       {"nnz", L.nnz},       {"aggregates", L.aggregates},
              {"mis2_rounds", L.mis2_rounds}, {"rho", L.rho}, {"theta", L.theta}, {"phase_seconds", L.seconds}};
    for (const auto& [name, rec] : L.spgemm)
      l["spgemm"][name] = {{"products", rec.products},
                           {"nnz", rec.nnz_c},
                           {"seconds", rec.seconds},
                           {"gflops", rec.seconds > 0 ? 2.0 * rec.products / rec.seconds * 1e-9 : 0.0}};
    levels.push_back(l);
  }
  j["hierarchy"] = {{"levels", levels},
                    {"grid_complexity", h.grid_complexity},
                    {"operator_complexity", h.operator_complexity},
                    {"coarse_pseudo_inverse", h.coarse_pseudo_inverse}};
  json shares = json::object();
  for (const auto& [phase, t] : h.phase_seconds) shares[phase] = h.setup_seconds > 0 ? t / h.setup_seconds : 0.0;
  j["setup"] = {{"seconds", h.setup_seconds},
                {"phase_seconds", h.phase_seconds},
                {"phase_share", shares},
                {"spgemm_seconds", h.spgemm_seconds()},
                {"spgemm_share", h.setup_seconds > 0 ? h.spgemm_seconds() / h.setup_seconds : 0.0}};
  j["solve"] = {{"converged", r.solve.converged},
                {"iterations", r.solve.iterations},
                {"relative_residual", r.solve.relative_residual},
                {"convergence_factor", r.solve.convergence_factor},
                {"residual_history", r.solve.residual_history},
                {"message", r.solve.message},
                {"seconds", r.solve.seconds}};
  j["error"] = r.error ? json(*r.error) : json(nullptr);
  j["times"] = {{"setup", r.setup_seconds}, {"solve", r.solve_seconds}, {"total", r.setup_seconds + r.solve_seconds}};
  return j;
}

}  // namespace saga
