// Convection-diffusion -Δu + w·∇u = f on the unit square, u = 0 on the
// boundary: N x N interior points, h = 1/(N+1), the 5-point Laplacian and
// first-order upwind differences for the convection, scaled by h^2. With the
// mesh Péclet number Pe = |w| h / 2 and the wind at `angle` degrees,
//   a_ii = 4 + 2 Pe (|cos| + |sin|),
//   west  = -1 - 2 Pe max(cos, 0),  east  = -1 - 2 Pe max(-cos, 0),
//   south = -1 - 2 Pe max(sin, 0),  north = -1 - 2 Pe max(-sin, 0).
// A nonsymmetric M-matrix (weakly diagonally dominant): the test problem for
// GMRES, FGMRES and BiCGStab preconditioned by SA-AMG (use
// amg.coarse_solver: dense_lu).
#include <cmath>

#include "problems/problem.hpp"

namespace saga {

namespace {
class ConvectionDiffusionGenerator final : public ProblemGenerator {
 public:
  ConvectionDiffusionGenerator(index_t N, double pe, double angle) : N_(N), pe_(pe), angle_(angle) {}
  GeneratedMatrix generate(Space space) const override {
    const double t = angle_ * 3.14159265358979323846 / 180.0, c = std::cos(t), s = std::sin(t);
    const double k = 2.0 * pe_;
    const double west = -1 - k * std::max(c, 0.0), east = -1 - k * std::max(-c, 0.0);
    const double south = -1 - k * std::max(s, 0.0), north = -1 - k * std::max(-s, 0.0);
    const double diag = 4 + k * (std::abs(c) + std::abs(s));
    const index_t N = N_;
    const std::int64_t n = static_cast<std::int64_t>(N) * N;
    SAGA_REQUIRE(n < (std::int64_t(1) << 31) / 5, "convection_diffusion: N = {} is too large", N);
    HostCsr h{static_cast<index_t>(n), static_cast<index_t>(n), {0}, {}, {}};
    h.col.reserve(5 * n);
    h.val.reserve(5 * n);
    for (index_t j = 0; j < N; ++j)
      for (index_t i = 0; i < N; ++i) {
        const index_t row = j * N + i;
        auto put = [&](index_t col, double v) {
          h.col.push_back(col);
          h.val.push_back(v);
        };
        if (j > 0) put(row - N, south);
        if (i > 0) put(row - 1, west);
        put(row, diag);
        if (i + 1 < N) put(row + 1, east);
        if (j + 1 < N) put(row + N, north);
        h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
      }
    GeneratedMatrix g{from_host_csr(h, space),
                      fmt::format("convection-diffusion 2D N={} (upwind, mesh Péclet {}, wind angle {})", N, pe_, angle_)};
    if (pe_ != 0) g.asymmetry = "the convection term makes it nonsymmetric by construction";
    return g;
  }

 private:
  index_t N_;
  double pe_, angle_;
};

struct ConvectionDiffusion {
  static constexpr const char* name = "convection_diffusion";
  static constexpr const char* summary = "2D upwind convection-diffusion: a nonsymmetric M-matrix";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    index_t N = 256;
    double peclet = 1.0;
    double angle = 30.0;
    template <class V>
    void visit(V& v) {
      v("N", N, "interior points per direction", at_least(2));
      v("peclet", peclet, "mesh Péclet number |w| h / 2 (0: the Laplacian)", in_range(0, 1e6));
      v("angle", angle, "wind direction (degrees from the x axis)");
    }
  };
  static std::unique_ptr<ProblemGenerator> make(const Params& p, const ProblemContext&) {
    return std::make_unique<ConvectionDiffusionGenerator>(p.N, p.peclet, p.angle);
  }
};
}  // namespace

void add_convection_diffusion_problem(ProblemRegistry& r) { r.add<ConvectionDiffusion>(); }

}  // namespace saga
