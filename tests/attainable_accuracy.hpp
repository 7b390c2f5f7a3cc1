#pragma once
// The CG family's solves near double precision's attainable accuracy (option
// confirm, solver/krylov/conjugate_gradient.hpp), host and GPU tests alike: a
// system b = A x* with a random x*, and the checks of what such a solve
// reports.
#include <cstdint>
#include <string>

#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "solver/krylov.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

namespace saga::test {

// b = A x* for a random x* (seed): on the host, as A is.
inline Vector manufactured_rhs(const CsrMatrix& A, std::uint64_t seed) {
  const Vector xs = random_vector(A.cols(), seed, Space::host);
  Vector b(A.rows(), Space::host);
  spmv(1.0, A, xs, 0.0, b);
  return b;
}

// The system of these tests, on the host: 3D 7-point Poisson on an N^3 grid,
// b = A x* for a random x* (seed), and SA-AMG down to a small coarse level.
struct AttainableSystem {
  CsrMatrix A;
  Vector b;
  AmgParams amg;
};
inline AttainableSystem attainable_system(index_t N, std::uint64_t seed) {
  AttainableSystem s{poisson(Stencil::fd3d_7pt, N, Space::host), Vector(), AmgParams{}};
  s.b = manufactured_rhs(s.A, seed);
  s.amg.coarse_size = 50;
  return s;
}

// ||b - A x|| / ||b|| on the host.
inline double true_relative_residual(const CsrMatrix& A, const Vector& b, const Vector& x) {
  Vector res = b.clone();
  spmv(-1.0, A, x.to(Space::host), 1.0, res);
  return norm2(res) / norm2(b);
}

// What a solve confirmed from b - A x must report: b - A x itself (`actual`),
// converged only where it meets the tolerance, else the stagnation message;
// and never converged at a tolerance below what double precision attains.
inline void check_confirmed(const SolveResult& r, double actual, double tol) {
  CHECK(r.relative_residual == doctest::Approx(actual).epsilon(1e-6));
  CHECK(r.residual_history.back() == r.relative_residual);
  if (r.converged) {
    CHECK(actual <= tol);
  } else {
    CHECK(r.message.find("b - A x is") != std::string::npos);
    CHECK(r.message.find("accuracy double precision attains") != std::string::npos);
    CHECK(actual > tol);
    CHECK(actual < 1e-13);  // stagnating at rounding's level, not stopped early
  }
  if (tol <= 1e-17) CHECK_FALSE(r.converged);
}

// Solves sys with `method` (its defaults) at `tol` on `space`, from x = 0,
// says what the solve reported and checks it (check_confirmed).
inline SolveResult solve_checked_near_attainable(const AttainableSystem& sys, const char* method, double tol,
                                                 Space space, int max_iterations = 3000) {
  SolverParams sp;
  sp.tolerance = tol;
  sp.max_iterations = max_iterations;
  sp.type = method;
  Vector x = Vector::zeros(sys.A.rows(), space);
  const SolveResult r = Solver(sys.A.to(space), sys.amg, sp).solve(sys.b.to(space), x);
  MESSAGE(std::string(method) << " at " << tol << ": " << r.message
                              << (r.launch.empty() ? std::string() : " (" + r.launch + ")"));
  check_confirmed(r, true_relative_residual(sys.A, sys.b, x), tol);
  return r;
}

}  // namespace saga::test
