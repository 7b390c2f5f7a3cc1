#pragma once
// What every Krylov method in solver/krylov/ shares: input checks, the clock,
// recording residuals (progress, divergence, convergence) and the final
// message.
#include <chrono>

#include "solver/krylov.hpp"

namespace saga::krylov {

void check_system(const LinearOperator& A, const LinearOperator* M, const Vector& b, const Vector& x);

struct Clock {
  bool device;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  double seconds() const;
};

// Fills seconds, relative residual, convergence factor and message.
void finish(SolveResult& r, const SolverParams& p, const Clock& c);
// b = 0: the solution is x = 0, reached at iteration 0 (returns true).
bool zero_rhs(double bnorm, Vector& x, SolveResult& r, const SolverParams& p, const Clock& c);
// Appends rel; true when the solve must stop (converged or not finite).
bool record(SolveResult& r, const SolverParams& p, double rel);
// z = M r (or z = r without M).
void precondition(const LinearOperator* M, const Vector& r, Vector& z);
// r = b - A x (w is scratch for A x).
void residual(const LinearOperator& A, const Vector& b, const Vector& x, Vector& r, Vector& w);

}  // namespace saga::krylov
