#pragma once
// Dense vector operations for Krylov solvers and smoothers, on the space the
// vectors live in. Reductions (dot, norm2) are deterministic: a fixed blocking
// and a fixed summation order, independent of the thread count.
#include <cstdint>

#include "sparse/array.hpp"
#include "sparse/scalars.hpp"

namespace saga {

void fill(Vector& x, double value);
void copy(const Vector& x, Vector& y);                       // y = x
void axpby(double a, const Vector& x, double b, Vector& y);  // y = a x + b y
void scale(double a, Vector& x);                             // x = a x
void multiply(const Vector& x, const Vector& y, Vector& z, double a = 1.0);  // z = a (x .* y)
// y = y + a * (d .* r): the damped-Jacobi update, one pass.
void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y);
// r = w .* (b - y): a scaled residual (y = A x), one pass.
void scaled_difference(const Vector& w, const Vector& b, const Vector& y, Vector& r);
// d = a r + b d, then x = c x + d: a Krylov/Chebyshev step, one pass. b = 0
// (c = 0) ignores the old contents of d (x).
void step_update(double a, const Vector& r, double b, Vector& d, double c, Vector& x);
double dot(const Vector& x, const Vector& y);
double norm2(const Vector& x);
// s[slot] = x . y, computed and kept where the vectors live (no host round trip
// on the GPU); the same summation order as dot().
void dot_into(const Vector& x, const Vector& y, Scalars& s, int slot);
// True when every entry is finite.
bool all_finite(const Vector& x);
// True when every entry is exactly a float (rounding to single precision and
// back gives the same double): such values can be stored in half the bytes
// without loss (CsrMatrix::store_values_single, amg.exact_single).
bool all_exact_in_single(const Vector& x);
// out = x rounded to float, and whether every entry was exact (one pass: a
// check pass and a conversion pass read x twice); out's size is x's.
bool to_single_if_exact(const Vector& x, Array<float>& out);

// A vector of ones in `space`.
Vector ones(std::size_t n, Space space);
// Entries uniform in [0, 1) from a fixed generator (splitmix64: the same on every
// platform and backend for the same seed), in `space`.
Vector random_vector(std::size_t n, std::uint64_t seed, Space space);

}  // namespace saga
