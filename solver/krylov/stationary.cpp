// The stationary iteration x <- x + M (b - A x): with M the multigrid cycle
// this is stand-alone AMG (solver.type: amg).
#include "solver/krylov/common.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
class Stationary final : public KrylovMethod {
 public:
  // Converges for nonsymmetric A only when M is a good approximate inverse;
  // tested on SPD problems.
  bool needs_spd() const override { return true; }
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    krylov::Run run(A, M, b, x, p);
    if (run.done()) return run.finish();
    const std::size_t n = A.rows();
    Vector r(n, A.space(), "residual"), e(n, A.space(), "correction");
    for (;;) {
      A.residual(b, x, r, e);
      if (run.record(norm2(r)) || run.result.iterations >= p.max_iterations) break;
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
