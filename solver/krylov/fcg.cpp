// Flexible conjugate gradients (Notay 2000, FCG(1); the Polak-Ribiere form of
// Golub & Ye 1999): SPD A, and M may change from one iteration to the next (an
// inner Krylov solve, the F-cycle), solver/krylov/conjugate_gradient.hpp.
#include "solver/krylov/conjugate_gradient.hpp"

namespace saga {

namespace {
class Fcg final : public KrylovMethod {
 public:
  explicit Fcg(krylov::CgOptions o) : options_(std::move(o)) {}
  bool needs_spd() const override { return true; }
  bool flexible() const override { return true; }
  int workspace_vectors() const override { return krylov::kCgVectors + 1; }
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    return krylov::conjugate_gradient(A, M, b, x, p, true, options_);
  }
  SolveResult solve_keeping(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                            const SolverParams& p, std::unique_ptr<KrylovState>& state) const override {
    return krylov::conjugate_gradient(A, M, b, x, p, true, options_, &state);
  }

 private:
  krylov::CgOptions options_;
};

struct FcgComponent {
  static constexpr const char* name = "fcg";
  static constexpr const char* summary = "flexible CG (Polak-Ribiere beta): SPD A, M may vary";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = krylov::CgOptions;
  static std::unique_ptr<KrylovMethod> make(const Params& p) { return std::make_unique<Fcg>(p); }
};
}  // namespace

void add_fcg(KrylovRegistry& r) { r.add<FcgComponent>(); }

}  // namespace saga
