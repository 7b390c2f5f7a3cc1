// Conjugate gradients: pcg (preconditioned, M SPD and fixed) and cg (the same
// recurrence without a preconditioner), solver/krylov/conjugate_gradient.hpp.
// Both take the launch options of CgLaunch (graph replay, check interval).
#include "solver/krylov/conjugate_gradient.hpp"

namespace saga {

namespace {
class Pcg final : public KrylovMethod {
 public:
  explicit Pcg(krylov::CgLaunch l) : launch_(std::move(l)) {}
  bool needs_spd() const override { return true; }
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    return krylov::conjugate_gradient(A, M, b, x, p, false, launch_);
  }
  SolveResult solve_keeping(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                            const SolverParams& p, std::unique_ptr<KrylovState>& state) const override {
    return krylov::conjugate_gradient(A, M, b, x, p, false, launch_, &state);
  }

 private:
  krylov::CgLaunch launch_;
};
class Cg final : public KrylovMethod {
 public:
  explicit Cg(krylov::CgLaunch l) : launch_(std::move(l)) {}
  bool needs_spd() const override { return true; }
  bool uses_preconditioner() const override { return false; }
  SolveResult solve(const LinearOperator& A, const LinearOperator*, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    return krylov::conjugate_gradient(A, nullptr, b, x, p, false, launch_);
  }
  SolveResult solve_keeping(const LinearOperator& A, const LinearOperator*, const Vector& b, Vector& x,
                            const SolverParams& p, std::unique_ptr<KrylovState>& state) const override {
    return krylov::conjugate_gradient(A, nullptr, b, x, p, false, launch_, &state);
  }

 private:
  krylov::CgLaunch launch_;
};

struct PcgComponent {
  static constexpr const char* name = "pcg";
  static constexpr const char* summary = "preconditioned conjugate gradients (SPD A, fixed SPD M)";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = krylov::CgLaunch;
  static std::unique_ptr<KrylovMethod> make(const Params& p) { return std::make_unique<Pcg>(p); }
};
struct CgComponent {
  static constexpr const char* name = "cg";
  static constexpr const char* summary = "conjugate gradients without a preconditioner";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = krylov::CgLaunch;
  static std::unique_ptr<KrylovMethod> make(const Params& p) { return std::make_unique<Cg>(p); }
};
}  // namespace

void add_pcg(KrylovRegistry& r) { r.add<PcgComponent>(); }
void add_cg(KrylovRegistry& r) { r.add<CgComponent>(); }

}  // namespace saga
