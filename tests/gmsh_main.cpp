// Tests that run the gmsh program on configs/meshes/*.geo. Exit 77 (ctest
// SKIP_RETURN_CODE: reported as skipped, never as passed) when gmsh is not
// installed; tools/setup.sh installs it, so CI runs them.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "tests/failure_summary.hpp"
#include <spdlog/spdlog.h>

#include <cstdio>

#include "problems/gmsh_geo.hpp"

int main(int argc, char** argv) {
  if (!saga::gmsh_available()) {
    std::puts("SKIPPED: the gmsh program is not on PATH (tools/setup.sh installs it)");
    return 77;
  }
  spdlog::set_level(spdlog::level::warn);
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
