#pragma once
// Simplicial meshes for P1 finite elements: triangles in 2D, tetrahedra in 3D.
// A mesh lives on the host (it is read from a file or generated there);
// assembly moves what it needs to the backend that builds the matrix.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace saga {

struct Mesh {
  int dim = 2;                         // 2: triangles, 3: tetrahedra
  std::vector<double> coords;          // dim numbers per vertex
  std::vector<index_t> cells;          // dim + 1 vertex indices per cell
  std::vector<int> cell_group;         // physical group tag per cell (0: none)
  std::vector<index_t> facets;         // boundary facets given by the file: dim vertices each
  std::vector<int> facet_group;        // physical group tag per facet
  std::map<int, std::string> group_names;  // physical names by tag (Gmsh $PhysicalNames)
  std::vector<char> dirichlet;         // per vertex: 1 = Dirichlet (eliminated); see mark_*
  std::string source;                  // where it came from (for messages)

  index_t vertices() const { return static_cast<index_t>(coords.size() / dim); }
  index_t cell_count() const { return static_cast<index_t>(cells.size() / (dim + 1)); }
};

// Checks indices and shapes, and that no cell is degenerate (a measure below
// 1e-12 of the mean is an InputError naming the cell).
void validate_mesh(const Mesh& m);

// Dirichlet vertices: those on the geometric boundary (facets that belong to
// exactly one cell). Returns how many.
index_t mark_boundary_dirichlet(Mesh& m);
// Dirichlet vertices: those on the file's facets whose physical group has one of
// the given names or numeric tags. Unknown groups are InputErrors.
index_t mark_group_dirichlet(Mesh& m, const std::vector<std::string>& groups);

// Signed measure (area, volume) of a cell.
double cell_measure(const Mesh& m, index_t cell);
// Number of edges joining two non-Dirichlet vertices (P1 matrix nnz = free
// vertices + 2 x this, a check used by the tests).
std::int64_t interior_edges(const Mesh& m);

// Tag of a physical group given by name or number, or -1.
int find_group(const Mesh& m, const std::string& name_or_tag);

}  // namespace saga
