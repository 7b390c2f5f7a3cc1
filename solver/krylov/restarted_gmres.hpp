#pragma once
// Restarted GMRES(m) with right preconditioning (Saad & Schultz 1986) and, with
// `flexible`, FGMRES(m) (Saad 1993), which keeps the preconditioned vectors Z
// so that M may change between iterations. Modified Gram-Schmidt (fixed order:
// deterministic) and Givens rotations on the host; the residual estimate
// |g_{j+1}| is recorded each iteration and the true residual is checked at
// every restart, so "converged" is never claimed from the estimate alone.
// The engine of the gmres and fgmres components.
#include "solver/krylov.hpp"

namespace saga {

class RestartedGmres final : public KrylovMethod {
 public:
  RestartedGmres(int restart, bool flexible) : m_(restart), flexible_(flexible) {}
  bool flexible() const override { return flexible_; }
  // The basis (m + 1), FGMRES's preconditioned basis (m), r, w and z.
  int workspace_vectors() const override { return m_ + 1 + (flexible_ ? m_ : 0) + 3; }
  SolveResult solve(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                    const SolverParams& p) const override;

 private:
  int m_;
  bool flexible_;
};

struct RestartParams {
  int restart = 30;
  template <class V>
  void visit(V& v) {
    v("restart", restart, "Krylov basis size m before a restart", in_range(1, 1000));
  }
};

}  // namespace saga
