#pragma once
// The near-nullspace the tentative prolongator interpolates exactly (B, n x k,
// row-major) and the blocks of unknowns that aggregation keeps together.
// Scalar problems use the constant vector; linear elasticity uses the rigid-body
// modes (2D: 2 translations + 1 rotation, 3D: 3 + 3) with the dim unknowns of
// each node as one block (PyAMG's B and BSR blocksize, AMGCL's nullspace and
// block_size, PETSc's MatSetNearNullSpace).
//
// The sources a config chooses from are components (amg.nullspace):
//   constant (default), file (a Matrix Market n x k array), rigid_body (modes
//   from node coordinates: the problem's mesh, or a Matrix Market file).
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "sparse/array.hpp"

namespace saga {

struct NearNullspace {
  Vector B;            // n x columns, row-major; empty: the constant vector
  int columns = 1;
  int block_size = 1;  // unknowns per node, interleaved (node i: rows i*b .. i*b+b-1)
  std::string description = "constant";
};

// The constant vector (one column, blocks of one).
NearNullspace constant_nullspace();
// Rigid-body modes of nodes at `coordinates` (nodes x dim, row-major, dim 2 or
// 3): unknowns node*dim + component; columns translations, then rotations about
// the centroid (2D: (-y, x); 3D: about z, x, y).
NearNullspace rigid_body_modes(const std::vector<double>& coordinates, int dim, Space space);
// B given by the user (rows x columns, row-major): every value finite, rows a
// multiple of block_size, no column zero everywhere.
NearNullspace user_nullspace(const std::vector<double>& values, std::int64_t rows, std::int64_t columns,
                             int block_size, Space space, const std::string& source);

// What a source may use: the matrix size, the problem's node coordinates (may be
// empty) and the config directory (relative paths).
struct NullspaceContext {
  std::int64_t rows = 0;
  Space space = Space::host;
  std::vector<double> coordinates;  // nodes x dim, row-major (empty: the problem has none)
  int dim = 0;
  std::string directory;
  std::string resolve(const std::string& path) const;
};

class NullspaceSource {
 public:
  virtual ~NullspaceSource() = default;
  virtual NearNullspace make(const NullspaceContext& ctx) const = 0;
};
using NullspaceRegistry = Registry<NullspaceSource>;
const NullspaceRegistry& nullspace_sources();

// Checks B against the matrix: n rows, n a multiple of the block size.
void check_nullspace(const NearNullspace& ns, std::int64_t rows);

}  // namespace saga
