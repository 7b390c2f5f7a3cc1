// GPU test runner: skips (exit 77, ctest SKIP_RETURN_CODE) when this build has
// no CUDA backend or the machine has no GPU, so GPU tests never pass silently.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "tests/failure_summary.hpp"

#include <cstdio>
#include <cstdlib>

#include <spdlog/spdlog.h>

#include "core/device.hpp"

int main(int argc, char** argv) {
  if (!saga::device::compiled()) {
    std::puts("SKIPPED: saga was built without the CUDA backend");
    return 77;
  }
  if (saga::device::count() == 0) {
    std::puts("SKIPPED: no GPU present");
    return 77;
  }
  spdlog::set_level(spdlog::level::warn);
  if (const char* size = std::getenv("SAGA_TEST_SIZE")) std::fprintf(stderr, "SAGA_TEST_SIZE=%s\n", size);  // stderr: -ltc lists stay clean
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
