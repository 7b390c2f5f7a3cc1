// Every registered Krylov method against Eigen's direct solvers: on an SPD
// problem, and (those that do not need SPD) with the SA preconditioner on the
// nonsymmetric convection-diffusion matrix; GMRES's finite termination;
// nesting (a Krylov solve preconditioning every flexible method) and a user's
// function as the operator. Method-specific properties have their own files
// (test_krylov_<name>.cpp).
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include "api/saga.hpp"
#include "solver/krylov/common.hpp"
#include "solver/krylov/conjugate_gradient.hpp"
#include "app/config.hpp"
#include "app/run.hpp"
#include "problems/problem.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/attainable_accuracy.hpp"
#include "tests/convection_diffusion.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
Eigen::VectorXd vec(const Vector& v) {
  const auto x = v.to_vector();
  return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
}
}  // namespace

TEST_CASE("every Krylov method solves an SPD problem to Eigen's LDLT solution") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = poisson(Stencil::fe2d_9pt, 48, Space::host);
  const Vector b = random_vector(A.rows(), rng(), Space::host);
  Eigen::SimplicialLDLT<EigenCsr::PlainObject> ldlt;
  const Eigen::SparseMatrix<double> Ae = to_eigen(A);
  ldlt.compute(Ae);
  const Eigen::VectorXd xe = ldlt.solve(vec(b));
  AmgParams amg;
  amg.coarse_size = 50;
  for (const std::string& m : krylov_methods().names()) {
    CAPTURE(m);
    SolverParams sp;
    sp.type = m;
    sp.tolerance = 1e-10;
    sp.max_iterations = m == "cg" ? 2000 : 300;
    const Solver s(A, amg, sp);
    Vector x = Vector::zeros(A.rows(), Space::host);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    CHECK(r.method == m);
    CHECK(r.relative_residual <= 1e-10);
    CHECK((vec(x) - xe).norm() <= 1e-7 * xe.norm());
    // The reported residual is the true one.
    Vector res = b.clone();
    spmv(-1.0, A, x, 1.0, res);
    CHECK(norm2(res) / norm2(b) <= 1.5e-10);
    if (m != "cg") CHECK(r.iterations <= (m == "amg" ? 80 : 25));
    MESSAGE(m << ": " << r.iterations << " iterations");
  }
}

TEST_CASE("GMRES(m) without a preconditioner terminates in at most n steps (m >= n)") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = convection_diffusion(4, 3.0);  // 16 unknowns, nonsymmetric
  const Vector b = random_vector(A.rows(), rng(), Space::host);
  SolverParams sp;
  sp.type = Component("gmres", Options().set("restart", 50));
  sp.tolerance = 1e-12;
  const MatrixOperator op(A);
  Vector x = Vector::zeros(A.rows(), Space::host);
  const SolveResult r = krylov_solve(op, nullptr, b, x, sp);
  CHECK(r.converged);
  CHECK(r.iterations <= 16);
}

TEST_CASE("every method for nonsymmetric A solves convection-diffusion with SA-AMG") {
  std::mt19937_64 rng(fresh_seed());
  // Mesh Péclet 0.05 and 0.5: |w| about 10 and 100 on the unit square (N = 96).
  // Strong convection is hard for SA-AMG with R = P^T: iterations grow with Pe.
  for (double pe : {0.05, 0.5}) {
    const CsrMatrix A = convection_diffusion(96, pe);
    const Vector b = random_vector(A.rows(), rng(), Space::host);
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
    lu.compute(Eigen::SparseMatrix<double>(to_eigen(A)));
    const Eigen::VectorXd xe = lu.solve(vec(b));
    AmgParams amg;
    amg.coarse_solver = "dense_lu";
    amg.coarse_size = 100;
    for (const std::string& m : krylov_methods().names()) {
      if (krylov_methods().create(m, Space::host)->needs_spd()) continue;
      CAPTURE(pe);
      CAPTURE(m);
      SolverParams sp;
      sp.type = m;
      sp.tolerance = 1e-10;
      const Solver s(A, amg, sp);
      Vector x = Vector::zeros(A.rows(), Space::host);
      const SolveResult r = s.solve(b, x);
      CHECK(r.converged);
      CHECK(r.iterations <= (pe < 0.1 ? 40 : 120));
      CHECK((vec(x) - xe).norm() <= 1e-7 * xe.norm());
      MESSAGE("convection-diffusion Pe " << pe << " " << m << ": " << r.iterations << " iterations");
    }
  }
  // The Cholesky coarse solver refuses a nonsymmetric coarse matrix instead of
  // returning a wrong inverse.
  AmgParams chol;
  chol.coarse_size = 100;
  CHECK_THROWS_WITH_AS(AmgPreconditioner(convection_diffusion(64, 5.0), chol), doctest::Contains("dense_lu"),
                       InputError);
}

TEST_CASE("nesting: an inner PCG(AMG) solve preconditions every flexible method; a smoother preconditions CG") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, 20, Space::host);
  const Vector b = random_vector(A.rows(), rng(), Space::host);
  int flexible = 0;
  for (const std::string& outer : krylov_methods().names()) {
    if (!krylov_methods().create(outer, Space::host)->flexible()) continue;
    ++flexible;
    CAPTURE(outer);
    SolverParams sp;
    sp.type = outer;
    sp.preconditioner = Component("pcg", Options().set("max_iterations", 3).set("tolerance", 1e-2));
    const Solver s(A, AmgParams{}, sp);
    Vector x = Vector::zeros(A.rows(), Space::host);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    CHECK(r.iterations <= 6);
  }
  CHECK(flexible >= 1);
  SolverParams sp;
  sp.type = "pcg";
  sp.preconditioner = Component("jacobi", Options().set("sweeps", 3));  // a polynomial preconditioner
  const Solver s(A, AmgParams{}, sp);
  Vector x = Vector::zeros(A.rows(), Space::host);
  const SolveResult with = s.solve(b, x);
  sp.preconditioner = "none";
  Vector y = Vector::zeros(A.rows(), Space::host);
  const SolveResult without = Solver(A, AmgParams{}, sp).solve(b, y);
  CHECK(with.converged);
  CHECK(without.converged);
  CHECK(with.iterations < without.iterations);
}

// What the multigrid cycle leaves free of its SpMV copies (MultigridCycle):
// the vectors each method allocates, counted from the methods' code (the GPU
// test "GPU SpMV copies: the cycle leaves room ..." measures them).
TEST_CASE("every Krylov method says how many vectors a solve allocates; a nested method adds the inner one's") {
  auto vectors = [](const Component& type, const Component& pre = Component("amg")) {
    const SolverParams sp = solver_params(type, pre);
    validate(sp, Space::host);
    return krylov_workspace_vectors(sp, Space::host);
  };
  CHECK(vectors(Component("pcg")) == 3);  // r, q, A q (which holds z)
  CHECK(vectors(Component("cg")) == 3);
  CHECK(vectors(Component("fcg")) == 4);  // and z
  CHECK(vectors(Component("bicgstab")) == 8);
  CHECK(vectors(Component("amg")) == 2);                                                 // r, e
  CHECK(vectors(Component("gmres", Options().set("restart", 5))) == 5 + 1 + 3);          // basis, r, w, z
  CHECK(vectors(Component("fgmres", Options().set("restart", 5))) == 5 + 1 + 5 + 3);     // and Z
  CHECK(vectors(Component("fcg"), Component("pcg", Options().set("max_iterations", 3))) == 4 + 3);
  CHECK(vectors(Component("pcg"), Component("jacobi")) == 3);  // a smoother: no cycle, no Krylov vectors
  CHECK(krylov_methods().names().size() == 7);  // a new method: its count above
}

TEST_CASE("a user's function is an operator: matrix-free 1D Laplacian, closed-form solution") {
  const index_t n = 200;
  const FunctionOperator lap(n, Space::host, [n](const Vector& x, Vector& y) {
    for (index_t i = 0; i < n; ++i) y[i] = 2 * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i + 1 < n ? x[i + 1] : 0.0);
  });
  const Vector b = ones(n, Space::host);
  Vector x = Vector::zeros(n, Space::host);
  SolverParams sp;
  sp.type = "cg";
  sp.tolerance = 1e-12;
  const SolveResult r = krylov_solve(lap, nullptr, b, x, sp);
  CHECK(r.converged);
  CHECK(r.iterations <= n);
  for (index_t i : {0, n / 3, n - 1}) CHECK(x[i] == doctest::Approx(0.5 * (i + 1) * (n - i)).epsilon(1e-8));
}

TEST_CASE("breakdowns and bad input are reported") {
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 8, Space::host);
  const MatrixOperator op(A);
  Vector b = ones(A.rows(), Space::host), x = Vector::zeros(A.rows(), Space::host), small(3, Space::host);
  SolverParams sp;
  CHECK_THROWS_WITH_AS(krylov_solve(op, nullptr, b, small, sp), doctest::Contains("x has 3 entries"), InputError);
  sp.type = Component("gmres", Options().set("restart", 0));
  CHECK_THROWS_WITH_AS(krylov_solve(op, nullptr, b, x, sp),
                       doctest::Contains("solver.restart: 0 is not allowed (expected [1, 1000])"), InputError);
  sp.type = Component("bicgstab", Options().set("restart", 5));
  CHECK_THROWS_WITH_AS(krylov_solve(op, nullptr, b, x, sp), doctest::Contains("this component has no parameters"),
                       InputError);
  sp.type = Component("pcg", Options().set("check_every", -1));
  CHECK_THROWS_WITH_AS(krylov_solve(op, nullptr, b, x, sp), doctest::Contains("solver.check_every: -1 is not allowed"),
                       InputError);
  // A negative definite operator breaks CG down with a message.
  sp.type = "cg";
  const FunctionOperator neg(A.rows(), Space::host, [&](const Vector& v, Vector& w) { spmv(-1.0, A, v, 0.0, w); });
  const SolveResult r = krylov_solve(neg, nullptr, b, x, sp);
  CHECK_FALSE(r.converged);
  CHECK(r.message.find("breakdown") != std::string::npos);
}

TEST_CASE("CG checked every k iterations: the same iterations, history and x as every iteration") {
  // The updates stop on the device (cg_step) where the host's test would stop
  // the solve, so iterations launched past convergence change nothing.
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 40, Space::host);
  const Vector b = random_vector(A.rows(), rng(), Space::host);
  AmgParams amg;
  amg.coarse_size = 50;
  SolverParams sp;
  sp.tolerance = 1e-9;
  sp.type = Component("pcg", Options().set("check_every", 1));
  Vector x1 = Vector::zeros(A.rows(), Space::host);
  const SolveResult every = Solver(A, amg, sp).solve(b, x1);
  REQUIRE(every.converged);
  CHECK(every.launch == "host");
  for (int k : {0, 2, 3, 5, 100}) {
    CAPTURE(k);
    sp.type = Component("pcg", Options().set("check_every", k));
    Vector xk = Vector::zeros(A.rows(), Space::host);
    const SolveResult r = Solver(A, amg, sp).solve(b, xk);
    CHECK(r.converged);
    CHECK(r.iterations == every.iterations);
    CHECK(r.residual_history == every.residual_history);
    CHECK(xk.to_vector() == x1.to_vector());
    CHECK(r.relative_residual <= 1e-9);
    // The reported residual is that of the x returned.
    Vector res = b.clone();
    spmv(-1.0, A, xk, 1.0, res);
    CHECK(norm2(res) / norm2(b) == doctest::Approx(r.relative_residual).epsilon(1e-5));
  }
  // The iteration limit inside a batch: stopped there, reported as not converged.
  sp.max_iterations = every.iterations - 2;
  sp.type = Component("pcg", Options().set("check_every", 100));
  Vector xl = Vector::zeros(A.rows(), Space::host);
  const SolveResult limited = Solver(A, amg, sp).solve(b, xl);
  CHECK_FALSE(limited.converged);
  CHECK(limited.iterations == every.iterations - 2);
}

// The automatic check interval (check_every: 0): every iteration on the host or
// for long iterations, else what the residual's rate predicts, less two.
TEST_CASE("CG's automatic check interval follows the residual's rate") {
  using krylov::iterations_before_check;
  const std::vector<double> h{1.0, 0.1, 0.01, 0.001};  // a rate of 0.1: 2e-9 needs 5.7 more
  CHECK(iterations_before_check(4, Space::device, h, 2e-9, 1e-4) == 4);  // a fixed interval is kept
  CHECK(iterations_before_check(0, Space::host, h, 2e-9, 1e-4) == 1);    // the host waits for nothing
  CHECK(iterations_before_check(0, Space::device, h, 2e-9, 2e-3) == 1);  // a long iteration: every one
  CHECK(iterations_before_check(0, Space::device, h, 2e-9, 1e-4) == 2);  // half of 5.7
  CHECK(iterations_before_check(0, Space::device, {1.0, 0.1, 0.01}, 1e-8, 1e-4) == 1);  // too early
  // The faster rate: the last iteration's 0.01 (not the three's 0.1): 1e-12 needs 4.5, half is 2
  CHECK(iterations_before_check(0, Space::device, {1.0, 0.1, 0.1, 1e-3}, 1e-12, 1e-4) == 2);
  CHECK(iterations_before_check(0, Space::device, {1.0, 0.5, 0.6, 1.2}, 1e-8, 1e-4) == 1);  // not converging
  CHECK(iterations_before_check(0, Space::device, {1.0, 1e-2, 1e-4, 1e-6}, 1e-300, 1e-4) == 16);  // at most 16
  CHECK(iterations_before_check(0, Space::device, h, 2e-4, 1e-4) == 1);  // under 2 more needed
}

// A Solver keeps the CG family's vectors and scalars between solves
// (KrylovState; on the GPU also the iteration's graph): what a solve leaves in
// them must not reach the next one. Each solve equals a fresh Solver's bitwise,
// whatever the right-hand side, the initial guess and the x array.
TEST_CASE("repeated solves of one Solver equal fresh Solvers' bitwise (kept CG state)") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 40, Space::host);
  AmgParams amg;
  amg.coarse_size = 50;
  for (const char* method : {"pcg", "fcg", "cg"}) {
    CAPTURE(method);
    SolverParams sp;
    sp.type = method;
    sp.max_iterations = 1000;
    Solver solver(A, amg, sp);
    Vector x = Vector::zeros(A.rows(), Space::host), y = Vector::zeros(A.rows(), Space::host);
    for (int k = 0; k < 5; ++k) {
      CAPTURE(k);
      const Vector b = random_vector(A.rows(), rng(), Space::host);
      const Vector x0 = k % 2 ? random_vector(A.rows(), rng(), Space::host) : Vector::zeros(A.rows(), Space::host);
      Vector& into = k == 3 ? y : x;  // another x array once
      copy(x0, into);
      if (k == 4) solver.release_workspace();
      const SolveResult r = solver.solve(b, into);
      Vector xf = x0.clone();
      const SolveResult rf = Solver(A, amg, sp).solve(b, xf);
      CHECK(r.converged);
      CHECK(r.launch == "host");
      CHECK(r.residual_history == rf.residual_history);
      CHECK(into.to_vector() == xf.to_vector());
    }
  }
}

// The CG family claims convergence only where b - A x meets the tolerance
// (option confirm; auto: tolerances of at most 1e-10). Near double precision's
// attainable accuracy the recurrence's residual drifts below b - A x (PCG(AMG)
// on 3D 7-pt N=64 at 1e-16: 5.6e-17 against 2.8e-16): the solve restarts from
// b - A x, and where that stops gaining it says so instead of converging.
TEST_CASE("CG family: convergence confirmed from b - A x near double precision, stagnation reported") {
  std::mt19937_64 rng(fresh_seed());
  const AttainableSystem sys = attainable_system(sized(32, 16), rng());
  for (const char* method : {"pcg", "fcg", "cg"}) {  // confirm: auto
    for (const double tol : {1e-15, 1e-16, 1e-17}) {
      CAPTURE(method);
      CAPTURE(tol);
      solve_checked_near_attainable(sys, method, tol, Space::host);
    }
  }
}

// GMRES and FGMRES check b - A x after every restart cycle; where a cycle's
// estimate met the tolerance and b - A x did not, they restart from it while
// that gains (Run::restart_gains, as the CG family). Before, at a tolerance
// below what double precision attains, they restarted every few iterations
// until max_iterations (3D 7-pt N=32 at 1e-16: 3000 iterations, 40 s).
TEST_CASE("GMRES and FGMRES: b - A x stagnating near double precision is reported, not iterated to the limit") {
  std::mt19937_64 rng(fresh_seed());
  const AttainableSystem sys = attainable_system(sized(32, 16), rng());
  for (const char* method : {"gmres", "fgmres"}) {
    for (const double tol : {1e-15, 1e-16, 1e-17}) {
      CAPTURE(method);
      CAPTURE(tol);
      CHECK(solve_checked_near_attainable(sys, method, tol, Space::host).iterations < 300);  // 20-40 measured
    }
    // Restarts because the basis is full are not counted: GMRES(4) restarts
    // many times on its way to 1e-10 and converges.
    CAPTURE(method);
    SolverParams sp;
    sp.tolerance = 1e-10;
    sp.max_iterations = 3000;
    sp.type = Component(method, Options().set("restart", 4));
    Vector x = Vector::zeros(sys.A.rows(), Space::host);
    const SolveResult r = Solver(sys.A, sys.amg, sp).solve(sys.b, x);
    CHECK(r.converged);
    CHECK(r.iterations > 3 * 4);  // at least three full cycles before it
    CHECK(true_relative_residual(sys.A, sys.b, x) <= 1e-10);
    CHECK(r.relative_residual == doctest::Approx(true_relative_residual(sys.A, sys.b, x)).epsilon(1e-6));
  }
}

TEST_CASE("stagnation of b - A x: flat near rounding's level, never above the bound (hand-made histories)") {
  using krylov::stagnated;
  // Geometric histories from 1 at `factor` an iteration, then `flat` more at `level` (+-1% alternating).
  const auto history = [](double factor, double down_to, int flat, double level) {
    std::vector<double> h{1.0};
    while (h.back() * factor >= down_to) h.push_back(h.back() * factor);
    for (int i = 0; i < flat; ++i) h.push_back(level * (i % 2 ? 1.01 : 0.99));
    return h;
  };
  CHECK_FALSE(stagnated({1.0, 0.1, 0.01}, 20, 1e-10));                  // shorter than the window
  CHECK_FALSE(stagnated(history(0.5, 1e-16, 0, 0), 3, 1e-10));          // converging to the end
  // Flat at 2.2e-16 after 1.8e-15: stagnated once a whole window follows a flat value.
  CHECK(stagnated(history(0.5, 1e-15, 21, 2.2e-16), 20, 1e-10));
  CHECK_FALSE(stagnated(history(0.5, 1e-15, 20, 2.2e-16), 20, 1e-10));  // the window holds the fall
  CHECK_FALSE(stagnated(history(0.5, 1e-4, 40, 1e-5), 20, 1e-10));      // flat, but far above the bound
  // Slow iterations below the bound: 0.99 an iteration falls 18% in 20, 0.995 only 9.5%.
  CHECK_FALSE(stagnated(history(0.99, 1e-11, 0, 0), 20, 1e-10));
  CHECK(stagnated(history(0.995, 1e-11, 0, 0), 20, 1e-10));
  std::vector<double> nan_last = history(0.5, 1e-15, 20, 2.2e-16);
  nan_last.back() = std::nan("");
  CHECK_FALSE(stagnated(nan_last, 20, 1e-10));  // divergence is record()'s to report
}

TEST_CASE("stand-alone AMG: b - A x stagnating near double precision is reported, not iterated to the limit") {
  std::mt19937_64 rng(fresh_seed());
  const AttainableSystem sys = attainable_system(sized(32, 16), rng());
  for (const double tol : {1e-15, 1e-16, 1e-17}) {
    CAPTURE(tol);
    CHECK(solve_checked_near_attainable(sys, "amg", tol, Space::host).iterations < 300);  // ~85 (flat from the 64th)
  }
}

TEST_CASE("CG family: confirm auto leaves tolerances above 1e-10 to the recurrence; on confirms them") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 40, Space::host);
  const Vector b = random_vector(A.rows(), rng(), Space::host);
  AmgParams amg;
  amg.coarse_size = 50;
  CHECK(krylov::cg_confirmed_tolerance == 1e-10);
  for (const char* method : {"pcg", "fcg", "cg"}) {
    CAPTURE(method);
    SolverParams sp;
    sp.tolerance = 1e-8;
    sp.max_iterations = 1000;
    const auto solve = [&](const char* confirm, Vector& x) {
      sp.type = Component(method, Options().set("confirm", confirm));
      return Solver(A, amg, sp).solve(b, x);
    };
    Vector x_auto = Vector::zeros(A.rows(), Space::host), x_off = Vector::zeros(A.rows(), Space::host),
           x_on = Vector::zeros(A.rows(), Space::host);
    const SolveResult a = solve("auto", x_auto), off = solve("off", x_off), on = solve("on", x_on);
    REQUIRE(off.converged);
    // auto at 1e-8: the recurrence's answer, bit for bit.
    CHECK(a.residual_history == off.residual_history);
    CHECK(x_auto.to_vector() == x_off.to_vector());
    // on: b - A x reported; the same iterates where no restart was needed.
    CHECK(on.converged);
    CHECK(on.relative_residual == doctest::Approx(true_relative_residual(A, b, x_on)).epsilon(1e-9));
    CHECK(on.relative_residual <= 1e-8);
    if (on.message.find("restart") == std::string::npos) {
      CHECK(on.iterations == off.iterations);
      CHECK(x_on.to_vector() == x_off.to_vector());
      CHECK(on.relative_residual == doctest::Approx(off.relative_residual).epsilon(1e-4));
    } else {
      CHECK(on.iterations > off.iterations);
    }
  }
  CHECK_THROWS_WITH_AS(krylov_methods().validate(Component("pcg", Options().set("confirm", "maybe"))),
                       doctest::Contains("solver.confirm"), InputError);
}
