// libFuzzer target: the Gmsh .msh reader (formats 2.2 and 4.1) on arbitrary
// bytes, then the boundary marking the FE generator applies.
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "problems/gmsh_reader.hpp"
#include "problems/mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    saga::Mesh m = saga::read_gmsh_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz.msh");
    saga::mark_boundary_dirichlet(m);
  } catch (const saga::Error&) {
  }
  return 0;
}
