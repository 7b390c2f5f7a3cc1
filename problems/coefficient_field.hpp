#pragma once
// Piecewise-constant coefficient fields kappa(x) for the "jumping coefficient"
// variants of the Poisson problems, -div(kappa grad u) = f. The unit cube
// [0,1]^d is cut into `blocks` blocks per direction; kappa is constant on each:
//   checkerboard: 1 on even blocks, `contrast` on odd ones;
//   random:       contrast^u with u uniform in [0,1) per block (seeded hash),
//                 i.e. log-uniform between 1 and `contrast`.
// Shared by the structured generators (kappa at grid nodes) and the FE
// assembly (kappa at cell centroids), on either backend (SAGA_HD).
#include <cmath>
#include <cstdint>

#include "core/hd.hpp"

namespace saga {

struct CoefficientField {
  enum class Kind : int { constant, checkerboard, random };
  Kind kind = Kind::constant;
  double contrast = 1.0;
  int blocks = 1;
  std::uint64_t seed = 0;

  SAGA_HD bool is_constant() const { return kind == Kind::constant || contrast == 1.0; }

  // kappa at a point of the unit cube (coordinates outside are clamped).
  SAGA_HD double at(double x, double y, double z) const {
    if (kind == Kind::constant) return 1.0;
    const int bx = block(x), by = block(y), bz = block(z);
    if (kind == Kind::checkerboard) return ((bx + by + bz) & 1) ? contrast : 1.0;
    std::uint64_t h = seed ^ (0x9E3779B97F4A7C15ull * (1u + static_cast<std::uint64_t>(bx) +
                                                       977u * static_cast<std::uint64_t>(by) +
                                                       977u * 977u * static_cast<std::uint64_t>(bz)));
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    const double u = static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
    return pow(contrast, u);
  }

 private:
  SAGA_HD int block(double t) const {
    int b = static_cast<int>(floor(t * blocks));
    return b < 0 ? 0 : (b >= blocks ? blocks - 1 : b);
  }
};

// Anisotropy of the diffusion tensor: K = R diag(epsilon, 1, 1) R^T with R the
// rotation by `angle_degrees` about the z axis, i.e. -eps u_xx - u_yy (- u_zz)
// rotated in the xy plane.
struct Anisotropy {
  double epsilon = 1.0;
  double angle_degrees = 0.0;
  bool is_isotropic() const { return epsilon == 1.0; }
  // The 3x3 tensor, row-major.
  void tensor(double K[9]) const {
    const double t = angle_degrees * 3.14159265358979323846 / 180.0, c = std::cos(t), s = std::sin(t);
    K[0] = epsilon * c * c + s * s;
    K[1] = K[3] = (epsilon - 1.0) * c * s;
    K[4] = epsilon * s * s + c * c;
    K[2] = K[5] = K[6] = K[7] = 0.0;
    K[8] = 1.0;
  }
};

}  // namespace saga
