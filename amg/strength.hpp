#pragma once
// Strength of connection, behind the strength registry (amg.strength): a
// measure turns A and the threshold theta (amg.theta, per level) into the
// strength graph S that aggregation reads.
//   symmetric (default): S keeps a_ij when i == j or
//   |a_ij| >= theta * sqrt(|a_ii a_jj|), with A's values.
#include <memory>

#include "core/registry.hpp"
#include "sparse/csr.hpp"

namespace saga::amg {

// Where every entry is strong (Poisson at theta 0.08, any matrix at theta 0)
// S is A itself: a view of A's arrays, no copy (on 3D 27-point a copy was the
// largest array of level 0's aggregation, 324 B per unknown). A must then
// outlive S unchanged.
CsrMatrix symmetric_strength(const CsrMatrix& A, const Vector& diag, double theta);

namespace cuda {
// One pass of the same filter with a warp per row (ballot compaction keeps
// the order): rows of 9 and more entries, where a thread per row reads A
// uncoalesced. Counts (out_rp null) or fills, as amg_functors::StrengthRows.
void symmetric_strength_warp_rows_pass(const CsrMatrix& A, const Vector& diag, double theta, offset_t* count,
                                       const offset_t* out_rp, index_t* out_col, double* out_val);
}  // namespace cuda

class StrengthMeasure {
 public:
  virtual ~StrengthMeasure() = default;
  // S may share A's arrays (symmetric_strength): keep A alive and unchanged
  // while S is used.
  virtual CsrMatrix strong(const CsrMatrix& A, double theta) const = 0;
};
using StrengthRegistry = Registry<StrengthMeasure>;
const StrengthRegistry& strength_measures();

}  // namespace saga::amg
