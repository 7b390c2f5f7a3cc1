// Hierarchy / AmgPreconditioner / Solver resetup: new values on the same
// pattern, the aggregates kept. With the prolongator refreshed it equals a full
// setup on the same aggregates (each setup step applied in turn); with P kept,
// the coarse operators are R A P with the old P. Bad use (another pattern, NaN)
// is a clear error that leaves the hierarchy usable.
#include <doctest/doctest.h>

#include <random>

#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"
#include "sparse/transpose.hpp"
#include "amg/smoothed_prolongator.hpp"
#include "amg/spectral_radius.hpp"
#include "amg/tentative.hpp"
#include "problems/rmat.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// The same pattern with new SPD values: symmetric off-diagonals scaled by
// random factors in [0.5, 1.5], the diagonal their absolute sum plus a shift.
CsrMatrix revalued(const CsrMatrix& A, std::uint64_t seed, double shift) {
  HostCsr h = to_host_csr(A);
  std::uniform_real_distribution<double> U(0.5, 1.5);
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) {
      const index_t j = h.col[k];
      if (j == i) continue;
      std::mt19937_64 rng(seed ^ (static_cast<std::uint64_t>(std::min(i, j)) * 1000003u + std::max(i, j)));
      h.val[k] = h.val[k] * U(rng);  // the same factor for (i, j) and (j, i)
    }
  for (index_t i = 0; i < h.rows; ++i) {
    double off = 0;
    offset_t diag = -1;
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k)
      if (h.col[k] == i)
        diag = k;
      else
        off += std::abs(h.val[k]);
    h.val[diag] = off + shift;
  }
  return from_host_csr(h, A.space());
}

// The hierarchy a full setup of A gives on the aggregates of `h` (the oracle
// of resetup): per level, T from the aggregates and the near-nullspace (its
// weights where it is the constant one), rho(D^-1 A), P = T - 4/(3 rho)
// D^-1 A T, R = P^T, the next A = R A P — the setup's steps, here one after
// the other with the host building blocks.
void check_full_setup_on_same_aggregates(const Hierarchy& h, const CsrMatrix& A, const AmgParams& p) {
  CsrMatrix Al = A.clone();
  for (std::size_t l = 0; l < h.levels().size(); ++l) {
    CAPTURE(l);
    const Level& L = h.levels()[l];
    check_equal(to_host_csr(L.A), to_host_csr(Al), 0.0);
    if (l + 1 == h.levels().size()) break;
    const Vector dinv = inverse_diagonal(Al);
    amg::Aggregates ag;
    ag.of_node = L.aggregates.clone();
    ag.count = L.aggregate_count;
    ag.unaggregated = amg::count_unaggregated(ag.of_node);  // counted here, not taken from the hierarchy
    // T as the setup makes it: from the weights for a constant near-nullspace
    // (whose QR would round the coarse levels' B differently), else the QR.
    const amg::Tentative T = L.constant_nullspace ? amg::constant_tentative_prolongator(ag, L.weights)
                                                  : amg::tentative_prolongator(ag, L.near_nullspace(),
                                                                                L.nullspace_columns);
    const double rho = amg::spectral_radius_dinv_a(Al, dinv, p.rho_iterations);
    CHECK(L.rho == rho);
    const CsrMatrix P = amg::jacobi_smooth_update(T.T, spgemm(Al, T.T), dinv, 4.0 / (3.0 * rho));
    check_equal(to_host_csr(L.P), to_host_csr(P), 0.0);
    check_equal(to_host_csr(L.R), to_host_csr(transpose(P)), 0.0);
    Al = spgemm(transpose(P), spgemm(Al, P));
  }
}
}  // namespace

TEST_CASE("resetup with new values equals a full setup on the same aggregates; keeping P gives R A P") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const CsrMatrix A1 = poisson(s, stencil_dim(s) == 2 ? 60 : 12, Space::host);
    const CsrMatrix A2 = revalued(A1, seed, 0.05);
    AmgParams p;
    p.coarse_size = 40;  // three levels or more
    Hierarchy h(A1.clone(), p);
    const std::vector<index_t> agg0 = h.levels()[0].aggregates.to_vector();
    REQUIRE(h.levels().size() >= 3);
    ResetupOptions refresh;
    refresh.refresh_prolongator = true;
    const ResetupStats rs = h.resetup(A2.clone(), refresh);
    CHECK(rs.prolongator_refreshed);
    CHECK(rs.seconds > 0);
    CHECK(rs.phase_seconds.count("PtAP"));
    CHECK(!rs.phase_seconds.count("aggregation"));  // the aggregates are kept
    CHECK(h.levels()[0].aggregates.to_vector() == agg0);
    check_full_setup_on_same_aggregates(h, A2, p);  // bitwise: the same operations on the same data

    // P kept: level l+1 = R_l A_l P_l with the P and R of A1's setup.
    Hierarchy k(A1.clone(), p);
    std::vector<HostCsr> P_old;
    for (std::size_t l = 0; l + 1 < k.levels().size(); ++l) P_old.push_back(to_host_csr(k.levels()[l].P));
    const ResetupOptions keep;  // the default keeps P
    CHECK(!k.resetup(A2.clone(), keep).prolongator_refreshed);
    // A second resetup computes A P's values into the structure the first kept.
    const CsrMatrix A3 = revalued(A1, seed + 1, 0.05);
    for (const CsrMatrix* An : {&A2, &A3}) {
      if (An == &A3) {
        for (std::size_t l = 0; l + 1 < k.levels().size(); ++l) CHECK(k.levels()[l].AP.nnz() > 0);
        k.resetup(A3.clone(), keep);
      }
      CsrMatrix Al = An->clone();
      for (std::size_t l = 0; l + 1 < k.levels().size(); ++l) {
        CAPTURE(l);
        check_equal(to_host_csr(k.levels()[l].P), P_old[l], 0.0);
        const CsrMatrix next = spgemm(k.levels()[l].R, spgemm(Al, k.levels()[l].P));
        check_equal(to_host_csr(k.levels()[l + 1].A), to_host_csr(next), 1e-13);
        Al = next.clone();
      }
    }
    ResetupOptions lean = keep;  // keep_products = false frees them
    lean.keep_products = false;
    k.resetup(A2.clone(), lean);
    for (std::size_t l = 0; l + 1 < k.levels().size(); ++l) CHECK(k.levels()[l].AP.nnz() == 0);
  }
}

TEST_CASE("resetup of an R-MAT Laplacian (nodes in no aggregate) equals a full setup on the same aggregates") {
  // Isolated vertices stay out of every aggregate: empty rows of T, which the
  // refreshed tentative prolongator must keep empty (its rows start by a scan).
  RmatParams rp;
  rp.scale = 12;
  rp.seed = fresh_seed();
  const CsrMatrix A1 = rmat_laplacian(rp, 1.0, Space::host);
  const CsrMatrix A2 = revalued(A1, rp.seed, 0.05);
  AmgParams p;
  p.theta = 0.0;
  Hierarchy h(A1.clone(), p);
  REQUIRE(h.levels().size() >= 2);
  REQUIRE(amg::count_unaggregated(h.levels()[0].aggregates) > 0);
  CHECK(h.levels()[0].aggregates_left_out == amg::count_unaggregated(h.levels()[0].aggregates));
  ResetupOptions refresh;
  refresh.refresh_prolongator = true;
  h.resetup(A2.clone(), refresh);
  h.levels()[0].P.validate();
  check_full_setup_on_same_aggregates(h, A2, p);
}

TEST_CASE("Solver resetup: time steps with new values converge like fresh solvers; bad resetups are clear errors") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A0 = poisson(Stencil::fd3d_7pt, 14, Space::host);
  const AmgParams p;
  Solver solver(A0, p);
  const Vector b = random_vector(A0.rows(), seed, Space::host);
  for (int step = 1; step <= 3; ++step) {
    CAPTURE(step);
    const CsrMatrix At = revalued(A0, seed + step, 0.1 * step);
    solver.resetup(At);
    Vector x = Vector::zeros(A0.rows(), Space::host), y = Vector::zeros(A0.rows(), Space::host);
    const SolveResult r = solver.solve(b, x);
    const SolveResult f = Solver(At, p).solve(b, y);  // its own aggregates
    CHECK(r.converged);
    CHECK(std::abs(r.iterations - f.iterations) <= 2);
    // The solution solves the new system.
    Vector Ax(A0.rows(), Space::host);
    spmv(At, x, Ax);
    axpby(1.0, b, -1.0, Ax);
    CHECK(norm2(Ax) <= 1e-7 * norm2(b));
  }
  // Another pattern: refused, naming the row; the solver still works.
  CsrMatrix other = poisson(Stencil::fd3d_7pt, 14, Space::host);
  HostCsr h = to_host_csr(other);
  std::swap(h.col[h.row_ptr[5]], h.col[h.row_ptr[5] + 1]);  // row 5's columns out of place
  CHECK_THROWS_WITH_AS(solver.resetup(from_host_csr(h, Space::host)), doctest::Contains("row 5"), InputError);
  CHECK_THROWS_WITH_AS(solver.resetup(poisson(Stencil::fd3d_7pt, 13, Space::host)), doctest::Contains("matrix for a hierarchy"),
                       InputError);
  HostCsr bad = to_host_csr(A0);
  bad.val[7] = std::nan("");
  CHECK_THROWS_WITH_AS(solver.resetup(from_host_csr(bad, Space::host)), doctest::Contains("non-finite"), InputError);
  Vector x = Vector::zeros(A0.rows(), Space::host);
  CHECK(solver.solve(b, x).converged);
}

TEST_CASE("resetup of a hierarchy whose Galerkin products were computed in blocks: in the same blocks, same values") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A1 = poisson(Stencil::fd2d_5pt, 60, Space::host);
  const CsrMatrix A2 = revalued(A1, seed, 0.05);
  AmgParams p;
  p.coarse_size = 40;
  p.galerkin_slices = 3;
  for (bool refresh : {true, false}) {
    CAPTURE(refresh);
    Hierarchy h(A1.clone(), p);
    REQUIRE(h.levels().size() >= 3);
    CHECK(h.stats().levels[0].galerkin_slices == 3);
    ResetupOptions o;
    o.refresh_prolongator = refresh;
    const ResetupStats rs = h.resetup(A2.clone(), o);
    CHECK(rs.phase_seconds.count("PtAP"));
    if (refresh) {
      check_full_setup_on_same_aggregates(h, A2, p);  // bitwise: each block's rows are the same products
    } else {
      CsrMatrix Al = A2.clone();
      for (std::size_t l = 0; l + 1 < h.levels().size(); ++l) {
        CAPTURE(l);
        CHECK(h.levels()[l].AP.nnz() == 0);  // blocks keep no A P
        const CsrMatrix next = spgemm(h.levels()[l].R, spgemm(Al, h.levels()[l].P));
        check_equal(to_host_csr(h.levels()[l + 1].A), to_host_csr(next), 0.0);
        Al = next.clone();
      }
    }
  }
}
