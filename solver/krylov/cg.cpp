// Conjugate gradients: pcg (preconditioned, M SPD and fixed) and cg (the same
// recurrence without a preconditioner), solver/krylov/conjugate_gradient.hpp.
// Both take the options of CgOptions (graph replay, check interval, the true residual confirmed).
#include "solver/krylov/conjugate_gradient.hpp"

namespace saga {

namespace {
class Pcg final : public KrylovMethod {
 public:
  explicit Pcg(krylov::CgOptions o) : options_(std::move(o)) {}
  bool needs_spd() const override { return true; }
  int workspace_vectors() const override { return krylov::kCgVectors; }
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    return krylov::conjugate_gradient(A, M, b, x, p, false, options_);
  }
  SolveResult solve_keeping(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                            const SolverParams& p, std::unique_ptr<KrylovState>& state) const override {
    return krylov::conjugate_gradient(A, M, b, x, p, false, options_, &state);
  }

 private:
  krylov::CgOptions options_;
};
class Cg final : public KrylovMethod {
 public:
  explicit Cg(krylov::CgOptions o) : options_(std::move(o)) {}
  bool needs_spd() const override { return true; }
  bool uses_preconditioner() const override { return false; }
  int workspace_vectors() const override { return krylov::kCgVectors; }
  SolveResult solve(const LinearOperator& A, const LinearOperator*, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    return krylov::conjugate_gradient(A, nullptr, b, x, p, false, options_);
  }
  SolveResult solve_keeping(const LinearOperator& A, const LinearOperator*, const Vector& b, Vector& x,
                            const SolverParams& p, std::unique_ptr<KrylovState>& state) const override {
    return krylov::conjugate_gradient(A, nullptr, b, x, p, false, options_, &state);
  }

 private:
  krylov::CgOptions options_;
};

struct PcgComponent {
  static constexpr const char* name = "pcg";
  static constexpr const char* summary = "preconditioned conjugate gradients (SPD A, fixed SPD M)";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = krylov::CgOptions;
  static std::unique_ptr<KrylovMethod> make(const Params& p) { return std::make_unique<Pcg>(p); }
};
struct CgComponent {
  static constexpr const char* name = "cg";
  static constexpr const char* summary = "conjugate gradients without a preconditioner";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = krylov::CgOptions;
  static std::unique_ptr<KrylovMethod> make(const Params& p) { return std::make_unique<Cg>(p); }
};
}  // namespace

void add_pcg(KrylovRegistry& r) { r.add<PcgComponent>(); }
void add_cg(KrylovRegistry& r) { r.add<CgComponent>(); }

}  // namespace saga
