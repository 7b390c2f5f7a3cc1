// Flexible conjugate gradients (Notay 2000, FCG(1); the Polak-Ribiere form of
// Golub & Ye 1999): beta = (z_k, r_k - r_{k-1}) / (z_{k-1}, r_{k-1}), which stays
// a good method when M changes from one iteration to the next (an inner Krylov
// solve, a non-symmetric cycle). Since r_k - r_{k-1} = -alpha A p, the numerator
// is -alpha (z_k, A p): no extra vector.
#include "solver/krylov/common.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
class Fcg final : public KrylovMethod {
 public:
  bool needs_spd() const override { return true; }
  bool flexible() const override { return true; }
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override {
    using namespace krylov;
    check_system(A, M, b, x);
    const Space s = A.space();
    Clock clock{s == Space::device};
    SolveResult res;
    const std::size_t n = A.rows();
    Vector r(n, s, "FCG residual"), z(n, s, "FCG preconditioned residual"), q(n, s, "FCG direction"),
        Aq(n, s, "FCG A*direction");
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
        res.message = fmt::format("breakdown at iteration {}: q^T A q = {:.3e} <= 0 (A is not SPD)", res.iterations,
                                  qAq);
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
      const double beta = -alpha * dot(z, Aq) / rz;
      axpby(1.0, z, beta, q);
      rz = rz_new;
    }
    finish(res, p, clock);
    return res;
  }
};

struct FcgComponent {
  static constexpr const char* name = "fcg";
  static constexpr const char* summary = "flexible CG (Polak-Ribiere beta): SPD A, M may vary";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<KrylovMethod> make(const Params&) { return std::make_unique<Fcg>(); }
};
}  // namespace

void add_fcg(KrylovRegistry& r) { r.add<FcgComponent>(); }

}  // namespace saga
