#include "app/run.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "app/component_json.hpp"
#include "app/profile.hpp"
#include "core/device.hpp"
#include "problems/edge_updates.hpp"
#include "problems/problem.hpp"
#include "problems/rhs.hpp"
#include "core/log.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/dcsr.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

Problem build_problem(const ProblemConfig& c, Space space) {
  Problem p;
  const ProblemContext ctx{c.directory, c.seed};
  GeneratedMatrix g = problem_generators().create(c.type, space, ctx)->generate(space);
  p.A = std::move(g.A);
  p.description = std::move(g.description);
  p.asymmetry = std::move(g.asymmetry);
  p.coordinates = std::move(g.coordinates);
  p.dim = g.dim;
  if (c.rhs == "random_solution") {
    ManufacturedSystem m = rhs_from_random_solution(p.A, c.seed);
    p.b = std::move(m.b);
    p.x_star_seed = c.seed;  // m.x_star is freed here
    p.description += fmt::format(", b = A x* (x* uniform [0,1), seed {})", c.seed);
  } else if (c.rhs == "ones") {
    p.b = ones(p.A.rows(), space);
    p.description += ", b = 1";
  } else {
    if (!std::filesystem::exists(c.rhs))
      throw InputError(fmt::format("problem.rhs: '{}' is neither random_solution nor ones, and no such file exists "
                                   "(a right-hand side file is a Matrix Market array, relative to the config)",
                                   c.rhs));
    Vector b = read_matrix_market_vector(c.rhs);
    SAGA_REQUIRE(b.size() == static_cast<std::size_t>(p.A.rows()), "{}: right-hand side has {} entries, matrix {} rows",
                 c.rhs, b.size(), p.A.rows());
    p.b = b.to(space);
    p.description += fmt::format(", b from {}", c.rhs);
  }
  return p;
}

NearNullspace problem_nullspace(const Problem& p, const RunConfig& config, Space space, index_t rows) {
  NullspaceContext ctx;
  ctx.rows = rows >= 0 ? rows : p.A.rows();
  ctx.space = space;
  ctx.coordinates = p.coordinates;
  ctx.dim = p.dim;
  ctx.directory = config.problem.directory;
  return nullspace_sources().create(config.amg.nullspace, space)->make(ctx);
}

namespace {
// A matrix whose rows all sum to zero (a pure Neumann problem, a graph
// Laplacian without shift) is singular with the constants as nullspace: A x =
// b has a solution only when Σ b = 0, and CG breaks down otherwise. One SpMV
// and two reductions find out before the setup.
// Returns whether A is singular so (the error against x* is then measured
// without its constant part).
bool check_constant_nullspace(const Problem& p, const std::string& what) {
  const index_t n = p.A.rows();
  if (n == 0) return false;
  const Vector one = ones(n, p.A.space());
  Vector s(n, p.A.space(), "row sums");
  spmv(p.A, one, s);
  const double scale = norm2(row_abs_sums(p.A));
  if (!(norm2(s) <= 1e-12 * scale)) return false;  // some row does not sum to zero (or NaN: found elsewhere)
  const double sum_b = dot(p.b, one);
  const double relative = std::abs(sum_b) / (std::sqrt(static_cast<double>(n)) * norm2(p.b));  // |Σb| / (‖1‖ ‖b‖)
  if (relative > 1e-10)
    throw InputError(fmt::format(
        "{}: the matrix is singular — every row sums to zero (a pure Neumann problem or an unshifted graph "
        "Laplacian: the constants are its nullspace) — and the right-hand side is not orthogonal to the constants "
        "(sum of b = {:.6g}, relative {:.3g}): A x = b has no solution. Fix the boundary conditions, or subtract "
        "the mean of b",
        what, sum_b, relative));
  log_warning("{}: the matrix is singular (every row sums to zero: constant nullspace); b is orthogonal to the "
              "constants, so solutions exist and differ by a constant — saga returns one",
              what);
  return true;
}
}  // namespace

namespace {
// a then b, one COO (the triplets of a matrix and of an update).
CooMatrix concatenate(const CooMatrix& a, const CooMatrix& b) {
  const std::size_t n = a.entries(), m = b.entries();
  CooMatrix c{a.rows, a.cols, Array<index_t>(n + m, a.space(), "COO rows"), Array<index_t>(n + m, a.space(), "COO cols"),
              Array<double>(n + m, a.space(), "COO values")};
  a.row.copy_into(c.row, 0);
  b.row.copy_into(c.row, n);
  a.col.copy_into(c.col, 0);
  b.col.copy_into(c.col, n);
  a.val.copy_into(c.val, 0);
  b.val.copy_into(c.val, n);
  return c;
}
}  // namespace

void run_updates(const RunConfig& config, const Problem& p, DcsrMatrix& D, Solver& first,
                 const std::shared_ptr<const Executor>& exec, RunResult& r) {
  const Space space = exec->space();
  const UpdatesConfig& u = config.updates;
  auto now = [&] {
    exec->synchronize();
    return std::chrono::steady_clock::now();
  };
  auto secs = [](auto t0, auto t1) { return std::chrono::duration<double>(t1 - t0).count(); };
  const std::int64_t edges = u.couplings_per_step(r.rows);
  std::optional<CsrMatrix> previous;  // the matrix of the last setup (for the rebuild comparison)
  if (u.compare_rebuild) {
    previous = first.matrix().clone();
    previous->store_values_double();  // the hierarchy keeps exact-float values in float (amg.exact_single)
  }
  // existing couplings: drawn from the pattern, which stays
  std::vector<offset_t> pattern_rp;
  std::vector<index_t> pattern_col;
  if (u.couplings == "existing") {
    pattern_rp = first.matrix().row_ptr().to_vector();
    pattern_col = first.matrix().col().to_vector();
  }
  std::unique_ptr<Solver> own;  // the solver of the last full setup after the first
  Solver* solver = &first;
  for (int step = 1; step <= u.steps; ++step) {
    UpdateStep st;
    const std::uint64_t seed = u.seed + static_cast<std::uint64_t>(step);
    const CooMatrix upd = u.couplings == "existing" ? coupling_updates(pattern_rp, pattern_col, edges, u.weight, seed, space)
                                                    : edge_updates(r.rows, edges, u.weight, seed, space);
    auto t0 = now();
    const DcsrUpdateStats us = D.insert(upd);
    auto t1 = now();
    st.update_seconds = secs(t0, t1);
    st.inserted = us.inserted;
    st.updated = us.updated;
    st.defragmentations = us.defragmentations;
    CsrMatrix A = D.to_csr();
    auto t2 = now();
    st.to_csr_seconds = secs(t1, t2);
    st.nnz = A.nnz();
    st.numeric = us.inserted == 0;  // only values changed
    if (st.numeric) {
      solver->resetup(std::move(A));
    } else {
      own = std::make_unique<Solver>(std::move(A), config.amg, config.solver,
                                     problem_nullspace(p, config, space, r.rows), exec);
      solver = own.get();
    }
    st.setup_seconds = secs(t2, now());
    Vector x = Vector::zeros(r.rows, space, "solution");
    const SolveResult so = solver->solve(p.b, x);
    st.solve_seconds = so.seconds;
    st.iterations = so.iterations;
    st.converged = so.converged;
    st.relative_residual = so.relative_residual;
    if (previous) {
      // Without DCSR: the CSR assembled again from every triplet, then a setup.
      auto t3 = now();
      CsrMatrix R = coo_to_csr(concatenate(csr_to_coo(*previous), upd));
      const Solver again(R.clone(), config.amg, config.solver, problem_nullspace(p, config, space, r.rows), exec);
      st.rebuild_seconds = secs(t3, now());
      SAGA_REQUIRE(R.nnz() == st.nnz, "update step {}: the rebuilt matrix has {} nonzeros, the DCSR one {}", step,
                   R.nnz(), st.nnz);
      previous = std::move(R);
    }
    spdlog::info("update step {}: {} new entries, {} updated, setup {:.4f} s, solve {} iterations", step, st.inserted,
                 st.updated, st.setup_seconds, st.iterations);
    r.updates.push_back(st);
  }
}

RunResult run_solve(const RunConfig& config) { return run_solve(config, Executor::from_name(config.backend)); }

const RunResult::RepeatRun* RunResult::best_repeat() const {
  const RepeatRun* best = nullptr;
  for (const RepeatRun& x : repeats)
    if (!best || x.setup_seconds + x.solve_seconds < best->setup_seconds + best->solve_seconds) best = &x;
  return best;
}

RunResult run_solve_repeated(const RunConfig& config, int repeats, std::shared_ptr<const Executor> exec) {
  if (repeats < 1) throw InputError(fmt::format("--repeat {}: give 1 or more runs", repeats));
  if (!exec) exec = Executor::from_name(config.backend);
  RunResult first = run_solve(config, exec);
  if (repeats == 1) return first;
  first.repeats.push_back({first.setup_seconds, first.solve_seconds, first.solve.iterations});
  RunConfig again = config;
  again.updates.steps = 0;  // the update steps ran after the first run
  again.solver.progress = nullptr;
  for (int k = 1; k < repeats; ++k) {
    const RunResult r = run_solve(again, exec);
    first.repeats.push_back({r.setup_seconds, r.solve_seconds, r.solve.iterations});
  }
  return first;
}

RunResult run_solve(const RunConfig& config, const std::shared_ptr<const Executor>& exec) {
  RunResult r;
  r.config = config;
  const Space space = exec->space();
  r.backend = space;
  r.executor = exec->name();
  validate(config.amg, space);  // before any work
  validate(config.solver, space);
  ExecutorScope scope(exec);
  if (space == Space::device) r.device_name = device::info().name;
  auto now = [&] {
    exec->synchronize();
    return std::chrono::steady_clock::now();
  };
  if (space == Space::device) device::reset_peak_memory();
  auto t0 = now();
  Problem p = build_problem(config.problem, space);
  r.problem_seconds = std::chrono::duration<double>(now() - t0).count();
  r.problem = p.description;
  r.rows = p.A.rows();
  r.nnz = p.A.nnz();
  if (!p.asymmetry.empty() && krylov_methods().create(config.solver.type, space)->needs_spd())
    throw InputError(fmt::format("{}: the matrix is not symmetric: {}. solver.type {} needs a symmetric positive "
                                 "definite matrix; use fgmres or bicgstab (solver: {{type: fgmres}})",
                                 r.problem, p.asymmetry, config.solver.type.name));
  spdlog::info("problem: {} (n = {}, nnz = {}) built in {:.3f} s", r.problem, r.rows, r.nnz, r.problem_seconds);
  const bool constant_nullspace = check_constant_nullspace(p, r.problem);

  NearNullspace ns = problem_nullspace(p, config, space);
  r.nullspace = ns.description;
  // With updates, the matrix is also held as DCSR (added into, no duplicates).
  std::optional<DcsrMatrix> dynamic;
  if (config.updates.steps > 0) {
    DcsrParams dp;
    dp.duplicates = DcsrDuplicates::add;
    dynamic = DcsrMatrix::from_csr(p.A, dp);
  }
  t0 = now();
  Solver solver(std::move(p.A), config.amg, config.solver, std::move(ns), exec);
  r.setup_seconds = std::chrono::duration<double>(now() - t0).count();
  r.hierarchy = solver.stats();
  if (space == Space::device) r.setup_peak_bytes = device::pool_usage().peak;
  if (r.has_hierarchy()) {
    const MultigridCycle& cycle = solver.preconditioner().cycle();
    r.cycle = cycles().resolve(config.amg.cycle, space);
    for (std::size_t l = 0; l < r.hierarchy.levels.size(); ++l) r.smoothers.push_back(cycle.smoother_name(l));
    const MultigridCycle::SpmvCopies copies = cycle.spmv_copies();
    r.spmv_copy_bytes = copies.bytes;
    r.spmv_copy_operators = copies.operators;
  }
  Vector x = Vector::zeros(r.rows, space, "solution");
  r.solve = solver.solve(p.b, x);
  r.solve_seconds = r.solve.seconds;
  if (space == Space::device) r.peak_bytes = device::pool_usage().peak;
  if (p.x_star_seed) {  // x* again (the solve's vectors freed: below the peak), then x - x* in its place
    solver.release_workspace();  // (a resetup would drop them anyway)
    Vector e = random_vector(static_cast<std::size_t>(r.rows), *p.x_star_seed, space);
    const double xnorm = norm2(e);
    axpby(1.0, x, -1.0, e);
    if (constant_nullspace) {  // x is x* up to a constant: the error is e less its mean
      const Vector one = ones(r.rows, space);
      axpby(-dot(e, one) / static_cast<double>(r.rows), one, 1.0, e);
    }
    r.error = norm2(e) / xnorm;
  }
  if (dynamic) run_updates(config, p, *dynamic, solver, exec, r);
  return r;
}

std::string format_summary(const RunResult& r) {
  const auto& h = r.hierarchy;
  std::string s;
  s += fmt::format("backend   {}{}\n", r.executor, r.device_name.empty() ? "" : " (" + r.device_name + ")");
  s += fmt::format("problem   {}\n          n = {}, nnz = {}\n", r.problem, r.rows, r.nnz);
  if (r.has_hierarchy()) {
    s += fmt::format("hierarchy {} levels, grid complexity {:.3f}, operator complexity {:.3f}, coarse size {}\n",
                     h.levels.size(), h.grid_complexity, h.operator_complexity, h.coarse_size);
    if (r.nullspace != "constant") s += fmt::format("          near-nullspace: {}\n", r.nullspace);
    if (h.coarse_pseudo_inverse)
      s += h.coarse_null_space_columns > 0
               ? fmt::format("          coarsest matrix singular: pseudo-inverse by Cholesky, shifted along {} null "
                             "direction(s) of the near-nullspace\n",
                             h.coarse_null_space_columns)
               : std::string("          coarsest matrix singular: pseudo-inverse by eigen-decomposition (host)\n");
    s += fmt::format("  {:>5} {:>10} {:>12} {:>8} {:>11} {:>7}\n", "level", "rows", "nnz", "nnz/row", "aggregates",
                     "rho");
    for (std::size_t l = 0; l < h.levels.size(); ++l) {
      const auto& L = h.levels[l];
      s += fmt::format("  {:>5} {:>10} {:>12} {:>8.1f} {:>11} {:>7}\n", l, L.rows, L.nnz,
                       static_cast<double>(L.nnz) / L.rows, L.aggregates ? std::to_string(L.aggregates) : "-",
                       L.rho > 0 ? fmt::format("{:.3f}", L.rho) : "-");
    }
    for (std::size_t l = 0; l < h.levels.size(); ++l) {  // said here too, not only in the JSON report
      if (!h.levels[l].theta_fallback.empty())
        s += fmt::format("  note: level {}: {}\n", l, h.levels[l].theta_fallback);
      if (h.levels[l].galerkin_slices > 1)
        s += fmt::format("  note: level {}: R (A P) computed in {} blocks of rows, {} rows of A P for {} (less memory; "
                         "amg.galerkin_slices){}\n",
                         l, h.levels[l].galerkin_slices, h.levels[l].galerkin_ap_rows, h.levels[l].rows,
                         h.levels[l].galerkin_retries
                             ? fmt::format("; {} doubling(s) of the blocks after running out of device memory",
                                           h.levels[l].galerkin_retries)
                             : std::string());
    }
    s += fmt::format("setup     {:.4f} s by phase:\n", h.setup_seconds);
    for (const auto& p : setup_phases()) {
      const double t = h.phase_seconds.count(p) ? h.phase_seconds.at(p) : 0.0;
      s += fmt::format("  {:<24} {:>9.4f} s {:>6.1f}%\n", setup_phase_label(p), t, 100.0 * t / h.setup_seconds);
    }
    s += fmt::format("  SpGEMM share of setup: {:.1f}% ({:.4f} s)\n", 100.0 * h.spgemm_seconds() / h.setup_seconds,
                     h.spgemm_seconds());
  } else {
    s += fmt::format("hierarchy none: solver.type {} with solver.preconditioner {} applies no multigrid cycle, so no "
                     "AMG was set up (the amg section is checked, not used)\n",
                     r.config.solver.type.name, r.config.solver.preconditioner.name);
    s += fmt::format("setup     {:.4f} s (the matrix checked)\n", r.setup_seconds);
  }
  const auto& so = r.solve;
  // solver.type amg is the stationary iteration x += M (b - A x) with M the preconditioner (the cycle by default).
  const std::string& precond = r.config.solver.preconditioner.name;
  const std::string method = so.method == "amg" ? fmt::format("stationary iteration x += M (b - A x), M = {}", precond)
                                                : fmt::format("{} preconditioned by {}", so.method, precond);
  const std::string cycle = r.has_hierarchy() ? fmt::format(" ({}-cycle, {} smoother, {} coarse solver)", r.cycle,
                                                             r.smoothers.empty() ? "-" : r.smoothers.front(),
                                                             h.coarse_solver)
                                               : std::string();
  s += fmt::format("solve     {}{}: {}\n", method, cycle, so.message);
  s += fmt::format("          iterations {}, final relative residual {:.3e}, convergence factor {:.3f}{}\n",
                   so.iterations, so.relative_residual, so.convergence_factor,
                   so.launch.empty() ? std::string()
                                     : fmt::format(", launched as {}{}", so.launch,
                                                   so.launch_note.empty() ? "" : " (" + so.launch_note + ")"));
  if (r.error) s += fmt::format("          error ||x - x*|| / ||x*|| = {:.3e}\n", *r.error);
  if (r.peak_bytes > 0)
    s += fmt::format("memory    peak device memory {:.3f} GiB ({:.0f} B per unknown; setup, problem included, {:.3f} "
                     "GiB{})\n",
                     r.peak_bytes / 1073741824.0, static_cast<double>(r.peak_bytes) / r.rows,
                     r.setup_peak_bytes / 1073741824.0,
                     r.has_hierarchy() ? fmt::format("; setup estimate beyond the matrix {:.3f} GiB with A P whole, "
                                                     "{:.3f} GiB in blocks",
                                                     h.estimated_bytes / 1073741824.0,
                                                     h.estimated_blocked_bytes / 1073741824.0)
                                       : std::string());
  if (h.peak_level >= 0)
    s += fmt::format("          setup peak in level {}, phase '{}' ({:.0f} B per unknown)\n", h.peak_level,
                     setup_phase_label(h.peak_phase), static_cast<double>(h.peak_bytes) / r.rows);
  if (r.peak_bytes > 0 && r.has_hierarchy())
    s += fmt::format("          hierarchy matrices {:.3f} GiB ({:.0f} B per unknown; P, R and coarse values in {})\n",
                   h.matrix_bytes() / 1073741824.0, static_cast<double>(h.matrix_bytes()) / r.rows,
                   !h.levels.empty() && h.levels.front().single_precision ? "float" : "double");
  if (r.peak_bytes > 0 && r.has_hierarchy()) {
    const std::string& room = r.config.amg.spmv_copies;
    s += fmt::format("          SpMV copies {:.3f} GiB ({:.0f} B per unknown) on {} of the cycle's operators, {}\n",
                     r.spmv_copy_bytes / 1073741824.0, static_cast<double>(r.spmv_copy_bytes) / r.rows,
                     r.spmv_copy_operators,
                     room == "free"   ? "in the device's free memory (amg.spmv_copies: free)"
                     : room == "none" ? "none allowed (amg.spmv_copies: none)"
                                      : "within the setup's peak");
  }
  if (!h.memory_fit.empty()) s += fmt::format("          to fit the device memory: {}\n", h.memory_fit);
  if (!h.levels.empty() && h.levels.front().exact_single)
    s += "          fine matrix values stored in float: every one is exactly a float (lossless, amg.exact_single)\n";
  if (!h.levels.empty() && h.levels.front().fine_cycle_single)
    s += "          the cycle reads a float copy of the fine matrix's values; the Krylov method the doubles "
         "(amg.fine_cycle_precision)\n";
  for (std::size_t l = 0; l < h.levels.size(); ++l)
    if (h.levels[l].implicit_prolongator)
      s += fmt::format("          level {}: P applied as (I - ωD⁻¹A) T, not stored (amg.implicit_prolongator)\n", l);
  s += fmt::format("time      setup {:.4f} s, solve {:.4f} s, total {:.4f} s (problem generation {:.4f} s)\n",
                   r.setup_seconds, r.solve_seconds, r.setup_seconds + r.solve_seconds, r.problem_seconds);
  if (const RunResult::RepeatRun* best = r.best_repeat()) {
    std::vector<double> setup, solve;
    for (const auto& x : r.repeats) setup.push_back(x.setup_seconds), solve.push_back(x.solve_seconds);
    s += fmt::format("repeats   {} runs in this process (the first above): best total {:.4f} s (setup {:.4f} s, solve "
                     "{:.4f} s, {} iterations); median setup {:.4f} s, solve {:.4f} s\n",
                     r.repeats.size(), best->setup_seconds + best->solve_seconds, best->setup_seconds,
                     best->solve_seconds, best->iterations, time_stat(setup).median, time_stat(solve).median);
  }
  if (!r.updates.empty()) {
    const UpdatesConfig& u = r.config.updates;
    s += fmt::format("updates   {} steps: {} {} couplings each (weight {}), inserted into the DCSR matrix, set up and "
                     "solved again\n",
                     r.updates.size(), u.couplings_per_step(r.rows), u.couplings, u.weight);
    s += fmt::format("  {:>4} {:>12} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10} {:>5} {:>10} {:>12}\n", "step", "nnz",
                     "new", "updated", "update ms", "to CSR ms", "setup ms", "solve ms", "its", "rel.res",
                     "rebuild ms");
    for (std::size_t k = 0; k < r.updates.size(); ++k) {
      const UpdateStep& st = r.updates[k];
      s += fmt::format("  {:>4} {:>12} {:>9} {:>9} {:>10.3f} {:>10.3f} {:>10} {:>10.3f} {:>5} {:>10.2e} {:>12}{}\n",
                       k + 1, st.nnz, st.inserted, st.updated, 1e3 * st.update_seconds, 1e3 * st.to_csr_seconds,
                       fmt::format("{:.3f}{}", 1e3 * st.setup_seconds, st.numeric ? " r" : ""),
                       1e3 * st.solve_seconds, st.iterations, st.relative_residual,
                       st.rebuild_seconds >= 0 ? fmt::format("{:.3f}", 1e3 * st.rebuild_seconds) : "-",
                       st.converged ? "" : "  NOT converged");
    }
    s += "  r: numeric resetup, aggregates, P and R kept (the pattern did not change); rebuild: the CSR assembled "
         "again from all its triplets (sorted) and set up from scratch, as without DCSR\n";
  }
  return s;
}

// JSON has no NaN or infinity (nlohmann writes null): a residual of a
// broken-down iteration is written "NaN" / "Infinity", which the report schema
// allows and float() in Python reads.
namespace {
nlohmann::json json_real(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}
}  // namespace

nlohmann::json to_json(const RunResult& r) {
  using nlohmann::json;
  const auto& h = r.hierarchy;
  json j;
  j["saga_version"] = SAGA_VERSION;
  j["offset_bits"] = 8 * sizeof(offset_t);  // the build's row-offset width (SAGA_OFFSET_BITS)
  j["config"] = {{"name", r.config.name},
                 {"problem", problem_json(r.config.problem, r.backend)},
                 {"amg", amg_json(r.config.amg, r.backend)},
                 {"solver", solver_json(r.config.solver, r.backend)}};
  j["backend"] = backend_name(r.backend);
  j["executor"] = r.executor;
  // Without a hierarchy: "none", no smoothers, hierarchy null.
  j["cycle"] = r.has_hierarchy() ? r.cycle : "none";
  j["smoothers"] = r.smoothers;
  j["coarse_solver"] = r.has_hierarchy() ? h.coarse_solver : "none";
  j["spgemm"] = r.has_hierarchy() ? h.spgemm_algorithm : "none";
  j["method"] = r.solve.method;
  j["device"] = r.device_name;
  j["problem"] = {{"description", r.problem}, {"rows", r.rows}, {"nnz", r.nnz}, {"seconds", r.problem_seconds}};
  j["nullspace"] = r.nullspace;
  json levels = json::array();
  for (const auto& L : h.levels) {
    json l = {{"rows", L.rows},       {"nnz", L.nnz},       {"aggregates", L.aggregates},
              {"mis2_rounds", L.mis2_rounds}, {"block_colours", L.block_colours}, {"galerkin_slices", L.galerkin_slices}, {"galerkin_retries", L.galerkin_retries}, {"rho", L.rho}, {"theta", L.theta}, {"phase_seconds", L.seconds},
              {"nodes", L.nodes}, {"dropped_columns", L.dropped_columns},
              {"matrix_bytes", L.matrix_bytes}, {"single_precision", L.single_precision},
              {"exact_single", L.exact_single}, {"fine_cycle_single", L.fine_cycle_single},
              {"implicit_prolongator", L.implicit_prolongator}};
    for (const auto& [name, rec] : L.spgemm)
      l["spgemm"][name] = {{"products", rec.products},
                           {"nnz", rec.nnz_c},
                           {"seconds", rec.seconds},
                           {"workspace_bytes", rec.workspace_bytes},
                           {"slices", rec.slices},
                           {"offset_bits", rec.offset_bits},
                           {"gflops", rec.seconds > 0 ? 2.0 * rec.products / rec.seconds * 1e-9 : 0.0}};
    levels.push_back(l);
  }
  if (r.has_hierarchy())
    j["hierarchy"] = {{"levels", levels},
                      {"grid_complexity", h.grid_complexity},
                      {"operator_complexity", h.operator_complexity},
                      {"matrix_bytes", h.matrix_bytes()},
                      {"coarse_pseudo_inverse", h.coarse_pseudo_inverse},
                      {"coarse_null_space_columns", h.coarse_null_space_columns},
                      {"memory_fit", h.memory_fit},
                      {"coarse_size", h.coarse_size}};
  else
    j["hierarchy"] = nullptr;
  std::map<std::string, double> phase_seconds = h.phase_seconds;
  if (!r.has_hierarchy())
    for (const auto& p : setup_phases()) phase_seconds[p] = 0.0;  // no hierarchy: no phase ran
  json shares = json::object();
  for (const auto& [phase, t] : phase_seconds) shares[phase] = h.setup_seconds > 0 ? t / h.setup_seconds : 0.0;
  j["setup"] = {{"seconds", r.has_hierarchy() ? h.setup_seconds : r.setup_seconds},
                {"phase_seconds", phase_seconds},
                {"phase_share", shares},
                {"spgemm_seconds", h.spgemm_seconds()},
                {"spgemm_share", h.setup_seconds > 0 ? h.spgemm_seconds() / h.setup_seconds : 0.0}};
  json history = json::array();
  for (double h : r.solve.residual_history) history.push_back(json_real(h));
  j["solve"] = {{"converged", r.solve.converged},
                {"iterations", r.solve.iterations},
                {"relative_residual", json_real(r.solve.relative_residual)},
                {"convergence_factor", json_real(r.solve.convergence_factor)},
                {"residual_history", history},
                {"message", r.solve.message},
                {"seconds", r.solve.seconds},
                {"launch", r.solve.launch},
                {"launch_note", r.solve.launch_note}};
  j["error"] = r.error ? json_real(*r.error) : json(nullptr);
  j["device_memory"] = {{"peak_bytes", r.peak_bytes},
                        {"setup_peak_bytes", r.setup_peak_bytes},
                        {"setup_estimate_bytes", h.estimated_bytes},
                        {"setup_estimate_blocked_bytes", h.estimated_blocked_bytes},
                        {"spmv_copy_bytes", r.spmv_copy_bytes},
                        {"spmv_copy_operators", r.spmv_copy_operators}};
  if (h.peak_level >= 0) {
    json peaks = json::array();
    for (std::size_t l = 0; l < h.levels.size(); ++l)
      for (const auto& p : setup_phases())  // in the order the setup runs them
        if (auto it = h.levels[l].peak_bytes.find(p); it != h.levels[l].peak_bytes.end())
          peaks.push_back({{"level", l}, {"phase", p}, {"bytes", it->second}});
    j["device_memory"]["setup_phase_peaks"] = peaks;
  }
  j["times"] = {{"setup", r.setup_seconds}, {"solve", r.solve_seconds}, {"total", r.setup_seconds + r.solve_seconds}};
  if (const RunResult::RepeatRun* best = r.best_repeat()) {
    json runs = json::array();
    for (const auto& x : r.repeats)
      runs.push_back({{"setup", x.setup_seconds},
                      {"solve", x.solve_seconds},
                      {"total", x.setup_seconds + x.solve_seconds},
                      {"iterations", x.iterations}});
    j["repeats"] = {{"runs", runs},
                    {"best", {{"setup", best->setup_seconds},
                              {"solve", best->solve_seconds},
                              {"total", best->setup_seconds + best->solve_seconds},
                              {"iterations", best->iterations}}}};
  }
  if (!r.updates.empty()) {
    const UpdatesConfig& u = r.config.updates;
    json steps = json::array();
    for (const UpdateStep& s : r.updates)
      steps.push_back({{"nnz", s.nnz},
                       {"inserted", s.inserted},
                       {"updated", s.updated},
                       {"defragmentations", s.defragmentations},
                       {"update_seconds", s.update_seconds},
                       {"to_csr_seconds", s.to_csr_seconds},
                       {"setup_seconds", s.setup_seconds},
                       {"solve_seconds", s.solve_seconds},
                       {"iterations", s.iterations},
                       {"converged", s.converged},
                       {"relative_residual", json_real(s.relative_residual)},
                       {"rebuild_seconds", s.rebuild_seconds >= 0 ? json(s.rebuild_seconds) : json(nullptr)},
                       {"numeric_resetup", s.numeric}});
    j["updates"] = {{"steps", steps}, {"edges", u.edges}, {"weight", u.weight}, {"seed", u.seed},
                    {"couplings", u.couplings}};
  }
  return j;
}

}  // namespace saga
