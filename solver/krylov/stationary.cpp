// The stationary iteration x <- x + M (b - A x): with M the multigrid cycle
// this is stand-alone AMG (solver.type: amg).
#include "solver/krylov/common.hpp"
#include "solver/krylov/conjugate_gradient.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
// Below the CG family's confirm bound (where double precision's limit comes
// near) the iteration stops once b - A x fell less than 10% in
// kStagnationWindow iterations (krylov::stagnated). Before, a tolerance under
// what rounding attains ran to max_iterations (3D 7-pt N=32 at 1e-16: 3000
// iterations, b - A x flat at 2.1e-16 from the 64th on).
constexpr double kStagnationBelow = krylov::cg_confirmed_tolerance;
constexpr int kStagnationWindow = 20;

class Stationary final : public KrylovMethod {
 public:
  // Converges for nonsymmetric A only when M is a good approximate inverse;
  // tested on SPD problems.
  bool needs_spd() const override { return true; }
  int workspace_vectors() const override { return 2; }  // r, e
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    krylov::Run run(A, M, b, x, p);
    if (run.done()) return run.finish();
    const std::size_t n = A.rows();
    Vector r(n, A.space(), "residual"), e(n, A.space(), "correction");
    for (;;) {
      A.residual(b, x, r, e);
      if (run.record(norm2(r)) || run.result.iterations >= p.max_iterations) break;
      if (krylov::stagnated(run.result.residual_history, kStagnationWindow, kStagnationBelow)) {
        run.result.message = fmt::format(
            "did NOT converge: b - A x is {:.3e} > tolerance {:.1e} and fell less than 10% in the last {} "
            "iterations; about the accuracy double precision attains on this system",
            run.result.residual_history.back(), p.tolerance, kStagnationWindow);
        break;
      }
      krylov::precondition(M, r, e);
      axpby(1.0, e, 1.0, x);
      ++run.result.iterations;
    }
    return run.finish();
  }
};

struct AmgIteration {
  static constexpr const char* name = "amg";
  static constexpr const char* summary = "stationary iteration x += M (b - A x): stand-alone multigrid";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<KrylovMethod> make(const Params&) { return std::make_unique<Stationary>(); }
};
}  // namespace

void add_amg(KrylovRegistry& r) { r.add<AmgIteration>(); }

}  // namespace saga
