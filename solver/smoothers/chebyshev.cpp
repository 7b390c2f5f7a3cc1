// Chebyshev polynomial smoother on D^-1 A (Adams, Brezina, Hu, Tuminaro 2003;
// the three-term recurrence of Saad, "Iterative Methods", Alg. 12.1). It damps
// the eigencomponents of D^-1 A in [lower rho, upper rho] by the Chebyshev
// polynomial of the given degree, where rho = rho(D^-1 A) is the setup's Lanczos
// estimate. It is a fixed polynomial in D^-1 A, so the cycle stays symmetric
// (PCG-safe), and each degree costs one SpMV and no inner products. The
// default interval [0.2 rho, 1.1 rho] (docs/components.md: with lower = 1/30,
// as AMGCL and PyAMG use, degree 2 needed 40-60% more PCG iterations on the
// seed problems).
#include "solver/smoother.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
class ChebyshevSmoother : public Smoother {
 public:
  ChebyshevSmoother(const CsrMatrix& A, const Vector& dinv, int degree, double lo, double hi)
      : A_(A), dinv_(dinv), degree_(degree), theta_((hi + lo) / 2), delta_((hi - lo) / 2),
        r_(A.rows(), A.space(), "Chebyshev residual"), d_(A.rows(), A.space(), "Chebyshev direction"),
        w_(A.rows(), A.space(), "Chebyshev product") {}

  // Per sweep: one SpMV per degree and fused vector passes (scaled_difference,
  // step_update), no inner products.
  void smooth(const Vector& b, Vector& x, int sweeps, bool zero_guess) const override {
    for (int s = 0; s < sweeps; ++s) {
      const bool x_zero = zero_guess && s == 0;
      // r = D^-1 (b - A x)
      if (x_zero) {
        multiply(dinv_, b, r_);
      } else {
        spmv(A_, x, w_);
        scaled_difference(dinv_, b, w_, r_);
      }
      const double sigma = theta_ / delta_;
      double rho_prev = 1.0 / sigma;
      step_update(1.0 / theta_, r_, 0.0, d_, x_zero ? 0.0 : 1.0, x);  // d = r / theta, x += d
      for (int k = 2; k <= degree_; ++k) {
        spmv(A_, d_, w_);
        add_scaled_product(-1.0, dinv_, w_, r_);  // r -= D^-1 A d
        const double rho_k = 1.0 / (2.0 * sigma - rho_prev);
        step_update(2.0 * rho_k / delta_, r_, rho_k * rho_prev, d_, 1.0, x);  // d = .. r + .. d, x += d
        rho_prev = rho_k;
      }
    }
  }

 private:
  const CsrMatrix& A_;
  const Vector& dinv_;  // the level's (SmootherLevel: outlives the smoother)
  int degree_;
  double theta_, delta_;
  mutable Vector r_, d_, w_;
};

struct Chebyshev {
  static constexpr const char* name = "chebyshev";
  static constexpr const char* summary = "Chebyshev polynomial in D^-1 A on [lower rho, upper rho]";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    int degree = 2;
    double lower = 0.2;
    double upper = 1.1;
    template <class V>
    void visit(V& v) {
      v("degree", degree, "polynomial degree (SpMVs per sweep)", in_range(1, 16));
      v("lower", lower, "lower end of the damped interval, a fraction of rho(D^-1 A)", open_range(0, 1));
      v("upper", upper, "upper end, a multiple of rho(D^-1 A) (> 1 guards the estimate)", in_range(1, 2));
    }
  };
  static std::unique_ptr<Smoother> make(const Params& p, const SmootherLevel& L) {
    const double rho = L.A.rows() > 0 ? level_rho(L) : 1.0;
    return std::make_unique<ChebyshevSmoother>(L.A, L.dinv, p.degree, p.lower * rho, p.upper * rho);
  }
};
}  // namespace

void add_chebyshev(SmootherRegistry& r) { r.add<Chebyshev>(); }

}  // namespace saga
