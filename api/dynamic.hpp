#pragma once
// A linear system whose matrix changes between solves (docs/dcsr.md, "Use in
// saga"): the matrix is held as a DcsrMatrix, updated in place — new entries,
// new values, removed entries — and the AMG solver is set up again from it.
//
//   saga::DynamicSolver s(saga::DcsrMatrix::from_csr(A), amg, sp, gpu);
//   s.solve(b, x);
//   s.matrix().insert(batch);      // or add(alpha, B), erase(positions)
//   s.resetup();                   // hierarchy of the updated matrix
//   s.solve(b, x);
//
// resetup() runs the whole setup (strength, aggregation, prolongators, Galerkin
// products) on the updated matrix when its pattern changed — the hierarchy then
// equals the one a Solver built from scratch on that matrix gives (tested) —
// and the numeric resetup on the kept aggregates (Solver::resetup) when only
// values changed (updates with duplicates add / replace that met existing
// entries).
#include <memory>

#include "api/saga.hpp"
#include "sparse/dcsr.hpp"

namespace saga {

// Times of the last resetup() (seconds).
struct ResetupTimes {
  double to_csr = 0;     // the DCSR rows compacted and sorted into the CSR the setup reads
  double setup = 0;      // the AMG setup (or its numeric resetup)
  bool numeric = false;  // only values had changed: Solver::resetup kept the aggregates
};

class DynamicSolver {
 public:
  // Sets up from A (its space must be the executor's; exec: default = the
  // active executor of A's space).
  DynamicSolver(DcsrMatrix A, const AmgParams& amg = {}, const SolverParams& solver = {},
                std::shared_ptr<const Executor> exec = nullptr);

  // The matrix, to update in place (insert, add, erase). The solver keeps
  // using the matrix of its last setup until resetup().
  DcsrMatrix& matrix() { return A_; }
  const DcsrMatrix& matrix() const { return A_; }
  // Updates through the solver's executor (its stream).
  DcsrUpdateStats insert(const CooMatrix& batch);
  DcsrUpdateStats add(double alpha, const CsrMatrix& B);
  DcsrUpdateStats erase(const CooMatrix& positions);

  // Sets the solver up again from the current matrix (numeric-only when only
  // values changed, unless full is set).
  void resetup(bool full = false);
  const ResetupTimes& last_resetup() const { return times_; }
  // Whether the matrix changed since the last setup.
  bool stale() const { return stale_; }

  // Solves A x = b with the matrix of the last setup (see Solver::solve).
  SolveResult solve(const Vector& b, Vector& x) const { return solver_->solve(b, x); }
  const Solver& solver() const { return *solver_; }
  const std::shared_ptr<const Executor>& executor() const { return exec_; }

 private:
  DcsrMatrix A_;
  AmgParams amg_;
  SolverParams params_;
  std::shared_ptr<const Executor> exec_;
  std::unique_ptr<Solver> solver_;
  ResetupTimes times_;
  bool stale_ = false;
  bool pattern_changed_ = true;  // since the last setup
};

}  // namespace saga
