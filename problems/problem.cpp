#include "problems/problem.hpp"

#include "core/file.hpp"

// The problem generators: one line each (the add_* function its file in problems/generators/ defines).
#define SAGA_PROBLEM_COMPONENTS(X) \
  X(poisson)                       \
  X(fe)                            \
  X(matrix_market)                 \
  X(convection_diffusion)          \
  X(rmat_laplacian)                \
  X(elasticity)                    \
  /* one line per generator, above */

namespace saga {

#define SAGA_DECLARE(name) void add_##name##_problem(ProblemRegistry&);
SAGA_PROBLEM_COMPONENTS(SAGA_DECLARE)
#undef SAGA_DECLARE

const ProblemRegistry& problem_generators() {
  static const ProblemRegistry r = [] {
    ProblemRegistry reg("problem type", "problem.type", "problem");
#define SAGA_ADD(name) add_##name##_problem(reg);
    SAGA_PROBLEM_COMPONENTS(SAGA_ADD)
#undef SAGA_ADD
    reg.set_default("poisson");
    return reg;
  }();
  return r;
}

std::string ProblemContext::resolve(const std::string& path) const { return resolve_config_path(directory, path); }

}  // namespace saga
