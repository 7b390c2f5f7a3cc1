#include "problems/rhs.hpp"

#include "sparse/spmv.hpp"

namespace saga {

ManufacturedSystem rhs_from_random_solution(const CsrMatrix& A, std::uint64_t seed) {
  ManufacturedSystem s{random_vector(A.cols(), seed, A.space()), Vector(A.rows(), A.space(), "right-hand side")};
  spmv(A, s.x_star, s.b);
  return s;
}

}  // namespace saga
