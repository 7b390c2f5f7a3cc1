#include "problems/rhs.hpp"

#include <vector>

#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

namespace {
// splitmix64: tiny, portable, and fully specified (unlike std distributions).
std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

Vector random_vector(std::size_t n, std::uint64_t seed, Space space) {
  std::vector<double> v(n);
  std::uint64_t s = seed;
  for (auto& x : v) x = static_cast<double>(splitmix64(s) >> 11) * 0x1.0p-53;
  return Vector::from_vector(v, space, "random vector");
}

Vector ones(std::size_t n, Space space) {
  Vector v(n, space, "ones");
  fill(v, 1.0);
  return v;
}

ManufacturedSystem rhs_from_random_solution(const CsrMatrix& A, std::uint64_t seed) {
  ManufacturedSystem s{random_vector(A.cols(), seed, A.space()), Vector(A.rows(), A.space(), "right-hand side")};
  spmv(A, s.x_star, s.b);
  return s;
}

}  // namespace saga
