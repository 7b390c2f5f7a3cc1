#include "api/saga.hpp"

#include <chrono>

#include "sparse/csr_ops.hpp"
#include "sparse/spmv.hpp"

namespace saga {

namespace {
std::shared_ptr<const Executor> pick(const CsrMatrix& A, std::shared_ptr<const Executor> exec) {
  return exec ? std::move(exec) : active_executor(A.space());
}
// Checks everything a setup will need before any work is done.
const CsrMatrix& checked(const CsrMatrix& A, const AmgParams& p) {
  validate(p, A.space());
  return A;
}
CsrMatrix clone_on(const CsrMatrix& A, const std::shared_ptr<const Executor>& exec) {
  ExecutorScope scope(exec);
  return A.clone();
}
}  // namespace

AmgPreconditioner::AmgPreconditioner(const CsrMatrix& A, const AmgParams& params,
                                     std::shared_ptr<const Executor> exec)
    : AmgPreconditioner(clone_on(checked(A, params), pick(A, exec)), params, pick(A, exec)) {}

AmgPreconditioner::AmgPreconditioner(CsrMatrix&& A, const AmgParams& params, std::shared_ptr<const Executor> exec) {
  build(std::move(A), params, std::nullopt, std::move(exec));
}

AmgPreconditioner::AmgPreconditioner(const CsrMatrix& A, const AmgParams& params, NearNullspace ns,
                                     std::shared_ptr<const Executor> exec) {
  build(clone_on(checked(A, params), pick(A, exec)), params, std::move(ns), pick(A, exec));
}

AmgPreconditioner::AmgPreconditioner(CsrMatrix&& A, const AmgParams& params, NearNullspace ns,
                                     std::shared_ptr<const Executor> exec) {
  build(std::move(A), params, std::move(ns), std::move(exec));
}

AmgPreconditioner::AmgPreconditioner(CsrMatrix&& A, const AmgParams& params, std::optional<NearNullspace> ns,
                                     std::shared_ptr<const Executor> exec, int krylov_vectors)
    : krylov_vectors_(krylov_vectors) {
  build(std::move(A), params, std::move(ns), std::move(exec));
}

void AmgPreconditioner::build(CsrMatrix&& A, const AmgParams& params, std::optional<NearNullspace> ns,
                              std::shared_ptr<const Executor> exec) {
  validate(params, A.space());
  exec = pick(A, std::move(exec));
  ExecutorScope scope(exec);
  if (!ns) {  // amg.nullspace, without coordinates (rigid_body then needs its coordinates file)
    NullspaceContext ctx;
    ctx.rows = A.rows();
    ctx.space = A.space();
    ns = nullspace_sources().create(params.nullspace, A.space())->make(ctx);
  } else if (!ns->B.empty() && ns->B.space() != A.space()) {
    ns->B = ns->B.to(A.space());
  }
  params_ = params;
  hierarchy_ = std::make_unique<Hierarchy>(std::move(A), params, std::move(*ns), exec);
  cycle_ = std::make_unique<MultigridCycle>(*hierarchy_, params, krylov_vectors_);
}

ResetupStats AmgPreconditioner::resetup(const CsrMatrix& A, const ResetupOptions& options) {
  return resetup(A.clone(), options);
}

ResetupStats AmgPreconditioner::resetup(CsrMatrix&& A, const ResetupOptions& options) {
  ExecutorScope scope(executor());
  const ResetupStats rs = hierarchy_->resetup(std::move(A), options);
  // smoothers and coarse solve of the new values
  cycle_ = std::make_unique<MultigridCycle>(*hierarchy_, params_, krylov_vectors_);
  return rs;
}

ResetupStats Solver::resetup(const CsrMatrix& A, const ResetupOptions& options) { return resetup(A.clone(), options); }

ResetupStats Solver::resetup(CsrMatrix&& A, const ResetupOptions& options) {
  kept_.reset();  // its graph holds the old arrays' pointers (and its vectors would add to the resetup's peak)
  ResetupStats rs;
  if (precond_) {
    rs = precond_->resetup(std::move(A), options);
  } else {
    ExecutorScope scope(exec_);
    const auto t0 = std::chrono::steady_clock::now();
    const CsrMatrix& old = *matrix_;
    require_resetup_matrix(old, A, "solver");  // the hierarchy's checks (Hierarchy::resetup)
    spmv_release(old);  // the old values' copies for the SpMV (sliced rows)
    A.share_structural_analyses(old);  // the same pattern: its SpMV plan holds
    matrix_ = std::move(A);
    exec_->synchronize();
    rs.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  build_preconditioner();  // the operator and an outer smoother follow the new matrix
  return rs;
}

Solver::Solver(const CsrMatrix& A, const AmgParams& amg, const SolverParams& solver,
               std::shared_ptr<const Executor> exec)
    : params_(solver) {
  validate(params_, A.space());
  validate(amg, A.space());
  exec = pick(A, std::move(exec));
  set_up(clone_on(A, exec), amg, std::nullopt, std::move(exec));
}

Solver::Solver(CsrMatrix&& A, const AmgParams& amg, const SolverParams& solver, std::shared_ptr<const Executor> exec)
    : params_(solver) {
  validate(params_, A.space());
  set_up(std::move(A), amg, std::nullopt, std::move(exec));
}

Solver::Solver(CsrMatrix&& A, const AmgParams& amg, const SolverParams& solver, NearNullspace ns,
               std::shared_ptr<const Executor> exec)
    : params_(solver) {
  validate(params_, A.space());
  set_up(std::move(A), amg, std::move(ns), std::move(exec));
}

void Solver::set_up(CsrMatrix&& A, const AmgParams& amg, std::optional<NearNullspace> ns,
                    std::shared_ptr<const Executor> exec) {
  validate(amg, A.space());  // a bad amg section is an error whether or not a hierarchy is set up
  exec_ = pick(A, std::move(exec));
  if (applies_amg_cycle(params_, A.space())) {
    // The method's vectors, and x where the caller makes it after the setup (saga solve does).
    const int vectors = krylov_workspace_vectors(params_, A.space()) + 1;
    precond_ = std::unique_ptr<AmgPreconditioner>(  // (its constructor is private: the Solver's)
        new AmgPreconditioner(std::move(A), amg, std::move(ns), exec_, vectors));
  } else {
    // The hierarchy's checks of its matrix (Hierarchy::Hierarchy), for the Krylov method's operator.
    SAGA_REQUIRE(exec_->space() == A.space(), "the matrix lives on the {} but the executor is {}",
                 to_string(A.space()), exec_->name());
    ExecutorScope scope(exec_);
    require_system_matrix(A, "the solver");
    matrix_ = std::move(A);
  }
  build_preconditioner();
}

const HierarchyStats& Solver::stats() const {
  static const HierarchyStats none;
  return precond_ ? precond_->stats() : none;
}

const AmgPreconditioner& Solver::preconditioner() const {
  if (!precond_)
    throw InputError(fmt::format("this solver has no AMG preconditioner: solver.type '{}' with solver.preconditioner "
                                 "'{}' applies no multigrid cycle, so none was set up",
                                 params_.type.name, params_.preconditioner.name));
  return *precond_;
}

void Solver::build_preconditioner() {
  ExecutorScope scope(executor());
  op_ = std::make_unique<MatrixOperator>(matrix());
  outer_M_.reset();
  const Component& pre = params_.preconditioner;
  if (pre.name == "amg" || pre.name == "none") return;
  if (is_nested_krylov(pre))
    outer_M_ = std::make_unique<KrylovOperator>(*op_, precond_.get(), nested_solver_params(pre));
  else {
    Component smoother;
    const int sweeps = smoother_preconditioner_sweeps(pre, &smoother);
    outer_M_ = std::make_unique<SmootherOperator>(matrix(), smoother, sweeps);
  }
}

SolveResult Solver::solve(const Vector& b, Vector& x) const {
  ExecutorScope scope(executor());
  const LinearOperator* M = outer_M_ ? outer_M_.get() : static_cast<const LinearOperator*>(precond_.get());
  return krylov_solve(*op_, M, b, x, params_, kept_);
}

}  // namespace saga
