#pragma once
// Shared by the C API's sources (api/saga_c.cpp, api/saga_c_config.cpp) and the
// Python extension (python/saga_module.cpp); not part of the C interface.
#include <string>

#include "api/saga.hpp"

namespace saga::capi {
// Sets the calling thread's saga_last_error().
void set_last_error(const std::string& message);
// One parameter by its config key (docs/config.md): "amg.KEY" (a setup or
// cycle key, a component's name "amg.smoother" or option
// "amg.smoother.omega", the "amg.omega" shorthand) or "solver.KEY". Throws
// InputError naming an unknown key or a bad value.
void set_param(AmgParams& amg, SolverParams& solver, const std::string& key, const char* value);
}  // namespace saga::capi
