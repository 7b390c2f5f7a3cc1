#include "problems/gmsh_geo.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "problems/gmsh_reader.hpp"

namespace saga {

namespace {
std::string gmsh_program() {
  const char* env = std::getenv("SAGA_GMSH");
  return env && *env ? env : "gmsh";
}
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

bool gmsh_available() {
  const std::string cmd = "command -v " + quote(gmsh_program()) + " > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

void run_gmsh(const std::string& geo, double h, const std::string& format, const std::string& msh_path) {
  SAGA_REQUIRE(std::filesystem::exists(geo), "cannot open geometry file '{}'", geo);
  SAGA_REQUIRE(h > 0 && std::isfinite(h), "{}: mesh size h must be positive (got {})", geo, h);
  SAGA_REQUIRE(format == "msh22" || format == "msh41", "gmsh format '{}' (expected msh22 or msh41)", format);
  if (!gmsh_available())
    throw UnavailableError(fmt::format(
        "meshing '{}' needs the gmsh program, which is not on PATH: install the Debian package gmsh "
        "(tools/setup.sh does) or give a .msh file",
        geo));
  const std::string log = msh_path + ".log";
  // -3 meshes a 3D geometry fully and a 2D one up to its surfaces.
  const std::string cmd = fmt::format("{} {} -3 -clmax {:.17g} -format {} -o {} > {} 2>&1", quote(gmsh_program()),
                                      quote(geo), h, format, quote(msh_path), quote(log));
  const int rc = std::system(cmd.c_str());
  std::ifstream in(log);
  std::stringstream out;
  out << in.rdbuf();
  std::filesystem::remove(log);
  if (rc != 0 || !std::filesystem::exists(msh_path))
    throw InputError(fmt::format("gmsh failed on '{}' (h = {}):\n{}", geo, h, out.str()));
}

Mesh mesh_from_geo(const std::string& geo, double h) {
  const auto tmp = std::filesystem::temp_directory_path() /
                   fmt::format("saga-{}-{}.msh", ::getpid(), std::hash<std::string>{}(geo + std::to_string(h)));
  run_gmsh(geo, h, "msh41", tmp.string());
  try {
    Mesh m = read_gmsh(tmp.string());
    m.source = fmt::format("{} (gmsh, h = {})", geo, h);
    std::filesystem::remove(tmp);
    return m;
  } catch (...) {
    std::filesystem::remove(tmp);
    throw;
  }
}

}  // namespace saga
