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
// Meshes `geo` into a temporary file and reads it.
Mesh mesh_from_geo(const std::string& geo, double h);

}  // namespace saga
