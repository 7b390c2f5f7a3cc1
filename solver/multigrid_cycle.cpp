#include "solver/multigrid_cycle.hpp"

#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

MultigridCycle::MultigridCycle(const Hierarchy& h) : h_(&h) {
  const auto& L = h.levels();
  const Space s = h.space();
  for (std::size_t l = 0; l < L.size(); ++l) {
    const double w = h.params().smoother_omega > 0 ? h.params().smoother_omega
                     : L[l].rho > 0                ? 4.0 / (3.0 * L[l].rho)
                                                   : 2.0 / 3.0;
    omega_.push_back(w);
    r_.emplace_back(L[l].A.rows(), s, "cycle residual");
    if (l + 1 < L.size()) {
      bc_.emplace_back(L[l + 1].A.rows(), s, "cycle coarse right-hand side");
      xc_.emplace_back(L[l + 1].A.rows(), s, "cycle coarse correction");
    } else {
      bc_.emplace_back();
      xc_.emplace_back();
    }
  }
}

void MultigridCycle::apply(const Vector& r, Vector& z) const { cycle(0, r, z, true); }

// x <- x + omega D^-1 (b - A x), `sweeps` times; with zero_guess the first
// sweep is x = omega D^-1 b (no SpMV).
void MultigridCycle::smooth(std::size_t l, const Vector& b, Vector& x, int sweeps, bool zero_guess) const {
  const Level& L = h_->levels()[l];
  Vector& r = r_[l];
  for (int s = 0; s < sweeps; ++s) {
    if (zero_guess && s == 0) {
      multiply(L.dinv, b, x);
      scale(omega_[l], x);
      continue;
    }
    copy(b, r);
    spmv(-1.0, L.A, x, 1.0, r);
    add_scaled_product(omega_[l], L.dinv, r, x);
  }
}

void MultigridCycle::cycle(std::size_t l, const Vector& b, Vector& x, bool zero_guess) const {
  const auto& levels = h_->levels();
  if (l + 1 == levels.size()) {
    if (zero_guess) {
      spmv(h_->coarse().inverse, b, x);
    } else {  // x += A_c^-1 (b - A_c x)
      Vector& r = r_[l];
      copy(b, r);
      spmv(-1.0, levels[l].A, x, 1.0, r);
      spmv(1.0, h_->coarse().inverse, r, 1.0, x);
    }
    return;
  }
  const Level& L = levels[l];
  const int pre = h_->params().pre_sweeps, post = h_->params().post_sweeps;
  if (zero_guess && pre == 0) fill(x, 0.0);
  smooth(l, b, x, pre, zero_guess);
  const bool x_zero = zero_guess && pre == 0;
  const int gamma = h_->params().cycle == "W" && l + 2 < levels.size() ? 2 : 1;
  for (int g = 0; g < gamma; ++g) {
    Vector& r = r_[l];
    copy(b, r);
    if (!x_zero || g > 0) spmv(-1.0, L.A, x, 1.0, r);
    spmv(L.R, r, bc_[l]);
    cycle(l + 1, bc_[l], xc_[l], true);
    spmv(1.0, L.P, xc_[l], 1.0, x);
  }
  smooth(l, b, x, post, false);
}

}  // namespace saga
