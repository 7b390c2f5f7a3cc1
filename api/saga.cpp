#include "api/saga.hpp"

#include "core/device.hpp"

namespace saga {

Backend resolve_backend(const std::string& name) {
  if (name == "host") return Backend::host;
  if (name == "cuda") {
    if (!device::compiled()) throw UnavailableError("backend 'cuda' requested but saga was built without CUDA");
    if (device::count() == 0) throw UnavailableError("backend 'cuda' requested but no GPU is present");
    return Backend::cuda;
  }
  SAGA_REQUIRE(name == "auto", "unknown backend '{}' (expected auto, host or cuda)", name);
  return device::compiled() && device::count() > 0 ? Backend::cuda : Backend::host;
}

AmgPreconditioner::AmgPreconditioner(const CsrMatrix& A, const AmgParams& params)
    : AmgPreconditioner(A.clone(), params) {}

AmgPreconditioner::AmgPreconditioner(CsrMatrix&& A, const AmgParams& params)
    : hierarchy_(std::make_unique<Hierarchy>(std::move(A), params)),
      cycle_(std::make_unique<MultigridCycle>(*hierarchy_)) {}

AmgPreconditioner::AmgPreconditioner(const CsrMatrix& A, const AmgParams& params, const Vector& B, int k)
    : hierarchy_(std::make_unique<Hierarchy>(A.clone(), params, B.clone(), k)),
      cycle_(std::make_unique<MultigridCycle>(*hierarchy_)) {}

Solver::Solver(const CsrMatrix& A, const AmgParams& amg, const SolverParams& solver)
    : precond_(A, amg), params_(solver) {}
Solver::Solver(CsrMatrix&& A, const AmgParams& amg, const SolverParams& solver)
    : precond_(std::move(A), amg), params_(solver) {}

SolveResult Solver::solve(const Vector& b, Vector& x) const {
  const CsrMatrix& A = precond_.matrix();
  if (params_.type == "pcg") return pcg(A, b, x, &precond_.cycle(), params_);
  if (params_.type == "amg") return multigrid_iteration(A, b, x, precond_.cycle(), params_);
  if (params_.type == "cg") return pcg(A, b, x, nullptr, params_);
  SAGA_REQUIRE(false, "unknown solver type '{}' (expected pcg, amg or cg)", params_.type);
}

}  // namespace saga
