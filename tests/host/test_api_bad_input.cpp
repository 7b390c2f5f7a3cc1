// The C++ API's part of the bad-input battery (docs/reliability.md): each bad
// call throws a saga::Error subclass whose message names the problem; none
// crashes, none returns a result that claims success.
#include "api/saga.hpp"
#include "core/device.hpp"
#include "problems/structured.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("API bad input: matrices") {
  // row_ptr not monotone
  CHECK_THROWS_WITH_AS(from_host_csr(HostCsr{2, 2, {0, 2, 1}, {0, 1}, {1, 1}}, Space::host).validate("A"),
                       doctest::Contains("A"), InputError);
  // column out of range
  CHECK_THROWS_AS(from_host_csr(HostCsr{2, 2, {0, 1, 2}, {0, 5}, {1, 1}}, Space::host).validate("A"), InputError);
  // unsorted columns
  CHECK_THROWS_AS(from_host_csr(HostCsr{1, 2, {0, 2}, {1, 0}, {1, 1}}, Space::host).validate("A"), InputError);
  // not square
  CHECK_THROWS_WITH_AS(Solver(from_host_csr(HostCsr{1, 2, {0, 1}, {0}, {1}}, Space::host)),
                       doctest::Contains("square"), InputError);
  // empty
  CHECK_THROWS_WITH_AS(Solver(CsrMatrix::zeros(0, 0, Space::host)), doctest::Contains("non-empty"), InputError);
  // NaN entry, named
  HostCsr h = to_host_csr(poisson(Stencil::fd2d_5pt, 4, Space::host));
  h.val[7] = std::nan("");
  CHECK_THROWS_WITH_AS(Solver(from_host_csr(h, Space::host)), doctest::Contains("non-finite entry: a(2, 1) = nan"), InputError);
  // non-positive diagonal, row named
  h = to_host_csr(poisson(Stencil::fd2d_5pt, 4, Space::host));
  h.val[h.row_ptr[5] + 2] = -1;
  CHECK_THROWS_WITH_AS(Solver(from_host_csr(h, Space::host)), doctest::Contains("row 5"), InputError);
}

TEST_CASE("API bad input: vectors and parameters") {
  const Solver s(poisson(Stencil::fd2d_5pt, 8, Space::host));
  Vector x = Vector::zeros(64, Space::host);
  Vector shorter = Vector::zeros(10, Space::host);
  CHECK_THROWS_AS(s.solve(shorter, x), InputError);  // wrong length
  Vector b = ones(64, Space::host);
  b.data()[3] = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(s.solve(b, x), doctest::Contains("right-hand side has NaN or Inf"), InputError);
  AmgParams p;
  p.smoother = Component("gauss");
  CHECK_THROWS_WITH_AS(Solver(poisson(Stencil::fd2d_5pt, 8, Space::host), p), doctest::Contains("gauss"), InputError);
  AmgParams q;
  q.pre_sweeps = q.post_sweeps = 0;
  CHECK_THROWS_WITH_AS(Solver(poisson(Stencil::fd2d_5pt, 8, Space::host), q), doctest::Contains("pre_sweeps"), InputError);
  SolverParams sp;
  sp.type = Component("gmress");
  CHECK_THROWS_WITH_AS(Solver(poisson(Stencil::fd2d_5pt, 8, Space::host), AmgParams{}, sp), doctest::Contains("gmress"),
                       InputError);
}

TEST_CASE("API bad input: no GPU is an UnavailableError an embedding program can catch") {
  if (!device::compiled() || device::count() > 0) return;  // only meaningful on a CUDA build without a GPU
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 4, Space::host);
  CHECK_THROWS_WITH_AS(A.to(Space::device), doctest::Contains("no CUDA GPU was found"), UnavailableError);
}
