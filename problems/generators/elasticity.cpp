// Linear elasticity with P1 elements (problems/elasticity.hpp): a generated
// bar (3D) or plate (2D) clamped at x = 0, or a Gmsh mesh (.msh, or .geo meshed
// by gmsh) clamped on named physical groups. dim unknowns per node, with the
// node coordinates kept for amg.nullspace: rigid_body.
#include <cmath>

#include "problems/elasticity.hpp"
#include "problems/gmsh_geo.hpp"
#include "problems/mesh_generate.hpp"
#include "problems/problem.hpp"

namespace saga {

namespace {
struct ElasticityParams {
  std::string mesh = "bar";
  index_t cells = 4;
  double length = 4;
  double perturbation = 0.1;
  double young = 1.0;
  double poisson_ratio = 0.3;
  double h = 0.1;
  double max_vertices = 2e7;
  StringList clamped;
  template <class V>
  void visit(V& v) {
    v("mesh", mesh, "bar (3D), plate (2D) — generated, clamped at x = 0 — or a .msh / .geo path (relative to the "
                    "config)");
    v("cells", cells, "generated meshes: cells across the section", at_least(2));
    v("length", length, "generated meshes: length along x, in section widths (cells along x = length x cells)",
      in_range(0.5, 1e4));
    v("perturbation", perturbation, "generated meshes: vertex perturbation, a fraction of h", in_range(0, 0.5, false, true));
    v("young", young, "Young's modulus E", positive());
    v("poisson_ratio", poisson_ratio, "Poisson's ratio nu", in_range(-1, 0.5, true, true));
    v("h", h, ".geo meshes: element size passed to gmsh", positive());
    v("max_vertices", max_vertices,
      ".geo meshes: refuse to mesh when the estimate (bounding box at spacing h) exceeds this", positive());
    v("clamped", clamped, "Gmsh meshes: physical groups where u = 0 (required; generated meshes clamp x = 0)");
  }
  bool generated() const { return mesh == "bar" || mesh == "plate"; }
};

class ElasticityGenerator final : public ProblemGenerator {
 public:
  ElasticityGenerator(ElasticityParams p, std::string path, std::uint64_t seed)
      : p_(std::move(p)), path_(std::move(path)), seed_(seed) {}
  GeneratedMatrix generate(Space space) const override {
    Mesh m;
    std::string d;
    if (p_.generated()) {
      const int dim = p_.mesh == "bar" ? 3 : 2;
      const index_t along = static_cast<index_t>(std::lround(p_.length * p_.cells));
      SAGA_REQUIRE(along >= 2, "length {} x cells {} gives fewer than 2 cells along x", p_.length, p_.cells);
      const index_t cells[3] = {along, p_.cells, p_.cells};
      const double size[3] = {static_cast<double>(along) / p_.cells, 1.0, 1.0};
      m = simplex_box_mesh(dim, cells, size, p_.perturbation, seed_);
      // Clamp the face x = 0 (those vertices are not perturbed: x is exactly 0).
      for (index_t v = 0; v < m.vertices(); ++v) m.dirichlet[v] = m.coords[static_cast<std::size_t>(v) * dim] == 0.0;
      d = dim == 3 ? fmt::format("bar {:g} x 1 x 1 ({} x {} x {} cells)", size[0], along, p_.cells, p_.cells)
                   : fmt::format("plate {:g} x 1 ({} x {} cells)", size[0], along, p_.cells);
      d += fmt::format(", clamped at x = 0, perturbation {}", p_.perturbation);
    } else {
      m = read_mesh_file(path_, p_.h, p_.max_vertices, &d);
      mark_group_dirichlet(m, p_.clamped);
      d += ", clamped on " + join_names(p_.clamped);
    }
    const ElasticityMaterial material{p_.young, p_.poisson_ratio};
    ElasticSystem s = assemble_elasticity(m, material, space);
    GeneratedMatrix g;
    g.A = std::move(s.A);
    g.description = fmt::format("P1 linear elasticity (E = {}, nu = {}) on a {}, {} {}", p_.young, p_.poisson_ratio,
                                d, m.cell_count(), m.dim == 2 ? "triangles" : "tetrahedra");
    g.coordinates = std::move(s.coordinates);
    g.dim = m.dim;
    return g;
  }

 private:
  ElasticityParams p_;
  std::string path_;
  std::uint64_t seed_;
};

struct Elasticity {
  static constexpr const char* name = "elasticity";
  static constexpr const char* summary = "P1 linear elasticity (bar, plate, Gmsh meshes); rigid-body near-nullspace";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = ElasticityParams;
  static void check(const Params& p) {
    if (!p.generated()) {
      require_mesh_file_name(p.mesh, "bar, plate");
      SAGA_REQUIRE(!p.clamped.empty(), "clamped: a Gmsh mesh needs the physical groups where u = 0");
    } else {
      SAGA_REQUIRE(p.clamped.empty(), "clamped: generated meshes are clamped at x = 0 (no physical groups)");
    }
  }
  static std::unique_ptr<ProblemGenerator> make(const Params& p, const ProblemContext& ctx) {
    return std::make_unique<ElasticityGenerator>(p, p.generated() ? p.mesh : ctx.resolve(p.mesh), ctx.seed);
  }
};
}  // namespace

void add_elasticity_problem(ProblemRegistry& r) { r.add<Elasticity>(); }

}  // namespace saga
