#include "solver/linear_operator.hpp"

#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

void LinearOperator::residual(const Vector& b, const Vector& x, Vector& r, Vector& w) const {
  apply(x, w);
  copy(b, r);
  axpby(-1.0, w, 1.0, r);
}

void LinearOperator::apply_dot(const Vector& x, Vector& y, Scalars& s, int slot) const {
  apply(x, y);
  dot_into(x, y, s, slot);
}

void MatrixOperator::apply(const Vector& x, Vector& y) const { spmv(A_, x, y); }

void MatrixOperator::residual(const Vector& b, const Vector& x, Vector& r, Vector&) const {
  spmv_residual(A_, x, b, r);  // one pass where the SpMV fuses it
}

void MatrixOperator::apply_dot(const Vector& x, Vector& y, Scalars& s, int slot) const {
  spmv_dot(A_, x, y, s, slot);
}

void IdentityOperator::apply(const Vector& x, Vector& y) const { copy(x, y); }

}  // namespace saga
