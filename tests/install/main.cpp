// Built against the installed package only (<saga/...> headers, saga::saga):
// a 2D Laplacian assembled by "the user", solved with saga's GMRES and an AMG
// preconditioner with a chosen smoother weight; exit status 0 when it converged.
#include <saga/api/saga.hpp>
#include <saga/sparse/vector_ops.hpp>

#include <cstdio>

int main() {
  const int m = 100, n = m * m;
  saga::HostCsr h{n, n, {0}, {}, {}};
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      const int r = j * m + i;
      auto put = [&](int c, double v) { h.col.push_back(c), h.val.push_back(v); };
      if (j > 0) put(r - m, -1);
      if (i > 0) put(r - 1, -1);
      put(r, 4);
      if (i + 1 < m) put(r + 1, -1);
      if (j + 1 < m) put(r + m, -1);
      h.row_ptr.push_back(static_cast<saga::offset_t>(h.col.size()));
    }
  const saga::CsrMatrix A = saga::from_host_csr(h, saga::Space::host);
  saga::AmgParams amg;
  amg.smoother = {"jacobi", saga::Options().set("omega", 0.6)};
  saga::SolverParams sp;
  sp.type = "gmres";
  const saga::Solver solver(A, amg, sp, saga::Executor::host());
  const saga::Vector b = saga::ones(n, saga::Space::host);
  saga::Vector x = saga::Vector::zeros(n, saga::Space::host);
  const saga::SolveResult r = solver.solve(b, x);
  std::printf("saga %s from the installed package: %s (%s, %zu levels)\n", SAGA_VERSION, r.message.c_str(),
              r.method.c_str(), solver.stats().levels.size());
  return r.converged ? 0 : 1;
}
