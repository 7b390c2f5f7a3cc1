// P1 finite elements on triangles and tetrahedra: generated unit square / cube
// meshes (perturbed), Gmsh .msh files, or .geo geometries meshed by gmsh;
// Dirichlet on the whole boundary or on named physical groups; kappa from the
// coefficient field or per physical group, times the anisotropy tensor.

#include "problems/fe_assembly.hpp"
#include "problems/generators/variant_params.hpp"
#include "problems/gmsh_geo.hpp"
#include "problems/mesh_generate.hpp"
#include "problems/problem.hpp"

namespace saga {

namespace {
struct FeParams {
  std::string mesh = "square";
  index_t cells = 64;
  double perturbation = 0.2;
  double h = 0.05;
  double max_vertices = 2e7;
  StringList dirichlet;
  NumberMap groups;
  VariantParams variant;
  template <class V>
  void visit(V& v) {
    v("mesh", mesh, "square, box (generated) or a .msh / .geo path (relative to the config)");
    v("cells", cells, "generated meshes: cells per direction", at_least(2));
    v("perturbation", perturbation, "generated meshes: vertex perturbation, a fraction of h", in_range(0, 0.5, false, true));
    v("h", h, ".geo meshes: element size passed to gmsh", positive());
    v("max_vertices", max_vertices,
      ".geo meshes: refuse to mesh when the estimate (bounding box at spacing h) exceeds this", positive());
    v("dirichlet", dirichlet, "physical groups with u = 0 (empty or 'boundary': the whole boundary)");
    v("coefficient.groups", groups, "kappa per physical group of cells (coefficient.type groups)", positive());
    variant.visit(v);
  }
  bool generated() const { return mesh == "square" || mesh == "box"; }
  bool whole_boundary() const { return dirichlet.empty() || (dirichlet.size() == 1 && dirichlet[0] == "boundary"); }
};

class FeGenerator final : public ProblemGenerator {
 public:
  FeGenerator(FeParams p, std::string mesh_path, std::uint64_t seed)
      : p_(std::move(p)), path_(std::move(mesh_path)), seed_(seed) {}
  GeneratedMatrix generate(Space space) const override {
    Mesh m;
    std::string d;
    if (p_.generated()) {
      m = unit_simplex_mesh(p_.mesh == "square" ? 2 : 3, p_.cells, p_.perturbation, seed_);
      d = fmt::format("P1 FE on the unit {} ({} cells per side, perturbation {})", p_.mesh, p_.cells, p_.perturbation);
    } else {
      std::string file;
      m = read_mesh_file(path_, p_.h, p_.max_vertices, &file);
      d = "P1 FE on " + file;
      if (p_.whole_boundary())
        mark_boundary_dirichlet(m);
      else
        mark_group_dirichlet(m, p_.dirichlet);
    }
    d += fmt::format(", {} {}{}", m.cell_count(), m.dim == 2 ? "triangles" : "tetrahedra", p_.variant.describe());
    for (const auto& [g, v] : p_.groups) d += fmt::format(", kappa({})={}", g, v);
    FeCoefficients k{p_.variant.anisotropy(), p_.variant.field(), std::map<std::string, double>(p_.groups)};
    return {assemble_p1(m, k, space).A, d};
  }

 private:
  FeParams p_;
  std::string path_;
  std::uint64_t seed_;
};

struct Fe {
  static constexpr const char* name = "fe";
  static constexpr const char* summary = "P1 finite elements on generated or Gmsh meshes";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = FeParams;
  static void check(const Params& p) {
    if (!p.generated()) require_mesh_file_name(p.mesh, "square, box");
    SAGA_REQUIRE(p.whole_boundary() || !p.generated(),
                 "dirichlet: generated meshes have no physical groups (their whole boundary is Dirichlet)");
    SAGA_REQUIRE((p.variant.coefficient == "groups") == !p.groups.empty(),
                 "coefficient: type groups needs a 'groups' map of physical group to value, and groups need type "
                 "groups");
  }
  static std::unique_ptr<ProblemGenerator> make(const Params& p, const ProblemContext& ctx) {
    return std::make_unique<FeGenerator>(p, p.generated() ? p.mesh : ctx.resolve(p.mesh), ctx.seed);
  }
};
}  // namespace

void add_fe_problem(ProblemRegistry& r) { r.add<Fe>(); }

}  // namespace saga
