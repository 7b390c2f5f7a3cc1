#pragma once
// Reader of Gmsh .msh meshes, ASCII formats 2.2 and 4.1: nodes, triangles,
// tetrahedra, boundary lines/triangles and physical groups (names included).
// Every error names the file and line. The mesh's dimension is 3 when it has
// tetrahedra, else 2 (triangles, which must lie in a plane z = const).
// Vertices that no cell uses (geometry points, say) are dropped. Dirichlet
// vertices are not marked here (see mark_boundary_dirichlet / mark_group_dirichlet).
#include <string>

#include "problems/mesh.hpp"

namespace saga {

Mesh read_gmsh(const std::string& path);
// The same from text; `name` is used in messages.
Mesh read_gmsh_text(const std::string& text, const std::string& name);

}  // namespace saga
