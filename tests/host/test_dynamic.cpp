// DynamicSolver: a matrix held as DCSR, updated in place (new couplings, new
// values, removed entries), set up again; the hierarchy equals the one built
// from scratch on the updated matrix, and the solves converge on it.
#include <doctest/doctest.h>

#include "api/dynamic.hpp"
#include "problems/edge_updates.hpp"
#include "problems/structured.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
void check_same_hierarchy(const Hierarchy& a, const Hierarchy& b) {
  REQUIRE(a.levels().size() == b.levels().size());
  for (std::size_t l = 0; l < a.levels().size(); ++l) {
    CAPTURE(l);
    check_equal(to_host_csr(a.levels()[l].A), to_host_csr(b.levels()[l].A), 0.0);
    if (l + 1 < a.levels().size()) check_equal(to_host_csr(a.levels()[l].P), to_host_csr(b.levels()[l].P), 0.0);
  }
}
}  // namespace

TEST_CASE("DynamicSolver: updates in place and resetup equal a setup from scratch; solves converge") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A0 = poisson(Stencil::fd2d_5pt, 40, Space::host);
  DcsrParams p;
  p.duplicates = DcsrDuplicates::add;
  DynamicSolver s(DcsrMatrix::from_csr(A0, p));
  CHECK(!s.stale());
  const Vector b = random_vector(A0.rows(), seed, Space::host);
  CsrMatrix expected = A0.clone();
  for (int step = 0; step < 4; ++step) {
    CAPTURE(step);
    const CooMatrix upd = edge_updates(A0.rows(), 60, 2.0, seed + step, Space::host);
    const DcsrUpdateStats st = s.insert(upd);
    CHECK(st.inserted > 0);  // new couplings
    CHECK(s.stale());
    expected = add(1.0, expected, 1.0, coo_to_csr(upd));
    s.resetup();
    CHECK(!s.stale());
    CHECK(!s.last_resetup().numeric);  // new couplings: a full setup
    CHECK(s.last_resetup().setup > 0);
    check_equal(to_host_csr(s.solver().preconditioner().matrix()), to_host_csr(expected), 1e-15);
    const Solver scratch(expected.clone());
    check_same_hierarchy(s.solver().preconditioner().hierarchy(), scratch.preconditioner().hierarchy());
    Vector x = Vector::zeros(A0.rows(), Space::host);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    Vector Ax(A0.rows(), Space::host);
    spmv(expected, x, Ax);
    axpby(1.0, b, -1.0, Ax);
    CHECK(std::sqrt(dot(Ax, Ax)) <= 1e-7 * std::sqrt(dot(b, b)));
  }
  // Values only: scale the diagonal up (add 1 on every diagonal entry).
  const CsrMatrix I = poisson(Stencil::fd2d_5pt, 40, Space::host);  // same pattern
  HostCsr d = to_host_csr(I);
  HostCsr diag{d.rows, d.cols, {0}, {}, {}};
  for (index_t i = 0; i < d.rows; ++i) {
    diag.col.push_back(i);
    diag.val.push_back(1.0);
    diag.row_ptr.push_back(i + 1);
  }
  const DcsrUpdateStats st = s.add(1.0, from_host_csr(diag, Space::host));
  CHECK(st.inserted == 0);
  CHECK(st.updated == d.rows);
  const std::vector<index_t> agg = s.solver().preconditioner().hierarchy().levels()[0].aggregates.to_vector();
  s.resetup();
  CHECK(s.last_resetup().numeric);  // values only: the aggregates kept
  CHECK(s.solver().preconditioner().hierarchy().levels()[0].aggregates.to_vector() == agg);
  expected = add(1.0, expected, 1.0, from_host_csr(diag, Space::host));
  check_equal(to_host_csr(s.solver().preconditioner().matrix()), to_host_csr(expected), 0.0);
  Vector x = Vector::zeros(A0.rows(), Space::host);
  CHECK(s.solve(b, x).converged);
  s.resetup(true);  // forced full setup: a Solver from scratch
  CHECK(!s.last_resetup().numeric);
  check_same_hierarchy(s.solver().preconditioner().hierarchy(), Solver(expected.clone()).preconditioner().hierarchy());
}

TEST_CASE("edge updates keep the matrix SPD and are reproducible; bad arguments are clear errors") {
  const CooMatrix a = edge_updates(50, 30, 1.0, 7, Space::host), b = edge_updates(50, 30, 1.0, 7, Space::host);
  CHECK(a.row.to_vector() == b.row.to_vector());
  CHECK(a.val.to_vector() == b.val.to_vector());
  const HostCsr u = to_host_csr(coo_to_csr(a));
  for (index_t i = 0; i < u.rows; ++i) {  // a weighted graph Laplacian: zero row sums, positive diagonal
    double sum = 0;
    for (offset_t k = u.row_ptr[i]; k < u.row_ptr[i + 1]; ++k) sum += u.val[k];
    CHECK(std::abs(sum) < 1e-12);
  }
  CHECK_THROWS_WITH_AS(edge_updates(1, 3, 1.0, 0, Space::host), doctest::Contains("at least 2 unknowns"), InputError);
  CHECK_THROWS_WITH_AS(edge_updates(9, 3, -1.0, 0, Space::host), doctest::Contains("weight"), InputError);
}
