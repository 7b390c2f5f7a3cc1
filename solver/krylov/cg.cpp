// Conjugate gradients: pcg (preconditioned, M SPD and fixed) and cg (the same
// recurrence without a preconditioner).
#include "solver/krylov/common.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
SolveResult run_pcg(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) {
  using namespace krylov;
  check_system(A, M, b, x);
  const Space s = A.space();
  Clock clock{s == Space::device};
  SolveResult res;
  const std::size_t n = A.rows();
  Vector r(n, s, "PCG residual"), z(n, s, "PCG preconditioned residual"), q(n, s, "PCG direction"),
      Aq(n, s, "PCG A*direction");
  const double bnorm = norm2(b);
  if (zero_rhs(bnorm, x, res, p, clock)) return res;
  residual(A, b, x, r, Aq);
  if (record(res, p, norm2(r) / bnorm)) {
    finish(res, p, clock);
    return res;
  }
  precondition(M, r, z);
  copy(z, q);
  double rz = dot(r, z);
  while (res.iterations < p.max_iterations) {
    A.apply(q, Aq);
    const double qAq = dot(q, Aq);
    if (!(qAq > 0.0)) {
      res.message = fmt::format(
          "breakdown at iteration {}: q^T A q = {:.3e} <= 0 (the matrix or the preconditioner is not SPD)",
          res.iterations, qAq);
      res.residual_history.push_back(norm2(r) / bnorm);
      break;
    }
    const double alpha = rz / qAq;
    axpby(alpha, q, 1.0, x);
    axpby(-alpha, Aq, 1.0, r);
    ++res.iterations;
    if (record(res, p, norm2(r) / bnorm)) break;
    precondition(M, r, z);
    const double rz_new = dot(r, z);
    axpby(1.0, z, rz_new / rz, q);
    rz = rz_new;
  }
  finish(res, p, clock);
  return res;
}

class Pcg final : public KrylovMethod {
 public:
  bool needs_spd() const override { return true; }
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    return run_pcg(A, M, b, x, p);
  }
};
class Cg final : public KrylovMethod {
 public:
  bool needs_spd() const override { return true; }
  SolveResult solve(const LinearOperator& A, const LinearOperator*, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    return run_pcg(A, nullptr, b, x, p);
  }
  bool uses_preconditioner() const override { return false; }
};

struct PcgComponent {
  static constexpr const char* name = "pcg";
  static constexpr const char* summary = "preconditioned conjugate gradients (SPD A, fixed SPD M)";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<KrylovMethod> make(const Params&) { return std::make_unique<Pcg>(); }
};
struct CgComponent {
  static constexpr const char* name = "cg";
  static constexpr const char* summary = "conjugate gradients without a preconditioner";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<KrylovMethod> make(const Params&) { return std::make_unique<Cg>(); }
};
}  // namespace

void add_pcg(KrylovRegistry& r) { r.add<PcgComponent>(); }
void add_cg(KrylovRegistry& r) { r.add<CgComponent>(); }

}  // namespace saga
