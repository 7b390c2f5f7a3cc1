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

CsrMatrix symmetric_strength(const CsrMatrix& A, const Vector& diag, double theta);

namespace cuda {
// The same filter with a warp per row (ballot compaction keeps the order):
// rows of 9 and more entries, where a thread per row reads A uncoalesced.
CsrMatrix symmetric_strength_warp_rows(const CsrMatrix& A, const Vector& diag, double theta);
}  // namespace cuda

class StrengthMeasure {
 public:
  virtual ~StrengthMeasure() = default;
  virtual CsrMatrix strong(const CsrMatrix& A, double theta) const = 0;
};
using StrengthRegistry = Registry<StrengthMeasure>;
const StrengthRegistry& strength_measures();

}  // namespace saga::amg
