// The smoothed prolongator applied without storing P (amg.implicit_prolongator):
// spmv_smoothed_prolongation against its definition x + u - omega w .* (A u),
// u = T e, on random inputs; a hierarchy that drops P on the levels where T is
// one column per aggregate over the constant vector has the same coarse
// operators as one that keeps it, a cycle equal to rounding, the same
// iterations, P's bytes saved; resetups recompute the implicit P from the new
// matrix like a fresh setup.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("spmv_smoothed_prolongation: x + u - omega w .* (A u), u = scale[g] e[g], in place or not") {
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 4; ++t) {
    CAPTURE(t);
    RandomSpec spec;
    spec.rows = spec.cols = 50 + 37 * t;
    spec.density = 0.06;
    const HostCsr h = random_csr(spec, rng);
    const CsrMatrix A = from_host_csr(h, Space::host);
    const index_t n = h.rows, nc = 1 + n / 5;
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    std::vector<index_t> agg(n);
    for (auto& g : agg) g = static_cast<index_t>(rng() % (nc + 1)) - 1;  // -1: an unaggregated node
    std::vector<double> scale(nc), e(nc), w(n), x(n);
    for (auto& v : scale) v = U(rng);
    for (auto& v : e) v = U(rng);
    for (auto& v : w) v = U(rng);
    for (auto& v : x) v = U(rng);
    const double omega = 0.37 + 0.1 * t;
    // The definition, entry by entry.
    std::vector<double> u(n), want(n);
    for (index_t i = 0; i < n; ++i) u[i] = agg[i] < 0 ? 0.0 : scale[agg[i]] * e[agg[i]];
    for (index_t i = 0; i < n; ++i) {
      double s = 0.0;
      for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) s += h.val[k] * u[h.col[k]];
      want[i] = x[i] + u[i] - omega * w[i] * s;
    }
    const Array<index_t> ag = Array<index_t>::from_vector(agg, Space::host);
    const Vector sc = Vector::from_vector(scale, Space::host), ev = Vector::from_vector(e, Space::host),
                 wv = Vector::from_vector(w, Space::host), xv = Vector::from_vector(x, Space::host);
    Vector out(n, Space::host);
    spmv_smoothed_prolongation(A, wv, omega, ag, sc, ev, xv, out);
    CHECK(max_rel_diff(out.to_vector(), want) < 1e-14);
    Vector inplace = xv.clone();
    spmv_smoothed_prolongation(A, wv, omega, ag, sc, ev, inplace, inplace);
    CHECK(inplace.to_vector() == out.to_vector());
    Vector short_x(n - 1, Space::host);
    CHECK_THROWS_AS(spmv_smoothed_prolongation(A, wv, omega, ag, sc, ev, short_x, out), InputError);
  }
}

TEST_CASE("implicit_prolongator: P dropped where T is one column per aggregate, same operators and iterations") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    for (const std::string precision : {"double", "float"}) {
      CAPTURE(stencil_name(s));
      CAPTURE(precision);
      const CsrMatrix A = poisson(s, stencil_dim(s) == 2 ? 160 : 22, Space::host);
      AmgParams pe;
      pe.coarse_size = 60;
      pe.hierarchy_precision = precision;
      AmgParams pi = pe;
      pi.implicit_prolongator = true;
      Solver se(A, pe), si(A, pi);
      const Hierarchy& he = se.preconditioner().hierarchy();
      const Hierarchy& hi = si.preconditioner().hierarchy();
      REQUIRE(hi.levels().size() >= 3);
      REQUIRE(hi.levels().size() == he.levels().size());
      // The fine level's near-nullspace is the constant: P is dropped there; the
      // coarser levels' T spans the aggregate norms, not a constant: P kept.
      CHECK(hi.levels()[0].implicit_prolongator());
      CHECK(hi.levels()[0].P.nnz() == 0);
      CHECK(hi.stats().levels[0].implicit_prolongator);
      CHECK(hi.stats().levels[0].matrix_bytes + he.levels()[0].P.bytes() == he.stats().levels[0].matrix_bytes);
      for (std::size_t l = 1; l + 1 < hi.levels().size(); ++l) CHECK_FALSE(hi.levels()[l].implicit_prolongator());
      // The products were made with P: the coarse operators are the same.
      for (std::size_t l = 1; l < hi.levels().size(); ++l)
        check_equal(to_host_csr(hi.levels()[l].A), to_host_csr(he.levels()[l].A), 0.0);
      // One cycle: equal to rounding (a float P is rounded, the implicit one is not).
      const Vector r = random_vector(A.rows(), seed, Space::host);
      Vector ze(A.rows(), Space::host), zi(A.rows(), Space::host);
      se.preconditioner().apply(r, ze);
      si.preconditioner().apply(r, zi);
      CHECK(max_rel_diff(zi.to_vector(), ze.to_vector()) < (precision == "float" ? 1e-5 : 1e-12));
      Vector xe = Vector::zeros(A.rows(), Space::host), xi = Vector::zeros(A.rows(), Space::host);
      const SolveResult re = se.solve(r, xe), ri = si.solve(r, xi);
      MESSAGE(stencil_name(s) << " " << precision << ": " << re.iterations << " iterations with P stored, "
                              << ri.iterations << " implicit");
      CHECK(ri.converged);
      CHECK(std::abs(ri.iterations - re.iterations) <= (precision == "float" ? 1 : 0));
    }
  }
}

TEST_CASE("implicit_prolongator: a resetup makes the implicit P of the new matrix, as a refreshing resetup does") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A1 = poisson(Stencil::fd3d_7pt, 20, Space::host);
  HostCsr h2 = to_host_csr(A1);
  std::mt19937_64 rng(seed);
  for (index_t i = 0; i < h2.rows; ++i)  // new values, same pattern, still SPD (diagonally dominant)
    for (offset_t k = h2.row_ptr[i]; k < h2.row_ptr[i + 1]; ++k)
      if (h2.col[k] == i) h2.val[k] *= 1.0 + 0.5 * static_cast<double>(rng() % 1000) / 1000.0;
  const CsrMatrix A2 = from_host_csr(h2, Space::host);
  const Vector b = random_vector(A2.rows(), seed + 1, Space::host);
  for (int slices : {1, 3})
    for (bool refresh : {false, true}) {
      CAPTURE(slices);
      CAPTURE(refresh);
      AmgParams pe;
      pe.coarse_size = 40;
      pe.galerkin_slices = slices;
      AmgParams pi = pe;
      pi.implicit_prolongator = true;
      // The oracle: P stored, every P made again from the new matrix (same aggregates).
      Solver oracle(A1, pe);
      ResetupOptions all;
      all.refresh_prolongator = true;
      oracle.resetup(A2, all);
      Solver solver(A1, pi);
      ResetupOptions o;
      o.refresh_prolongator = refresh;
      const ResetupStats rs = solver.resetup(A2, o);
      CHECK(rs.prolongator_refreshed);  // an implicit P is always the new matrix's
      const Hierarchy& h = solver.preconditioner().hierarchy();
      const Hierarchy& f = oracle.preconditioner().hierarchy();
      REQUIRE(h.levels().size() == f.levels().size());
      CHECK(h.levels()[0].implicit_prolongator());
      CHECK(h.levels()[0].P.nnz() == 0);
      // Level 1 is R A P with the new matrix's P (the implicit level's); below
      // it, a resetup that keeps P keeps the coarser levels' (explicit) P.
      for (std::size_t l = 1; l < (refresh ? h.levels().size() : 2); ++l)
        check_equal(to_host_csr(h.levels()[l].A), to_host_csr(f.levels()[l].A), 1e-12);
      Vector x = Vector::zeros(A2.rows(), Space::host), y = Vector::zeros(A2.rows(), Space::host);
      const SolveResult r = solver.solve(b, x), rf = oracle.solve(b, y);
      CHECK(r.converged);
      CHECK(std::abs(r.iterations - rf.iterations) <= (refresh ? 0 : 1));
    }
}

TEST_CASE("implicit_prolongator: read from the amg keys; a bad value names the key") {
  Options o;
  o.set("implicit_prolongator", "true");
  SetupParams p;
  CHECK_FALSE(p.implicit_prolongator);
  read_params(p, o, "amg");
  CHECK(p.implicit_prolongator);
  Options bad;
  bad.set("implicit_prolongator", "maybe");
  SetupParams q;
  CHECK_THROWS_WITH_AS(read_params(q, bad, "amg"), doctest::Contains("amg.implicit_prolongator"), InputError);
}
