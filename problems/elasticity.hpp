#pragma once
// P1 linear elasticity on a simplicial mesh: -div sigma(u) = f with the
// isotropic Hooke law sigma = lambda tr(eps) I + 2 mu eps, the displacement
// vertices marked Dirichlet clamped (u = 0, eliminated), assembled element by
// element on either backend. Unknowns: dim per free vertex, interleaved
// (unknown v*dim + i is displacement i of free vertex v), so the rigid-body
// modes of the free vertices' coordinates are the near-nullspace
// (amg/nullspace.hpp).
#include <vector>

#include "problems/cell_assembly.hpp"
#include "problems/mesh.hpp"
#include "sparse/csr.hpp"

namespace saga {

struct ElasticityMaterial {
  double young = 1.0;     // E > 0
  double poisson = 0.3;   // nu in (-1, 0.5)
  double lambda() const { return young * poisson / ((1 + poisson) * (1 - 2 * poisson)); }
  double mu() const { return young / (2 * (1 + poisson)); }
};

struct ElasticSystem {
  CsrMatrix A;
  std::vector<index_t> node_of_vertex;  // -1 for a clamped vertex
  std::vector<double> coordinates;      // free vertices' coordinates (nodes x dim), in node order
};

// The stiffness matrix in `space`. Without a clamped vertex the matrix is
// singular (the rigid motions are its kernel): an InputError, unless
// `allow_floating` (tests check that kernel).
// The triplets are summed in chunks of rows of about chunk_triplets each
// (problems/cell_assembly.hpp).
ElasticSystem assemble_elasticity(const Mesh& m, const ElasticityMaterial& material, Space space,
                                  bool allow_floating = false, std::int64_t chunk_triplets = kAssemblyChunkTriplets);

}  // namespace saga
