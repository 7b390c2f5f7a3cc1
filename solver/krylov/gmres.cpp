// GMRES(m): restarted GMRES with right preconditioning and a fixed M
// (solver/krylov/restarted_gmres.hpp).
#include "solver/krylov/restarted_gmres.hpp"

namespace saga {

namespace {
struct GmresComponent {
  static constexpr const char* name = "gmres";
  static constexpr const char* summary = "restarted GMRES(m), right preconditioning, fixed M";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = RestartParams;
  static std::unique_ptr<KrylovMethod> make(const Params& p) {
    return std::make_unique<RestartedGmres>(p.restart, false);
  }
};
}  // namespace

void add_gmres(KrylovRegistry& r) { r.add<GmresComponent>(); }

}  // namespace saga
