#pragma once
// P1 finite-element Laplacian -div(kappa K grad u) on a simplicial mesh, with
// the Dirichlet vertices eliminated, assembled element by element on either
// backend. Also the host-side tools a discretisation test needs: the load
// vector of a source term and the L2 error against a known solution.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "problems/cell_assembly.hpp"
#include "problems/coefficient_field.hpp"
#include "problems/mesh.hpp"
#include "sparse/csr.hpp"

namespace saga {

struct FeCoefficients {
  Anisotropy anisotropy;                        // the tensor K
  CoefficientField field;                       // kappa at each cell's centroid (bounding box -> unit cube)
  std::map<std::string, double> group_values;   // kappa per physical group (name or tag) of the cells; overrides field
};

// kappa of every cell. Unknown group names are InputErrors.
std::vector<double> cell_coefficients(const Mesh& m, const FeCoefficients& c);

struct FeSystem {
  CsrMatrix A;
  std::vector<index_t> dof_of_vertex;  // -1 for a Dirichlet vertex
  std::vector<index_t> vertex_of_dof;
};

// The matrix in `space` (the mesh is moved there; the triplets are computed and
// summed there, in chunks of rows of about chunk_triplets triplets each:
// problems/cell_assembly.hpp). Requires m.dirichlet to be set and at least one
// Dirichlet vertex (without one the Neumann matrix is singular: an InputError).
FeSystem assemble_p1(const Mesh& m, const FeCoefficients& c, Space space,
                     std::int64_t chunk_triplets = kAssemblyChunkTriplets);

// Host tools for discretisation tests (f and u take a point of dim coordinates).
// Load vector b_i = integral of f phi_i (degree-2 quadrature), over the unknowns.
std::vector<double> p1_load_vector(const Mesh& m, const FeSystem& s, const std::function<double(const double*)>& f);
// || u - u_h ||_L2 with u_h given at the unknowns (0 at Dirichlet vertices),
// integrated with a degree-4 (2D) / degree-3 (3D) rule per cell.
double p1_l2_error(const Mesh& m, const FeSystem& s, const std::vector<double>& u_h,
                   const std::function<double(const double*)>& u);

}  // namespace saga
