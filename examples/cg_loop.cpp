// A user-written preconditioned CG loop around saga's AMG preconditioner (C++
// API): the matrix from the user's own triplets, M^-1 applied through
// AmgPreconditioner::apply each iteration. Exit status 0 when it converged.
#include <saga/api/saga.hpp>
#include <saga/sparse/coo.hpp>
#include <saga/sparse/spmv.hpp>
#include <saga/sparse/vector_ops.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  // 3D 7-point Laplacian, N^3 unknowns, as triplets (any order, as an FE code would give them).
  const int N = 24, n = N * N * N;
  std::vector<saga::index_t> ri, ci;
  std::vector<double> v;
  auto id = [&](int i, int j, int k) { return (k * N + j) * N + i; };
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) {
        const int r = id(i, j, k);
        auto put = [&](int c, double x) { ri.push_back(r), ci.push_back(c), v.push_back(x); };
        put(r, 6.0);
        if (i > 0) put(id(i - 1, j, k), -1);
        if (i + 1 < N) put(id(i + 1, j, k), -1);
        if (j > 0) put(id(i, j - 1, k), -1);
        if (j + 1 < N) put(id(i, j + 1, k), -1);
        if (k > 0) put(id(i, j, k - 1), -1);
        if (k + 1 < N) put(id(i, j, k + 1), -1);
      }
  const saga::Space space = saga::device::count() > 0 ? saga::Space::device : saga::Space::host;
  saga::CooMatrix coo{n, n, saga::Array<saga::index_t>::from_vector(ri, space),
                      saga::Array<saga::index_t>::from_vector(ci, space), saga::Array<double>::from_vector(v, space)};
  const saga::CsrMatrix A = saga::coo_to_csr(coo);
  const saga::AmgPreconditioner M(A);  // setup

  // PCG, written by the user.
  const saga::Vector b = saga::ones(n, space);
  saga::Vector x = saga::Vector::zeros(n, space), r = b.clone(), z(n, space), p(n, space), q(n, space);
  M.apply(r, z);
  z.copy_into(p);
  double rz = saga::dot(r, z);
  const double bnorm = saga::norm2(b);
  int it = 0;
  double rel = 1;
  for (; it < 200 && rel > 1e-10; ++it) {
    saga::spmv(A, p, q);
    const double alpha = rz / saga::dot(p, q);
    saga::axpby(alpha, p, 1.0, x);
    saga::axpby(-alpha, q, 1.0, r);
    rel = saga::norm2(r) / bnorm;
    M.apply(r, z);
    const double rz_new = saga::dot(r, z);
    saga::axpby(1.0, z, rz_new / rz, p);
    rz = rz_new;
  }
  std::printf("user CG with saga's AMG (%s, %d levels): %d iterations, relative residual %.3e\n",
              space == saga::Space::device ? "GPU" : "CPU", static_cast<int>(M.stats().levels.size()), it, rel);
  return rel <= 1e-10 ? 0 : 1;
}
