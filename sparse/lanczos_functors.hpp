#pragma once
// The start of the rho(D^-1 A) estimate (lanczos_steps_dinv, sparse/lanczos_ops.hpp):
// one functor, so that the host, the GPU's composed path and the GPU's
// cooperative kernel make the same values bit for bit.
#include <cmath>
#include <cstdint>

#include "sparse/csr_ops_functors.hpp"

namespace saga::functors {

// d = sqrt(dinv), and v = 2u - 1 with u as RandomUniform draws it at `seed`:
// uniform in [-1, 1), exactly.
struct LanczosStartValues {
  const double* dinv;
  double* d;
  double* v;
  std::uint64_t seed;
  SAGA_HD void operator()(std::int64_t i) const {
    d[i] = sqrt(dinv[i]);
    RandomUniform{v, seed}(i);
    v[i] = 2.0 * v[i] - 1.0;
  }
};

}  // namespace saga::functors
