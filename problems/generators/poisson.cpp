// Structured Poisson problems on the unit square / cube (the problems of
// docs/problems.md): 2D 5-point and 9-point (Q1), 3D 7-point and 27-point
// (Q1), with the anisotropy and jumping-coefficient variants.
#include "problems/generators/variant_params.hpp"
#include "problems/problem.hpp"
#include "problems/structured.hpp"

namespace saga {

namespace {
class PoissonGenerator final : public ProblemGenerator {
 public:
  PoissonGenerator(StencilSpec spec, index_t N, std::string description)
      : spec_(spec), N_(N), description_(std::move(description)) {}
  GeneratedMatrix generate(Space space) const override { return {poisson(spec_, N_, space), description_}; }

 private:
  StencilSpec spec_;
  index_t N_;
  std::string description_;
};

struct Poisson {
  static constexpr const char* name = "poisson";
  static constexpr const char* summary = "structured Poisson: 2d5, 2d9, 3d7, 3d27 stencils, anisotropy, jumps";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    std::string stencil = "3d7";
    index_t N = 64;
    std::string boundary = "dirichlet";
    VariantParams variant;
    template <class V>
    void visit(V& v) {
      v("stencil", stencil, "stencil", one_of({"2d5", "2d9", "3d7", "3d27"}));
      v("N", N, "grid points per direction", at_least(1));
      v("boundary", boundary,
        "dirichlet (u = 0 outside the grid) or neumann (no flux: rows sum to zero, singular with the constants as "
        "null space; the right-hand side must sum to zero, as random_solution's does)",
        one_of({"dirichlet", "neumann"}));
      variant.visit(v);
    }
  };
  static void check(const Params& p) {
    SAGA_REQUIRE(p.variant.coefficient != "groups", "coefficient type groups needs an fe problem on a mesh");
    SAGA_REQUIRE(p.boundary != "neumann" || p.N >= 2, "a Neumann problem needs N >= 2 (a 1-point grid has no "
                 "connection: its matrix is zero)");
    spec(p);
  }
  static StencilSpec spec(const Params& p) {
    return make_stencil_spec(parse_stencil(p.stencil), p.variant.anisotropy(), p.variant.field(),
                             p.boundary == "neumann");
  }
  static std::unique_ptr<ProblemGenerator> make(const Params& p, const ProblemContext&) {
    const Stencil s = parse_stencil(p.stencil);
    return std::make_unique<PoissonGenerator>(spec(p), p.N,
                                              fmt::format("poisson {} N={}{}{}", stencil_name(s), p.N,
                                                          p.boundary == "neumann" ? ", Neumann boundary" : "",
                                                          p.variant.describe()));
  }
};
}  // namespace

void add_poisson_problem(ProblemRegistry& r) { r.add<Poisson>(); }

}  // namespace saga
