#include "problems/gmsh_geo.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/error.hpp"
#include "core/file.hpp"
#include "core/log.hpp"
#include "problems/gmsh_reader.hpp"

namespace saga {

namespace {
namespace fs = std::filesystem;

std::string gmsh_program() {
  const char* env = std::getenv("SAGA_GMSH");
  return env && *env ? env : "gmsh";
}
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A temporary file removed when it goes out of scope, on every path out
// (errors, an interrupted gmsh) — with its gmsh log.
struct TemporaryMesh {
  fs::path path;
  explicit TemporaryMesh(const std::string& tag)
      : path(fs::temp_directory_path() /
             fmt::format("saga-{}-{}-{}.msh", ::getpid(), tag,
                         std::chrono::steady_clock::now().time_since_epoch().count())) {}
  ~TemporaryMesh() {
    std::error_code ec;
    fs::remove(path, ec);
    fs::remove(path.string() + ".log", ec);
  }
  TemporaryMesh(const TemporaryMesh&) = delete;
  TemporaryMesh& operator=(const TemporaryMesh&) = delete;
};

// gmsh's exit: an error with its output when it failed or was interrupted.
void check_gmsh(int rc, const std::string& log, const std::string& geo, double h, const std::string& out_path) {
  std::ifstream in(log);
  std::stringstream out;
  out << in.rdbuf();
  std::error_code ec;
  fs::remove(log, ec);
  if (rc != -1 && WIFSIGNALED(rc))
    throw InputError(fmt::format("gmsh was interrupted (signal {}) while meshing '{}' (h = {})", WTERMSIG(rc), geo, h));
  if (rc != 0 || !fs::exists(out_path)) {
    fs::remove(out_path, ec);  // a partial output is no mesh
    throw InputError(fmt::format("gmsh failed on '{}' (h = {}):\n{}", geo, h, out.str()));
  }
}
}  // namespace

bool gmsh_available() {
  const std::string cmd = "command -v " + quote(gmsh_program()) + " > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

namespace {
void require_gmsh(const std::string& geo, double h) {
  open_input_file(geo, "geometry file");  // missing, a folder, unreadable: said here
  SAGA_REQUIRE(h > 0 && std::isfinite(h), "{}: mesh size h must be positive (got {})", geo, h);
  if (!gmsh_available())
    throw UnavailableError(fmt::format(
        "meshing '{}' needs the gmsh program, which is not on PATH: install the Debian package gmsh "
        "(tools/setup.sh does) or give a .msh file",
        geo));
}
}  // namespace

void run_gmsh(const std::string& geo, double h, const std::string& format, const std::string& msh_path) {
  SAGA_REQUIRE(format == "msh22" || format == "msh41", "gmsh format '{}' (expected msh22 or msh41)", format);
  require_gmsh(geo, h);
  const std::string log = msh_path + ".log";
  // -3 meshes a 3D geometry fully and a 2D one up to its surfaces.
  const std::string cmd = fmt::format("{} {} -3 -clmax {:.17g} -format {} -o {} > {} 2>&1", quote(gmsh_program()),
                                      quote(geo), h, format, quote(msh_path), quote(log));
  check_gmsh(std::system(cmd.c_str()), log, geo, h, msh_path);
}

GeoMeshEstimate estimate_geo_mesh(const std::string& geo, double h) {
  require_gmsh(geo, h);
  // The curves alone (gmsh -1, every entity saved) take a fraction of a second
  // at any h: their vertices give the bounding box.
  const TemporaryMesh tmp("curves");
  const std::string out = tmp.path.string(), log = out + ".log";
  const std::string cmd = fmt::format("{} {} -1 -save_all -clmax {:.17g} -format msh22 -o {} > {} 2>&1",
                                      quote(gmsh_program()), quote(geo), h, quote(out), quote(log));
  check_gmsh(std::system(cmd.c_str()), log, geo, h, out);
  std::ifstream in(out);
  std::string line;
  while (std::getline(in, line) && line != "$Nodes") {
  }
  long long count = 0;
  in >> count;
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) lo[d] = std::numeric_limits<double>::infinity(), hi[d] = -lo[d];
  for (long long k = 0; k < count; ++k) {
    long long id;
    double x[3];
    if (!(in >> id >> x[0] >> x[1] >> x[2])) break;
    for (int d = 0; d < 3; ++d) lo[d] = std::min(lo[d], x[d]), hi[d] = std::max(hi[d], x[d]);
  }
  GeoMeshEstimate e;
  if (count == 0) return e;  // no curves: nothing to estimate from
  double cells = 1;
  for (int d = 0; d < 3; ++d) {
    e.extent[d] = hi[d] - lo[d];
    if (e.extent[d] > 1e-12 * (hi[0] - lo[0] + hi[1] - lo[1] + hi[2] - lo[2])) {
      ++e.dim;
      cells *= e.extent[d] / h + 1;
    }
  }
  e.vertices = cells;  // the box at spacing h: an upper estimate for shapes that do not fill their box
  return e;
}

Mesh mesh_from_geo(const std::string& geo, double h, double max_vertices) {
  const GeoMeshEstimate e = estimate_geo_mesh(geo, h);
  const std::string box = fmt::format("{:.3g} x {:.3g} x {:.3g}", e.extent[0], e.extent[1], e.extent[2]);
  if (e.vertices > max_vertices)
    throw InputError(fmt::format("meshing '{}' at h = {} would make up to {:.3g} vertices (bounding box {}): more "
                                 "than the limit of {:.3g}; raise h, or the limit (problem.max_vertices)",
                                 geo, h, e.vertices, box, max_vertices));
  if (e.vertices > 1e6)
    log_warning("meshing '{}' with gmsh at h = {}: up to {:.3g} vertices (bounding box {}); this can take minutes", geo,
                h, e.vertices, box);
  const auto start = std::chrono::steady_clock::now();
  const TemporaryMesh tmp("mesh");
  run_gmsh(geo, h, "msh41", tmp.path.string());
  // Read under the geometry's name: messages name the user's file, not ours.
  std::ifstream in(tmp.path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string name = fmt::format("{} (meshed by gmsh, h = {})", geo, h);
  Mesh m = read_gmsh_text(text.str(), name);
  m.source = fmt::format("{} (gmsh, h = {})", geo, h);
  log_info("meshed '{}' at h = {}: {} vertices in {:.2f} s", geo, h, m.vertices(),
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return m;
}

Mesh read_mesh_file(const std::string& path, double h, double max_vertices, std::string* description) {
  const bool geo = std::filesystem::path(path).extension() == ".geo";
  if (description) *description = path + (geo ? fmt::format(" (gmsh, h = {})", h) : "");
  return geo ? mesh_from_geo(path, h, max_vertices) : read_gmsh(path);
}

void require_mesh_file_name(const std::string& mesh, const std::string& generated) {
  const auto ext = std::filesystem::path(mesh).extension().string();
  SAGA_REQUIRE(ext == ".msh" || ext == ".geo", "mesh: '{}' (expected {}, or a .msh or .geo file)", mesh, generated);
}

}  // namespace saga
