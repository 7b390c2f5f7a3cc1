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
#include <cmath>
#include <cstddef>

#include "core/hd.hpp"
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

// What both backends' cg_direction and cg_step decide on the scalars S (size
// entries), written once so that the device stops exactly where the host's
// test would.
// The direction's beta: 0 on the first iteration, else rz / rz_old (flexible:
// -zAq / qAq).
SAGA_HD inline double cg_beta(const double* S, bool flexible) {
  if (S[cg_slot::count] == 1.0) return 0.0;
  return flexible ? -S[cg_slot::zAq] / S[cg_slot::qAq] : S[cg_slot::rz] / S[cg_slot::rz_old];
}
// Whether the update may run: nothing stopped it and q^T A q is positive and finite.
SAGA_HD inline bool cg_step_allowed(const double* S) {
  using std::isfinite;  // the host's; CUDA's own overload in device code
  const double qAq = S[cg_slot::qAq];
  return S[cg_slot::status] == 0.0 && qAq > 0.0 && isfinite(qAq);
}
// The start of the update's bookkeeping, once ||r|| is to be recorded: false
// where an earlier stop left everything as it was, or where q^T A q broke down
// (then status = 1); true where the update ran and cg_record_step follows.
SAGA_HD inline bool cg_update_ran(double* S) {
  if (S[cg_slot::status] != 0.0) return false;  // stopped before this update: nothing changed
  if (!cg_step_allowed(S)) {
    S[cg_slot::status] = 1.0;
    return false;
  }
  return true;
}
// After an update that ran, with rn = ||r||: rz_old = rz, history[count++] =
// rn (while the history has room), and status 2 where the tolerance is set and
// rn / ||b|| is at most it or not finite: Run::record's test
// (solver/krylov/common.cpp) in the same IEEE operations.
SAGA_HD inline void cg_record_step(double* S, std::size_t size, double rn) {
  using std::isfinite;
  S[cg_slot::rz_old] = S[cg_slot::rz];
  const std::size_t at = cg_slot::history + static_cast<std::size_t>(S[cg_slot::count]);
  if (at >= size) return;
  S[at] = rn;
  S[cg_slot::count] += 1.0;
  if (S[cg_slot::tolerance] > 0.0) {
    const double rel = rn / S[cg_slot::bnorm];
    if (!isfinite(rel) || rel <= S[cg_slot::tolerance]) S[cg_slot::status] = 2.0;
  }
}

}  // namespace saga
