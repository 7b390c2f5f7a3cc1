#pragma once
// A floating elastic body for the tests of singular coarse matrices: a 3D box of
// P1 tetrahedra with no clamped vertex, so that its stiffness matrix is singular
// with the six rigid motions as kernel (problems/elasticity.hpp).
#include <cstdint>

#include "problems/elasticity.hpp"
#include "problems/mesh_generate.hpp"

namespace saga::test {

// nx x ny x ny cells over a length x 1 x 1 box, vertices perturbed (seeded).
inline ElasticSystem floating_box(index_t nx, index_t ny, double length, std::uint64_t seed) {
  const index_t cells[3] = {nx, ny, ny};
  const double size[3] = {length, 1.0, 1.0};
  Mesh m = simplex_box_mesh(3, cells, size, 0.2, seed);
  m.dirichlet.assign(m.vertices(), 0);
  return assemble_elasticity(m, {2.0, 0.3}, Space::host, /*allow_floating=*/true);
}

}  // namespace saga::test
