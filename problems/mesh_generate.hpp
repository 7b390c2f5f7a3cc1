#pragma once
// Meshes generated in code: the unit square (cube) cut into n^d squares (cubes),
// each split into 2 triangles (6 tetrahedra, Kuhn's split along the main
// diagonal), with the interior vertices moved by a seeded random perturbation.
// Unknowns after eliminating the boundary: (n - 1)^d; a P1 row has 7 (2D) or 15
// (3D) entries in the interior.
#include <cstdint>

#include "problems/mesh.hpp"

namespace saga {

// `perturbation` is the largest move of an interior vertex per coordinate, as a
// fraction of h = 1/n, in [0, 0.5): below 0.25 no triangle can fold; larger
// values (or 3D ones that fold a cell) are InputErrors naming the cell. Every
// cell is positively oriented. The Dirichlet vertices are the boundary ones.
Mesh unit_simplex_mesh(int dim, index_t n, double perturbation, std::uint64_t seed);
// The same on the box [0, size[0]] x [0, size[1]] (x [0, size[2]]) with
// cells[k] cells along axis k (the third entries are ignored in 2D).
Mesh simplex_box_mesh(int dim, const index_t cells[3], const double size[3], double perturbation,
                      std::uint64_t seed);

}  // namespace saga
