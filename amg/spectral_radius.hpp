#pragma once
// Estimate of rho(D^-1 A) for SPD A: Lanczos on the similar symmetric matrix
// D^-1/2 A D^-1/2 from a fixed pseudo-random start; returns the largest Ritz
// value (a slight underestimate, as in PyAMG). The steps keep their scalars on
// the device: one host wait per estimate, not two per step.
#include "sparse/csr.hpp"

namespace saga::amg {
double spectral_radius_dinv_a(const CsrMatrix& A, const Vector& dinv, int iterations);
}
