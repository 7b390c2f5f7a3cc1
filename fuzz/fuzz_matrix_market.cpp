// libFuzzer target: the Matrix Market reader (matrices) on arbitrary bytes.
// Any saga::Error is a clean rejection; anything else (a crash, a sanitizer
// report, an uncaught exception, a hang) is a bug. docs/reliability.md.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "sparse/matrix_market.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("SAGA_HOST_MEMORY_LIMIT", "500000000", 1);  // size lines past 0.5 GB are refused
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const saga::CsrMatrix A = saga::read_matrix_market(in, "fuzz.mtx");
    A.validate("fuzz.mtx");
  } catch (const saga::Error&) {
  }
  return 0;
}
