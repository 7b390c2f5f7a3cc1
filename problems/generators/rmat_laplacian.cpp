// The graph Laplacian of an R-MAT power-law graph plus a diagonal shift
// (problems/rmat.hpp): SPD with power-law row lengths, the irregular case of
// the binned SpMV and SpGEMM. AMG on it converges slower than on a PDE.
#include "problems/problem.hpp"
#include "problems/rmat.hpp"

namespace saga {

namespace {
class RmatLaplacianGenerator final : public ProblemGenerator {
 public:
  RmatLaplacianGenerator(RmatParams p, double shift) : p_(p), shift_(shift) {}
  GeneratedMatrix generate(Space space) const override {
    return {rmat_laplacian(p_, shift_, space),
            fmt::format("R-MAT graph Laplacian, 2^{} vertices, {} edges per vertex, shift {}", p_.scale, p_.edges,
                        shift_)};
  }

 private:
  RmatParams p_;
  double shift_;
};

struct RmatLaplacian {
  static constexpr const char* name = "rmat_laplacian";
  static constexpr const char* summary = "graph Laplacian of an R-MAT power-law graph + shift * I (SPD)";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    int scale = 16;
    int edges = 16;
    double shift = 1.0;
    int seed = 1;
    template <class V>
    void visit(V& v) {
      v("scale", scale, "2^scale vertices", in_range(1, 26));
      v("edges", edges, "edges drawn per vertex", in_range(1, 256));
      v("shift", shift, "added to the diagonal (> 0: positive definite)", positive());
      v("seed", seed, "generator seed", at_least(0));
    }
  };
  static std::unique_ptr<ProblemGenerator> make(const Params& p, const ProblemContext&) {
    RmatParams r;
    r.scale = p.scale;
    r.edges = p.edges;
    r.seed = static_cast<std::uint64_t>(p.seed);
    return std::make_unique<RmatLaplacianGenerator>(r, p.shift);
  }
};
}  // namespace

void add_rmat_laplacian_problem(ProblemRegistry& r) { r.add<RmatLaplacian>(); }

}  // namespace saga
