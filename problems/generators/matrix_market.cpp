// A matrix read from a Matrix Market file (path relative to the config).
#include "problems/problem.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/symmetry.hpp"

namespace saga {

namespace {
class MatrixMarketGenerator final : public ProblemGenerator {
 public:
  explicit MatrixMarketGenerator(std::string path) : path_(std::move(path)) {}
  GeneratedMatrix generate(Space space) const override {
    CsrMatrix A = read_matrix_market(path_);
    SAGA_REQUIRE(A.rows() == A.cols(), "{}: matrix is {}x{}, not square", path_, A.rows(), A.cols());
    GeneratedMatrix g{A.to(space), fmt::format("matrix_market {}", path_)};
    const SymmetryReport s = check_symmetry(A);  // on the host copy, before it moves
    if (!s.symmetric) g.asymmetry = s.describe();
    return g;
  }

 private:
  std::string path_;
};

struct MatrixMarket {
  static constexpr const char* name = "matrix_market";
  static constexpr const char* summary = "a square matrix from a Matrix Market file";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  struct Params {
    std::string matrix;
    template <class V>
    void visit(V& v) {
      v("matrix", matrix, "path of the .mtx file (relative to the config)");
    }
  };
  static void check(const Params& p) {
    SAGA_REQUIRE(!p.matrix.empty(), "problem.matrix: a Matrix Market path is required for type matrix_market");
  }
  static std::unique_ptr<ProblemGenerator> make(const Params& p, const ProblemContext& ctx) {
    return std::make_unique<MatrixMarketGenerator>(ctx.resolve(p.matrix));
  }
};
}  // namespace

void add_matrix_market_problem(ProblemRegistry& r) { r.add<MatrixMarket>(); }

}  // namespace saga
