#pragma once
// The vector updates of a Lanczos iteration with its scalars (alpha_j, beta_j)
// kept in a Scalars buffer where the vectors live, so that the estimate of
// rho(D^-1 A) (amg/spectral_radius.cpp) queues its steps without waiting for
// the host and reads the tridiagonal matrix once at the end.
#include "sparse/array.hpp"
#include "sparse/csr.hpp"
#include "sparse/scalars.hpp"

namespace saga {

// w <- d .* w - s[alpha] v - s[beta_prev] v_prev (the last term only when
// beta_prev >= 0), and s[beta] = ||w|| (deterministic blocked sum).
void lanczos_orthogonalize(Scalars& s, int alpha, int beta_prev, int beta, const Vector& d, const Vector& v,
                           const Vector& v_prev, Vector& w);
// v = w / s[beta].
void lanczos_normalize(const Scalars& s, int beta, const Vector& w, Vector& v);

// m steps of Lanczos on M = diag(d) A diag(d) (d = D^-1/2 for rho(D^-1 A))
// from the unit vector v (or, with `normalise`, from v / ||v|| for any
// nonzero v: the GPU's kernel scales it itself, no host read): alpha_j =
// v_j^T M v_j into s[j], beta_{j+1} into s[m + j], for j < m (s holds at
// least 2m); v's contents are consumed. Each
// step: w = A (d .* v_j) with alpha_j fused, w <- d .* w - alpha_j v_j -
// beta_j v_{j-1} with ||w||, v_{j+1} = w / beta_{j+1}. The host composes the
// operations above; the GPU runs all m steps in one cooperative kernel (grid
// barriers between the phases, each block summing the per-block partials in
// the same fixed order: no launch or host wait per step, the same arithmetic
// up to the order of the sums), or composes them where cooperative launches
// are not available or the binned product is faster (rows of more than 12
// entries on matrices of more than 8M entries).
void lanczos_steps(const CsrMatrix& A, const Vector& d, int m, Vector& v, Scalars& s, bool normalise = false);
// The rho(D^-1 A) estimate's m steps: d = D^-1/2 from dinv and the start
// vector 2u - 1 (u = random_vector(n, seed)), normalised — as lanczos_steps(A,
// sqrt(dinv), m, 2u - 1, s, true), with the same scalars bit for bit; on the
// GPU the square roots and the start vector are made inside the steps' kernel
// (no launches or copies of their own; both in one allocation either way).
void lanczos_steps_dinv(const CsrMatrix& A, const Vector& dinv, int m, std::uint64_t seed, Scalars& s);

}  // namespace saga
