#pragma once
// Dense vector operations for Krylov solvers and smoothers, on the space the
// vectors live in. Reductions (dot, norm2) are deterministic: a fixed blocking
// and a fixed summation order, independent of the thread count.
#include "sparse/array.hpp"

namespace saga {

void fill(Vector& x, double value);
void copy(const Vector& x, Vector& y);                       // y = x
void axpby(double a, const Vector& x, double b, Vector& y);  // y = a x + b y
void scale(double a, Vector& x);                             // x = a x
void multiply(const Vector& x, const Vector& y, Vector& z);  // z = x .* y
// y = y + a * (d .* r): the damped-Jacobi update, one pass.
void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y);
double dot(const Vector& x, const Vector& y);
double norm2(const Vector& x);
// True when every entry is finite.
bool all_finite(const Vector& x);

}  // namespace saga
