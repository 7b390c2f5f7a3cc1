// L1-Jacobi: x <- x + omega D_l1^-1 (b - A x) with (D_l1)_ii = Σ_j |a_ij|
// (Baker, Falgout, Kolev, Yang 2011). Convergent for every SPD matrix with
// omega = 1, so it needs no spectral estimate; on diagonally dominant rows it
// damps more than Jacobi, on rows with large off-diagonals (anisotropy, high
// contrast, unstructured FE) it stays stable where undamped Jacobi diverges.
#include "solver/smoothers/diagonal_relaxation.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/csr_ops_functors.hpp"

namespace saga {

namespace {
struct L1Jacobi {
  static constexpr const char* name = "l1_jacobi";
  static constexpr const char* summary = "L1-Jacobi, D_l1 = row sums of |A|; needs no rho estimate";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    double omega = 1.0;
    template <class V>
    void visit(V& v) {
      v("omega", omega, "weight", open_range(0, 2));
    }
  };
  static std::unique_ptr<Smoother> make(const Params& p, const SmootherLevel& L) {
    Vector w = row_abs_sums(L.A);
    SAGA_REQUIRE(all_finite(w), "l1_jacobi: the matrix has non-finite entries");
    // Rows are never empty on a level with a positive diagonal.
    parallel_for(w.space(), static_cast<std::int64_t>(w.size()), functors::Reciprocal{w.data()});
    return std::make_unique<DiagonalRelaxation>(L.A, std::move(w), p.omega);
  }
};
}  // namespace

void add_l1_jacobi(SmootherRegistry& r) { r.add<L1Jacobi>(); }

}  // namespace saga
