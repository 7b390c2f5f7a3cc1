#include "amg/nullspace.hpp"

#include <cmath>

#include "core/file.hpp"
#include "sparse/matrix_market.hpp"

namespace saga {

NearNullspace constant_nullspace() { return NearNullspace{}; }

NearNullspace rigid_body_modes(const std::vector<double>& coordinates, int dim, Space space) {
  SAGA_REQUIRE(dim == 2 || dim == 3, "rigid-body modes: coordinates of dimension {} (expected 2 or 3)", dim);
  SAGA_REQUIRE(!coordinates.empty() && coordinates.size() % dim == 0,
               "rigid-body modes: {} coordinate values are not whole nodes of {}", coordinates.size(), dim);
  const std::size_t nodes = coordinates.size() / dim;
  double centre[3] = {0, 0, 0};
  for (std::size_t v = 0; v < nodes; ++v)
    for (int r = 0; r < dim; ++r) {
      const double x = coordinates[v * dim + r];
      SAGA_REQUIRE(std::isfinite(x), "rigid-body modes: coordinate {} of node {} is {}", r, v, x);
      centre[r] += x;
    }
  for (int r = 0; r < dim; ++r) centre[r] /= static_cast<double>(nodes);
  const int k = dim == 2 ? 3 : 6;
  std::vector<double> B(nodes * dim * k, 0.0);
  for (std::size_t v = 0; v < nodes; ++v) {
    const double x = coordinates[v * dim] - centre[0], y = coordinates[v * dim + 1] - centre[1],
                 z = dim == 3 ? coordinates[v * dim + 2] - centre[2] : 0.0;
    double* row[3];
    for (int r = 0; r < dim; ++r) row[r] = &B[(v * dim + r) * k];
    for (int r = 0; r < dim; ++r) row[r][r] = 1.0;  // translations
    if (dim == 2) {
      row[0][2] = -y;
      row[1][2] = x;
    } else {
      row[0][3] = -y;  // about z
      row[1][3] = x;
      row[1][4] = -z;  // about x
      row[2][4] = y;
      row[0][5] = z;   // about y
      row[2][5] = -x;
    }
  }
  NearNullspace ns;
  ns.B = Vector::from_vector(B, space, "rigid-body modes");
  ns.columns = k;
  ns.block_size = dim;
  ns.description = fmt::format("rigid-body modes ({} columns, {} unknowns per node)", k, dim);
  return ns;
}

NearNullspace user_nullspace(const std::vector<double>& values, std::int64_t rows, std::int64_t columns,
                             int block_size, Space space, const std::string& source) {
  SAGA_REQUIRE(columns >= 1 && columns <= 64, "{}: a near-nullspace of {} columns (expected 1 to 64)", source, columns);
  SAGA_REQUIRE(values.size() == static_cast<std::size_t>(rows * columns), "{}: {} values for {} x {}", source,
               values.size(), rows, columns);
  std::vector<double> column_norm(columns, 0.0);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t c = 0; c < columns; ++c) {
      const double x = values[static_cast<std::size_t>(i * columns + c)];
      if (!std::isfinite(x))
        throw InputError(fmt::format("{}: near-nullspace entry ({}, {}) is {} (rows and columns from 1)", source,
                                     i + 1, c + 1, x));
      column_norm[c] += x * x;
    }
  for (std::int64_t c = 0; c < columns; ++c)
    SAGA_REQUIRE(column_norm[c] > 0, "{}: near-nullspace column {} is zero everywhere", source, c + 1);
  NearNullspace ns;
  ns.B = Vector::from_vector(values, space, "near-nullspace");
  ns.columns = static_cast<int>(columns);
  ns.block_size = block_size;
  ns.description = fmt::format("{} ({} columns, {} unknowns per node)", source, columns, block_size);
  return ns;
}

void check_nullspace(const NearNullspace& ns, std::int64_t rows) {
  if (ns.B.empty()) {
    SAGA_REQUIRE(ns.columns == 1 && ns.block_size == 1,
                 "an empty near-nullspace means the constant vector: 1 column, blocks of 1 (got {} and {})",
                 ns.columns, ns.block_size);
    return;
  }
  SAGA_REQUIRE(ns.columns >= 1, "near-nullspace: {} columns", ns.columns);
  SAGA_REQUIRE(ns.block_size >= 1, "near-nullspace: block size {} (expected at least 1)", ns.block_size);
  SAGA_REQUIRE(ns.B.size() == static_cast<std::size_t>(rows) * static_cast<std::size_t>(ns.columns),
               "near-nullspace ({}) has {} values: the matrix has {} rows, so {} columns need {}", ns.description,
               ns.B.size(), rows, ns.columns, rows * ns.columns);
  SAGA_REQUIRE(rows % ns.block_size == 0,
               "near-nullspace ({}): the matrix's {} rows are not whole nodes of {} unknowns each", ns.description,
               rows, ns.block_size);
}

std::string NullspaceContext::resolve(const std::string& path) const { return resolve_config_path(directory, path); }

namespace {

class Constant final : public NullspaceSource {
 public:
  NearNullspace make(const NullspaceContext&) const override { return constant_nullspace(); }
};
struct ConstantComponent {
  static constexpr const char* name = "constant";
  static constexpr const char* summary = "the constant vector (scalar problems: Poisson, diffusion)";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    template <class V>
    void visit(V&) {}
  };
  static std::unique_ptr<NullspaceSource> make(const Params&) { return std::make_unique<Constant>(); }
};

struct FileParams {
  std::string path;
  int block_size = 1;
  template <class V>
  void visit(V& v) {
    v("path", path, "Matrix Market array file, n x k (relative to the config)");
    v("block_size", block_size, "unknowns per node, interleaved; aggregation keeps each node's together",
      in_range(1, 64));
  }
};
class FromFile final : public NullspaceSource {
 public:
  explicit FromFile(FileParams p) : p_(std::move(p)) {}
  NearNullspace make(const NullspaceContext& ctx) const override {
    const std::string path = ctx.resolve(p_.path);
    const DenseMatrix m = read_matrix_market_array(path);
    SAGA_REQUIRE(m.rows == ctx.rows, "{}: the near-nullspace has {} rows, the matrix {}", path, m.rows, ctx.rows);
    return user_nullspace(m.values, m.rows, m.cols, p_.block_size, ctx.space, path);
  }

 private:
  FileParams p_;
};
struct FileComponent {
  static constexpr const char* name = "file";
  static constexpr const char* summary = "a Matrix Market array (n x k) given by the user";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = FileParams;
  static void check(const Params& p) { SAGA_REQUIRE(!p.path.empty(), "path: the array file is required"); }
  static std::unique_ptr<NullspaceSource> make(const Params& p) { return std::make_unique<FromFile>(p); }
};

struct RigidParams {
  std::string coordinates;
  template <class V>
  void visit(V& v) {
    v("coordinates", coordinates,
      "Matrix Market array of node coordinates (nodes x 2 or 3, relative to the config); empty: the problem's mesh");
  }
};
class RigidBody final : public NullspaceSource {
 public:
  explicit RigidBody(RigidParams p) : p_(std::move(p)) {}
  NearNullspace make(const NullspaceContext& ctx) const override {
    std::vector<double> xyz = ctx.coordinates;
    int dim = ctx.dim;
    std::string where = "the problem's mesh";
    if (!p_.coordinates.empty()) {
      where = ctx.resolve(p_.coordinates);
      DenseMatrix m = read_matrix_market_array(where);
      SAGA_REQUIRE(m.cols == 2 || m.cols == 3, "{}: coordinates have {} columns (expected 2 or 3: x y [z] per node)",
                   where, m.cols);
      xyz = std::move(m.values);
      dim = static_cast<int>(m.cols);
    }
    if (xyz.empty())
      throw InputError("amg.nullspace: rigid_body needs node coordinates: this problem has no mesh, so give "
                       "'coordinates: FILE' (a Matrix Market array, nodes x 2 or 3)");
    const std::int64_t nodes = static_cast<std::int64_t>(xyz.size()) / dim;
    if (nodes * dim != ctx.rows)
      throw InputError(fmt::format("amg.nullspace: rigid_body: {} gives {} nodes of dimension {}, that is {} "
                                   "unknowns, but the matrix has {} rows (rigid-body modes need {} unknowns per "
                                   "node, interleaved: an elasticity-type problem)",
                                   where, nodes, dim, nodes * dim, ctx.rows, dim));
    return rigid_body_modes(xyz, dim, ctx.space);
  }

 private:
  RigidParams p_;
};
struct RigidComponent {
  static constexpr const char* name = "rigid_body";
  static constexpr const char* summary = "rigid-body modes from node coordinates (elasticity: 3 in 2D, 6 in 3D)";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = RigidParams;
  static std::unique_ptr<NullspaceSource> make(const Params& p) { return std::make_unique<RigidBody>(p); }
};

}  // namespace

const NullspaceRegistry& nullspace_sources() {
  static const NullspaceRegistry r = [] {
    NullspaceRegistry reg("near-nullspace", "amg.nullspace");
    reg.add<ConstantComponent>().add<FileComponent>().add<RigidComponent>();
    reg.set_default("constant");
    return reg;
  }();
  return r;
}

}  // namespace saga
