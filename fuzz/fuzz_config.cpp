// libFuzzer target: the YAML config loader (every key, component and option
// check) on arbitrary bytes. Only parsing: nothing is generated or solved.
#include <cstdint>
#include <string>

#include "app/config.hpp"
#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    saga::parse_config(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  } catch (const saga::Error&) {
  }
  return 0;
}
