#pragma once
// The per-element work of the dense-output structural SpMSpV (spmspv_mark,
// sparse/spmspv.hpp), shared by both backends through parallel_for.
#include <cstdint>

#include "core/hd.hpp"
#include "core/types.hpp"

namespace saga::functors {

// Several threads may store the same value into one element: a relaxed atomic
// store on the host (a plain concurrent store is a data race in C++), a plain
// one on the device (same-value stores are well defined there).
SAGA_HD inline void store_same_value(std::int32_t* p, std::int32_t v) {
#ifdef __CUDA_ARCH__
  *p = v;
#else
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

// stamp[j] = tag for every column j of row rows[k] (and for the row itself
// when rows_too); one thread per listed row.
struct MarkRowColumns {
  const offset_t* rp;
  const index_t* ci;
  const index_t* rows;
  std::int32_t tag;
  bool rows_too;
  std::int32_t* stamp;
  SAGA_HD void operator()(std::int64_t k) const {
    const index_t i = rows[k];
    if (rows_too) store_same_value(stamp + i, tag);
    for (offset_t h = rp[i]; h < rp[i + 1]; ++h) store_same_value(stamp + ci[h], tag);
  }
};

}  // namespace saga::functors
