#pragma once
// The vector updates of conjugate gradients fused into single passes, with
// every scalar (r^T z, q^T A q, alpha, beta, ||r||) read and written in a
// Scalars buffer where the vectors live: a CG iteration on the GPU needs no
// host round trip, so it can be captured as a CUDA graph and replayed, and the
// host reads the residual history only when it checks convergence.
//
// One iteration (solver/krylov/conjugate_gradient.cpp), rotated so that the
// residual check comes right after the update of r:
//   z = M r;  s[rz] = r.z;  (flexible: s[zAq] = z.Aq)
//   cg_direction:  q = z + beta q
//   s[qAq] = q.Aq with Aq = A q (one fused SpMV)
//   cg_step:  x += alpha q;  r -= alpha Aq;  history[s[count]++] = ||r||
#include "sparse/array.hpp"
#include "sparse/scalars.hpp"

namespace saga {

// Where each scalar lives in the Scalars buffer; the residual history follows
// from cg_slot::history on (entry 0: the initial residual, set by the caller).
namespace cg_slot {
enum : int {
  rz,         // r^T z of this iteration
  rz_old,     // r^T z of the previous iteration
  qAq,        // q^T A q
  zAq,        // z^T A q_old (flexible CG)
  count,      // entries in the history (1 + iterations done)
  status,     // 0: running; 1: breakdown (q^T A q <= 0 or not finite); 2: stopped (below); the updates stop
  bnorm,      // ||b||, and
  tolerance,  // the tolerance on ||r|| / ||b||: where it is > 0, an update whose ||r|| / ||b|| is at most it
              // or not finite (the host's test, Run::record, in the same arithmetic) sets status 2, so
              // iterations launched past it change nothing (the host may check every few iterations)
  history     // first entry of ||r||: history[0], history[1], ...
};
}

// beta = 0 on the first iteration (s[count] == 1), else s[rz]/s[rz_old]
// (flexible: -s[zAq]/s[qAq]); q = z + beta q (q's old contents are ignored when
// beta = 0).
void cg_direction(Scalars& s, const Vector& z, Vector& q, bool flexible);
// Unless s[status] is set: when s[qAq] > 0, alpha = s[rz]/s[qAq],
// x += alpha q, r -= alpha Aq, s[rz_old] = s[rz], history[s[count]++] = ||r||,
// and s[status] = 2 where s[tolerance] > 0 and ||r|| / s[bnorm] is at most
// s[tolerance] or not finite; otherwise s[status] = 1 and nothing changes.
void cg_step(Scalars& s, const Vector& q, const Vector& Aq, Vector& x, Vector& r);

}  // namespace saga
