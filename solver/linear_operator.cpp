#include "solver/linear_operator.hpp"

#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

void LinearOperator::residual(const Vector& b, const Vector& x, Vector& r, Vector& w) const {
  apply(x, w);
  copy(b, r);
  axpby(-1.0, w, 1.0, r);
}

void MatrixOperator::apply(const Vector& x, Vector& y) const { spmv(A_, x, y); }

void MatrixOperator::residual(const Vector& b, const Vector& x, Vector& r, Vector&) const {
  copy(b, r);
  spmv(-1.0, A_, x, 1.0, r);  // one fused SpMV
}

void IdentityOperator::apply(const Vector& x, Vector& y) const { copy(x, y); }

}  // namespace saga
