#pragma once
// The anisotropy and jumping-coefficient keys shared by the poisson and fe
// generators (problem.anisotropy.*, problem.coefficient.*), declared once.
#include <string>

#include "core/parameters.hpp"
#include "problems/coefficient_field.hpp"

namespace saga {

struct VariantParams {
  double epsilon = 1.0, angle = 0.0;
  std::string coefficient = "constant";
  double contrast = 1.0;
  int blocks = 1;
  std::int64_t coefficient_seed = 0;

  template <class V>
  void visit(V& v) {
    v("anisotropy.epsilon", epsilon, "anisotropy: -eps u_xx - u_yy (- u_zz)", positive());
    v("anisotropy.angle", angle, "rotation of the anisotropy in the xy plane (degrees)");
    v("coefficient.type", coefficient, "jumping coefficient field",
      one_of({"constant", "checkerboard", "random", "groups"}));
    v("coefficient.contrast", contrast,
      "kappa ratio between blocks (within 1e-100 .. 1e100: beyond, the assembled entries and the products of the "
      "setup overflow double precision)",
      in_range(1e-100, 1e100));
    v("coefficient.blocks", blocks, "blocks per direction", at_least(1));
    v("coefficient.seed", coefficient_seed, "seed of the random field", at_least(0));
  }
  Anisotropy anisotropy() const { return {epsilon, angle}; }
  CoefficientField field() const {
    CoefficientField f;
    f.kind = coefficient == "checkerboard" ? CoefficientField::Kind::checkerboard
             : coefficient == "random"     ? CoefficientField::Kind::random
                                           : CoefficientField::Kind::constant;
    f.contrast = contrast;
    f.blocks = blocks;
    f.seed = static_cast<std::uint64_t>(coefficient_seed);
    return f;
  }
  // ", anisotropy eps=.. angle=.., checkerboard coefficient contrast=.. blocks=.."
  std::string describe() const;
};

}  // namespace saga
