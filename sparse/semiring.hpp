#pragma once
// The (⊕, ⊗) pairs of sparse/spmspv.hpp as per-element operations both
// backends share, so that the host oracle and the CUDA kernels combine values
// with the same code.
#include "core/hd.hpp"
#include "sparse/spmspv.hpp"

namespace saga::semiring {

template <Semiring S>
struct Ops;

template <>
struct Ops<Semiring::plus_times> {
  static SAGA_HD double times(double a, double x) { return a * x; }
  static SAGA_HD double plus(double u, double v) { return u + v; }
};
template <>
struct Ops<Semiring::min_plus> {
  static SAGA_HD double times(double a, double x) { return a + x; }
  static SAGA_HD double plus(double u, double v) { return v < u ? v : u; }
};
template <>
struct Ops<Semiring::max_times> {
  static SAGA_HD double times(double a, double x) { return a * x; }
  static SAGA_HD double plus(double u, double v) { return v > u ? v : u; }
};
// Structural: values are not formed at all (the callers skip them).
template <>
struct Ops<Semiring::or_and> {
  static SAGA_HD double times(double, double) { return 1.0; }
  static SAGA_HD double plus(double, double) { return 1.0; }
};

// Whether ⊕ is exact and independent of the order of its operands (min, max,
// or): what an atomic accumulation needs to stay deterministic.
constexpr bool order_free(Semiring s) { return s != Semiring::plus_times; }

}  // namespace saga::semiring
