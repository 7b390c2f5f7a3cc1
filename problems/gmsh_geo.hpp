#pragma once
// Meshing a Gmsh geometry (.geo) by running the gmsh program (Debian package
// `gmsh`, installed by tools/setup.sh), then reading the result.
#include <string>

#include "problems/mesh.hpp"

namespace saga {

// Whether a gmsh executable is on PATH (or named by $SAGA_GMSH).
bool gmsh_available();
// Meshes `geo` with largest element size h (gmsh -clmax), writing format
// "msh22" or "msh41" to `msh_path`. Errors carry gmsh's own output.
void run_gmsh(const std::string& geo, double h, const std::string& format, const std::string& msh_path);
// A size estimate before meshing: gmsh meshes the curves only (well under a
// second at any h) and their bounding box at spacing h bounds the vertices a
// full mesh makes (shapes that do not fill their box make fewer).
struct GeoMeshEstimate {
  int dim = 0;                     // dimensions with extent
  double extent[3] = {0, 0, 0};    // bounding box of the curves
  double vertices = 0;             // Π (extent / h + 1) over those dimensions
};
GeoMeshEstimate estimate_geo_mesh(const std::string& geo, double h);
// Meshes `geo` into a temporary file (removed on every path out) and reads it;
// refuses first when the estimate exceeds max_vertices, and says when the
// mesh will be large. Messages name `geo`, not the temporary file.
Mesh mesh_from_geo(const std::string& geo, double h, double max_vertices = 2e7);

// The mesh file a config names: a .geo meshed by gmsh at h (mesh_from_geo), or
// a .msh read as it is. *description gets "PATH" or "PATH (gmsh, h = H)".
Mesh read_mesh_file(const std::string& path, double h, double max_vertices, std::string* description);
// InputError "mesh: 'NAME' (expected GENERATED, or a .msh or .geo file)"
// unless `mesh` ends in .msh or .geo (for a generator's check of its options).
void require_mesh_file_name(const std::string& mesh, const std::string& generated);

}  // namespace saga
