#include "problems/elasticity.hpp"

#include <cmath>

#include "problems/cell_assembly.hpp"
#include "problems/elasticity_functors.hpp"

namespace saga {

ElasticSystem assemble_elasticity(const Mesh& m, const ElasticityMaterial& material, Space space,
                                  bool allow_floating, std::int64_t chunk_triplets) {
  validate_mesh(m);
  SAGA_REQUIRE(m.dirichlet.size() == static_cast<std::size_t>(m.vertices()), "{}: clamped vertices not marked",
               m.source);
  SAGA_REQUIRE(material.young > 0 && std::isfinite(material.young), "young: {} (expected a positive modulus)",
               material.young);
  SAGA_REQUIRE(material.poisson > -1 && material.poisson < 0.5,
               "poisson_ratio: {} (expected -1 < nu < 0.5; 0.5 is incompressible, which P1 elements lock on)",
               material.poisson);
  const int dim = m.dim;
  ElasticSystem s;
  s.node_of_vertex.assign(m.vertices(), -1);
  index_t nodes = 0;
  for (index_t v = 0; v < m.vertices(); ++v)
    if (!m.dirichlet[v]) {
      s.node_of_vertex[v] = nodes++;
      for (int r = 0; r < dim; ++r) s.coordinates.push_back(m.coords[static_cast<std::size_t>(v) * dim + r]);
    }
  SAGA_REQUIRE(nodes > 0, "{}: every vertex is clamped: there are no unknowns", m.source);
  SAGA_REQUIRE(allow_floating || nodes < m.vertices(),
               "{}: no clamped vertex, so the body can move freely and the matrix is singular (its kernel are the "
               "rigid motions); clamp some boundary",
               m.source);
  std::vector<char> used(m.vertices(), 0);
  for (index_t v : m.cells) used[v] = 1;
  for (index_t v = 0; v < m.vertices(); ++v)
    SAGA_REQUIRE(used[v] || m.dirichlet[v], "{}: vertex {} belongs to no cell (its rows would be empty)", m.source, v);
  const index_t n = checked_index(static_cast<std::int64_t>(nodes) * dim, "elasticity problem");

  const auto coords = Array<double>::from_vector(m.coords, space, "mesh coordinates");
  const auto cells = Array<index_t>::from_vector(m.cells, space, "mesh cells");
  const auto node = Array<index_t>::from_vector(s.node_of_vertex, space, "mesh node numbering");
  s.A = assemble_cell_triplets(
      space, m.cell_count(), n, fe_functors::CountFreeBlockPairs{cells.data(), node.data(), dim, nullptr},
      fe_functors::WriteElasticityTriplets{coords.data(), cells.data(), node.data(), material.lambda(), material.mu(),
                                           dim, nullptr, nullptr, nullptr, nullptr},
      chunk_triplets);
  return s;
}

}  // namespace saga
