#include "api/dynamic.hpp"

#include <chrono>

#include "core/device.hpp"

namespace saga {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0, Space space) {
  if (space == Space::device) device::synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

DynamicSolver::DynamicSolver(DcsrMatrix A, const AmgParams& amg, const SolverParams& solver,
                             std::shared_ptr<const Executor> exec)
    : A_(std::move(A)), amg_(amg), params_(solver), exec_(exec ? std::move(exec) : active_executor(A_.space())) {
  SAGA_REQUIRE(exec_->space() == A_.space(), "the matrix lives on the {} but the executor is {}",
               to_string(A_.space()), exec_->name());
  resetup();
}

DcsrUpdateStats DynamicSolver::insert(const CooMatrix& batch) {
  ExecutorScope scope(exec_);
  stale_ = true;
  const DcsrUpdateStats st = A_.insert(batch);
  if (st.inserted > 0) pattern_changed_ = true;
  return st;
}

DcsrUpdateStats DynamicSolver::add(double alpha, const CsrMatrix& B) {
  ExecutorScope scope(exec_);
  stale_ = true;
  const DcsrUpdateStats st = A_.add(alpha, B);
  if (st.inserted > 0) pattern_changed_ = true;
  return st;
}

DcsrUpdateStats DynamicSolver::erase(const CooMatrix& positions) {
  ExecutorScope scope(exec_);
  stale_ = true;
  const DcsrUpdateStats st = A_.erase(positions);
  if (st.erased > 0) pattern_changed_ = true;
  return st;
}

void DynamicSolver::resetup(bool full) {
  ExecutorScope scope(exec_);
  auto t0 = std::chrono::steady_clock::now();
  CsrMatrix A = A_.to_csr();
  times_.to_csr = seconds_since(t0, A_.space());
  t0 = std::chrono::steady_clock::now();
  times_.numeric = solver_ && !pattern_changed_ && !full;
  if (times_.numeric)
    solver_->resetup(std::move(A));
  else
    solver_ = std::make_unique<Solver>(std::move(A), amg_, params_, exec_);
  times_.setup = seconds_since(t0, A_.space());
  stale_ = false;
  pattern_changed_ = false;
}

}  // namespace saga
