#pragma once
// Jacobi-smoothed prolongator P = (I - omega D^-1 A) T = T - omega D^-1 (A T).
// The caller forms A·T with the SpGEMM (so that its time is measured as its own
// phase) and passes it here for the update.
#include "sparse/csr.hpp"

namespace saga::amg {
CsrMatrix jacobi_smooth_update(const CsrMatrix& T, CsrMatrix AT, const Vector& dinv, double omega);
}
