#include "core/error.hpp"

namespace saga {

std::string at_source(const std::string& msg, const char* file, int line) {
  return fmt::format("{} [{}:{}]", msg, file, line);
}

void throw_input_error(const std::string& msg, const char* file, int line) {
  throw InputError(at_source(msg, file, line));
}

}  // namespace saga
