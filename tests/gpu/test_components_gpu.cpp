// The components on the CUDA backend against the host backend: every smoother
// and cycle, every Krylov method, the nonsymmetric problem; and executors: two
// solvers on two executors (two streams) from two threads give exactly the
// results of sequential runs.
#include <thread>

#include "api/saga.hpp"
#include "problems/problem.hpp"
#include "problems/structured.hpp"
#include "solver/cycle.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/attainable_accuracy.hpp"
#include "tests/convection_diffusion.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
SolveResult solve(const CsrMatrix& A, const Vector& b, const AmgParams& amg, const SolverParams& sp,
                  std::vector<double>* x_out = nullptr, std::shared_ptr<const Executor> exec = nullptr) {
  const Solver s(A, amg, sp, exec);
  ExecutorScope scope(s.executor());
  Vector x = Vector::zeros(A.rows(), A.space());
  SolveResult r = s.solve(b, x);
  if (x_out) *x_out = x.to_vector();
  return r;
}
// The same solve on the host and on the GPU: both converge, with the same
// iterations (up to `slack`) and the same solution.
void check_backends_agree(const CsrMatrix& Ah, const Vector& bh, const AmgParams& amg, const SolverParams& sp,
                          int slack) {
  const CsrMatrix Ad = Ah.to(Space::device);
  const Vector bd = bh.to(Space::device);
  std::vector<double> xh, xd;
  const SolveResult rh = solve(Ah, bh, amg, sp, &xh), rd = solve(Ad, bd, amg, sp, &xd);
  CHECK(rh.converged);
  CHECK(rd.converged);
  CHECK(std::abs(rh.iterations - rd.iterations) <= slack);
  CHECK(max_rel_diff(xd, xh) < 1e-6);
}
}  // namespace

TEST_CASE("GPU row absolute sums equal host") {
  std::mt19937_64 rng(fresh_seed());
  RandomSpec sp;
  sp.rows = sp.cols = 500;
  const CsrMatrix A = from_host_csr(random_csr(sp, rng), Space::host);
  CHECK(row_abs_sums(A.to(Space::device)).to_vector() == row_abs_sums(A).to_vector());
}

TEST_CASE("GPU smoothers and cycles match the host: iterations and solution") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix Ah = poisson(Stencil::fd3d_7pt, sized(32, 12), Space::host);
  const Vector bh = random_vector(Ah.rows(), rng(), Space::host);
  for (const std::string& sm : smoothers().names())
    for (const std::string& cy : cycles().names()) {
      CAPTURE(sm);
      CAPTURE(cy);
      AmgParams p;
      p.smoother = sm;
      p.cycle = cy;
      SolverParams sp;
      sp.type = cy == "F" ? "fcg" : "pcg";  // the F-cycle is not symmetric
      check_backends_agree(Ah, bh, p, sp, 1);
    }
}

TEST_CASE("GPU Krylov methods match the host on SPD and nonsymmetric problems") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix Ah = poisson(Stencil::fe3d_27pt, sized(24, 10), Space::host);
  const Vector bh = random_vector(Ah.rows(), rng(), Space::host);
  for (const std::string& m : krylov_methods().names()) {
    CAPTURE(m);
    SolverParams sp;
    sp.type = m;
    sp.max_iterations = 1000;
    check_backends_agree(Ah, bh, AmgParams{}, sp, m == "cg" ? 4 : 1);  // unpreconditioned CG: ~100 iterations
  }
  const CsrMatrix Ch = convection_diffusion(128, 0.1);
  const Vector ch = random_vector(Ch.rows(), rng(), Space::host);
  AmgParams lu;
  lu.coarse_solver = "dense_lu";
  for (const std::string& m : krylov_methods().names()) {
    if (krylov_methods().create(m, Space::host)->needs_spd()) continue;
    CAPTURE(m);
    SolverParams sp;
    sp.type = m;
    check_backends_agree(Ch, ch, lu, sp, 2);
  }
}

TEST_CASE("GPU BiCGStab claims convergence from b - A x (the seed that drifted on the host, and fresh ones)") {
  // Without a preconditioner BiCGStab's recurrence can drift from b - A x
  // (solver/krylov/bicgstab.cpp); on the device too, the reported residual
  // must be the true one and meet the tolerance, restarting where needed.
  const CsrMatrix Ah = convection_diffusion(40, 0.8);
  const CsrMatrix Ad = Ah.to(Space::device);
  const MatrixOperator op(Ad);
  std::mt19937_64 fresh(fresh_seed());
  for (const std::uint64_t seed : {std::uint64_t{442415296885994349ULL}, std::uint64_t{fresh()}, std::uint64_t{fresh()}}) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const Vector bh = random_vector(Ah.rows(), rng(), Space::host);
    SolverParams sp;
    sp.type = "bicgstab";
    sp.tolerance = 1e-10;
    sp.max_iterations = 1000;
    Vector x = Vector::zeros(Ad.rows(), Space::device);
    const SolveResult r = krylov_solve(op, nullptr, bh.to(Space::device), x, sp);
    CHECK(r.converged);
    const double true_residual = true_relative_residual(Ah, bh, x);
    CHECK(true_residual <= 1e-10 * (1 + 1e-4));
    // The device and the host sum b - A x in different orders: the two differ
    // by its rounding, ~1e-16 of |b| (1.6e-16 where a fresh seed converged to
    // 1.25e-12), besides the 1e-4 of the residual itself.
    CHECK(std::abs(true_residual - r.relative_residual) <= 1e-4 * r.relative_residual + 1e-14);
    MESSAGE("seed " << seed << ": " << r.message);
  }
}

TEST_CASE("GPU CG family, GMRES and AMG: convergence confirmed from b - A x near double precision (CG's restarts "
          "replay the graph)") {
  // The device's CG keeps its scalars on the device and replays the iteration
  // as a CUDA graph; a restart from b - A x (krylov::CgOptions::confirm) sets
  // them again between replays. GMRES and FGMRES check b - A x after each
  // restart cycle, stand-alone AMG after each cycle, and stop where it
  // stagnates. What is reported must be b - A x of the x returned, converged
  // or not, as on the host.
  std::mt19937_64 rng(fresh_seed());
  const AttainableSystem sys = attainable_system(sized(48, 16), rng());
  for (const char* method : {"pcg", "fcg", "gmres", "fgmres", "amg"}) {
    for (const double tol : {1e-15, 1e-16, 1e-17}) {
      CAPTURE(method);
      CAPTURE(tol);
      solve_checked_near_attainable(sys, method, tol, Space::device, 500);
    }
  }
}

TEST_CASE("two solvers on two executors run concurrently from two threads, with the sequential results") {
  std::mt19937_64 rng(fresh_seed());
  const CsrMatrix A1 = poisson(Stencil::fd3d_7pt, sized(64, 16), Space::device);
  const CsrMatrix A2 = poisson(Stencil::fe3d_27pt, sized(40, 12), Space::device);
  const Vector b1 = random_vector(A1.rows(), rng(), Space::device), b2 = random_vector(A2.rows(), rng(), Space::device);
  const auto e1 = Executor::cuda(), e2 = Executor::cuda();
  CHECK(e1->stream() != e2->stream());
  CHECK(e1->stream() != nullptr);
  CHECK(e1->name() == "cuda:0");
  // Sequential reference, each on its executor.
  std::vector<double> x1, x2;
  const SolveResult s1 = solve(A1, b1, AmgParams{}, SolverParams{}, &x1, e1);
  const SolveResult s2 = solve(A2, b2, AmgParams{}, SolverParams{}, &x2, e2);
  // The same two solves at the same time.
  std::vector<double> y1, y2;
  SolveResult c1, c2;
  std::string err1, err2;
  std::thread th1([&] {
    try {
      c1 = solve(A1, b1, AmgParams{}, SolverParams{}, &y1, e1);
    } catch (const std::exception& e) {
      err1 = e.what();
    }
  });
  std::thread th2([&] {
    try {
      c2 = solve(A2, b2, AmgParams{}, SolverParams{}, &y2, e2);
    } catch (const std::exception& e) {
      err2 = e.what();
    }
  });
  th1.join();
  th2.join();
  CHECK(err1.empty());
  CHECK(err2.empty());
  CHECK(c1.converged);
  CHECK(c2.converged);
  CHECK(c1.residual_history == s1.residual_history);  // deterministic, and no cross-talk between streams
  CHECK(c2.residual_history == s2.residual_history);
  CHECK(y1 == x1);
  CHECK(y2 == x2);
  // How much they overlap is measured by saga-bench-executors (benchmarks/results/bench_executors_h100.md).
}

TEST_CASE("device arrays outlive their executor safely; executors must match the matrix's space") {
  Vector v;
  {
    const auto e = Executor::cuda();
    ExecutorScope s(e);
    v = ones(1000, Space::device);
  }  // the executor lives on in v, which frees on its stream
  CHECK(v.get(999) == 1.0);
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 16, Space::host);
  CHECK_THROWS_WITH_AS(Solver(A, AmgParams{}, SolverParams{}, Executor::cuda()),
                       doctest::Contains("the matrix lives on the host but the executor is cuda:0"), InputError);
}

TEST_CASE("GPU fused vector passes equal host") {
  std::mt19937_64 rng(fresh_seed());
  const std::size_t n = 100003;
  const Vector w = random_vector(n, rng(), Space::host), b = random_vector(n, rng(), Space::host),
               y = random_vector(n, rng(), Space::host);
  Vector rh(n, Space::host), rd(n, Space::device);
  scaled_difference(w, b, y, rh);
  scaled_difference(w.to(Space::device), b.to(Space::device), y.to(Space::device), rd);
  CHECK(rd.to_vector() == rh.to_vector());
  Vector dh = random_vector(n, rng(), Space::host), xh = random_vector(n, rng(), Space::host);
  Vector dd = dh.to(Space::device), xd = xh.to(Space::device);
  step_update(0.25, rh, 1.5, dh, -1.0, xh);
  step_update(0.25, rd, 1.5, dd, -1.0, xd);
  CHECK(max_rel_diff(dd.to_vector(), dh.to_vector()) < 1e-15);  // the device may contract to FMA
  CHECK(max_rel_diff(xd.to_vector(), xh.to_vector()) < 1e-15);
}
