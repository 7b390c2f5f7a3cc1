#include "solver/krylov.hpp"

#include "solver/smoother.hpp"
#include "sparse/vector_ops.hpp"

// The Krylov methods: one line each (the add_* function its file in solver/krylov/ defines), in
// the order `saga info` lists them.
#define SAGA_KRYLOV_COMPONENTS(X) \
  X(pcg)                          \
  X(cg)                           \
  X(fcg)                          \
  X(gmres)                        \
  X(fgmres)                       \
  X(bicgstab)                     \
  X(amg)                          \
  /* one line per method, above */

namespace saga {

#define SAGA_DECLARE(name) void add_##name(KrylovRegistry&);
SAGA_KRYLOV_COMPONENTS(SAGA_DECLARE)
#undef SAGA_DECLARE

const KrylovRegistry& krylov_methods() {
  static const KrylovRegistry r = [] {
    KrylovRegistry reg("solver", "solver.type", "solver");
#define SAGA_ADD(name) add_##name(reg);
    SAGA_KRYLOV_COMPONENTS(SAGA_ADD)
#undef SAGA_ADD
    reg.set_default("pcg");
    return reg;
  }();
  return r;
}

SolverParams nested_solver_params(const Component& pre) {
  SolverParams inner;
  inner.tolerance = 0.1;
  inner.max_iterations = 5;
  inner.preconditioner = "amg";
  const auto [shared, own] = pre.options.split({"tolerance", "max_iterations"});
  read_params(inner, shared, "solver.preconditioner");
  inner.type = Component(pre.name, own);
  inner.type.where = pre.where;
  return inner;
}

namespace {
struct SmootherSweeps {
  int sweeps = 1;
  template <class V>
  void visit(V& v) {
    v("sweeps", sweeps, "smoothing steps per application", in_range(1, 100));
  }
};
}  // namespace

int smoother_preconditioner_sweeps(const Component& pre, Component* smoother) {
  SmootherSweeps sw;
  const auto [sweeps, own] = pre.options.split({"sweeps"});
  read_params(sw, sweeps, "solver.preconditioner");
  Component c(pre.name, own);
  c.where = pre.where;
  smoothers().validate(c);
  if (smoother) *smoother = c;
  return sw.sweeps;
}

bool is_nested_krylov(const Component& pre) { return krylov_methods().has(pre.name); }

bool applies_amg_cycle(const SolverParams& p, Space space) {
  validate(p, space);
  if (!krylov_methods().create(p.type, space)->uses_preconditioner()) return false;
  const Component& pre = p.preconditioner;
  if (pre.name == "amg") return true;
  if (!is_nested_krylov(pre)) return false;  // none, or a smoother
  const SolverParams inner = nested_solver_params(pre);
  return krylov_methods().create(inner.type, space)->uses_preconditioner();
}

int krylov_workspace_vectors(const SolverParams& p, Space space) {
  int vectors = krylov_methods().create(p.type, space)->workspace_vectors();
  if (p.preconditioner.name != "amg" && is_nested_krylov(p.preconditioner))  // ("amg" is the cycle itself here)
    vectors += krylov_methods().create(nested_solver_params(p.preconditioner).type, space)->workspace_vectors();
  return vectors;
}

void validate(const SolverParams& p, std::optional<Space> space) {
  SolverParams copy = p;
  read_params(copy, Options(), "solver");
  krylov_methods().validate(p.type, space);
  const Component& pre = p.preconditioner;
  auto fail = [&](const std::string& msg) {
    throw InputError(fmt::format("{}solver.preconditioner: {}", pre.where.empty() ? "" : pre.where + ": ", msg));
  };
  if (pre.name == "amg" || pre.name == "none") {
    if (!pre.options.empty()) fail(fmt::format("'{}' takes no options", pre.name));
    return;
  }
  if (smoothers().has(pre.name)) {
    smoother_preconditioner_sweeps(pre);
    return;
  }
  if (is_nested_krylov(pre)) {
    const SolverParams inner = nested_solver_params(pre);
    krylov_methods().validate(inner.type, space);
    return;
  }
  std::vector<std::string> all{"amg", "none"};
  const auto sm = smoothers().names(), kr = krylov_methods().names();
  all.insert(all.end(), sm.begin(), sm.end());
  all.insert(all.end(), kr.begin(), kr.end());
  fail(fmt::format("unknown preconditioner '{}' (choices: {})", pre.name, join_names(all)));
}

SolveResult krylov_solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                         const SolverParams& p) {
  std::unique_ptr<KrylovState> none;  // kept for no later solve
  return krylov_solve(A, M, b, x, p, none);
}

SolveResult krylov_solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                         const SolverParams& p, std::unique_ptr<KrylovState>& state) {
  validate(p, A.space());
  const auto method = krylov_methods().create(p.type, A.space());
  SolveResult r = method->solve_keeping(A, method->uses_preconditioner() ? M : nullptr, b, x, p, state);
  r.method = krylov_methods().resolve(p.type, A.space());
  return r;
}

KrylovOperator::KrylovOperator(const LinearOperator& A, const LinearOperator* M, SolverParams p)
    : A_(A), M_(M), p_(std::move(p)) {
  validate(p_, A.space());
  method_ = krylov_methods().create(p_.type, A.space());
  p_.progress = nullptr;
}

void KrylovOperator::apply(const Vector& x, Vector& y) const {
  fill(y, 0.0);
  method_->solve(A_, method_->uses_preconditioner() ? M_ : nullptr, x, y, p_);
}

}  // namespace saga
