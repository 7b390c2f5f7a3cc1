#pragma once
// The vector updates of a Lanczos iteration with its scalars (alpha_j, beta_j)
// kept in a Scalars buffer where the vectors live, so that the estimate of
// rho(D^-1 A) (amg/spectral_radius.cpp) queues its steps without waiting for
// the host and reads the tridiagonal matrix once at the end.
#include "sparse/array.hpp"
#include "sparse/scalars.hpp"

namespace saga {

// w <- d .* w - s[alpha] v - s[beta_prev] v_prev (the last term only when
// beta_prev >= 0), and s[beta] = ||w|| (deterministic blocked sum).
void lanczos_orthogonalize(Scalars& s, int alpha, int beta_prev, int beta, const Vector& d, const Vector& v,
                           const Vector& v_prev, Vector& w);
// v = w / s[beta].
void lanczos_normalize(const Scalars& s, int beta, const Vector& w, Vector& v);

}  // namespace saga
