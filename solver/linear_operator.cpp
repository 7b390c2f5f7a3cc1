#include "solver/linear_operator.hpp"

#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

void MatrixOperator::apply(const Vector& x, Vector& y) const { spmv(A_, x, y); }

void IdentityOperator::apply(const Vector& x, Vector& y) const { copy(x, y); }

}  // namespace saga
