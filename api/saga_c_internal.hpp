#pragma once
// Shared by the C API's sources (api/saga_c.cpp, api/saga_c_config.cpp); not
// part of the C interface.
#include <string>

namespace saga::capi {
// Sets the calling thread's saga_last_error().
void set_last_error(const std::string& message);
}  // namespace saga::capi
