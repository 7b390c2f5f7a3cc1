#include "core/error.hpp"

namespace saga {

void throw_input_error(const std::string& msg, const char* file, int line) {
  throw InputError(fmt::format("{} [{}:{}]", msg, file, line));
}

}  // namespace saga
