// FGMRES(m): flexible GMRES (Saad 1993). It keeps the preconditioned basis Z,
// so the preconditioner may change from one iteration to the next — an inner
// Krylov solve, a cycle with a varying number of sweeps — at the cost of m more
// vectors than GMRES(m) (solver/krylov/restarted_gmres.hpp).
#include "solver/krylov/restarted_gmres.hpp"

namespace saga {

namespace {
struct FgmresComponent {
  static constexpr const char* name = "fgmres";
  static constexpr const char* summary = "flexible GMRES(m): M may vary between iterations";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = RestartParams;
  static std::unique_ptr<KrylovMethod> make(const Params& p) {
    return std::make_unique<RestartedGmres>(p.restart, true);
  }
};
}  // namespace

void add_fgmres(KrylovRegistry& r) { r.add<FgmresComponent>(); }

}  // namespace saga
