#pragma once
// Search in a sorted run of column indices, shared by the CSR and DCSR
// functors (host and device).
#include "core/hd.hpp"
#include "core/types.hpp"

namespace saga {

// The first position in [lo, hi) whose column is >= c (hi if none): a binary
// search of a sorted row.
SAGA_HD inline offset_t first_column_at_least(const index_t* ci, offset_t lo, offset_t hi, index_t c) {
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (ci[mid] < c)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace saga
