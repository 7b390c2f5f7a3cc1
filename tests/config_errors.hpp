#pragma once
// The message of the InputError a config text raises ("no error" when it reads).
#include <string>

#include "app/config.hpp"

namespace saga::test {

inline std::string config_error(const std::string& text) {
  try {
    parse_config(text, "c.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace saga::test
