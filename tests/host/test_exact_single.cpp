// amg.exact_single: a fine matrix whose every value is exactly a float is kept
// in float after the setup. Lossless: each value widens back to the same
// double, so the solve gives the same iterates and residuals, bit for bit, as
// with the matrix in double, and the hierarchy holds 4 bytes less per fine
// nonzero. Matrices with one inexact value, and views of the caller's values,
// stay as they are; resetups decide again for the new values.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
SolveResult solve_with(const Solver& s, const Vector& b, Vector& x) {
  x = Vector::zeros(b.size(), b.space());
  return s.solve(b, x);
}
}  // namespace

TEST_CASE("all_exact_in_single: true exactly when every entry survives rounding to float") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1e3, 1e3);
  const std::size_t n = 1000 + rng() % 5000;
  std::vector<double> exact(n);
  for (double& v : exact) v = static_cast<double>(static_cast<float>(u(rng)));
  CHECK(all_exact_in_single(Vector::from_vector(exact, Space::host)));
  CHECK(all_exact_in_single(Vector(0, Space::host)));
  std::vector<double> one_off = exact;
  const std::size_t at = rng() % n;
  one_off[at] = std::nextafter(one_off[at], 2e3);  // one ulp of double away from a float
  CAPTURE(at);
  CHECK_FALSE(all_exact_in_single(Vector::from_vector(one_off, Space::host)));
  one_off[at] = 0.1;  // not a float
  CHECK_FALSE(all_exact_in_single(Vector::from_vector(one_off, Space::host)));
  one_off[at] = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(all_exact_in_single(Vector::from_vector(one_off, Space::host)));
  one_off[at] = 1e300;  // beyond float's range: rounds to infinity
  CHECK_FALSE(all_exact_in_single(Vector::from_vector(one_off, Space::host)));
  one_off[at] = -0.0;
  CHECK(all_exact_in_single(Vector::from_vector(one_off, Space::host)));
  // The one-pass form: the rounded values and the same answer.
  Array<float> f(n, Space::host, "rounded");
  CHECK(to_single_if_exact(Vector::from_vector(exact, Space::host), f));
  for (std::size_t i = 0; i < n; ++i) REQUIRE(static_cast<double>(f.data()[i]) == exact[i]);
  one_off[at] = 0.1;
  CHECK_FALSE(to_single_if_exact(Vector::from_vector(one_off, Space::host), f));
  CHECK(f.data()[at] == 0.1f);
  CsrMatrix A = poisson(Stencil::fd2d_5pt, 20, Space::host);  // integer stencil: kept in float
  CHECK(A.store_values_single_if_exact());
  CHECK(A.single_precision());
  CsrMatrix B = poisson(Stencil::fd2d_5pt, 20, Space::host);
  scale(0.1, B.mutable_val());
  CHECK_FALSE(B.store_values_single_if_exact());  // 0.4 and -0.1 are not floats: the doubles stay
  CHECK_FALSE(B.single_precision());
}

TEST_CASE("exact_single: integer stencils kept in float, the same solve bit for bit, 4 bytes less per entry") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil st : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(st));
    const CsrMatrix A = poisson(st, stencil_dim(st) == 2 ? 120 : 20, Space::host);
    AmgParams on, off;
    on.coarse_size = off.coarse_size = 60;
    off.exact_single = false;
    for (const char* precision : {"double", "float"}) {
      CAPTURE(precision);
      on.hierarchy_precision = off.hierarchy_precision = precision;
      const Solver s_on(A, on), s_off(A, off);
      const Hierarchy& h_on = s_on.preconditioner().hierarchy();
      const Hierarchy& h_off = s_off.preconditioner().hierarchy();
      CHECK(h_on.levels()[0].A.single_precision());
      CHECK(h_on.stats().levels[0].exact_single);
      CHECK_FALSE(h_off.levels()[0].A.single_precision());
      CHECK_FALSE(h_off.stats().levels[0].exact_single);
      for (std::size_t l = 1; l < h_on.stats().levels.size(); ++l) CHECK_FALSE(h_on.stats().levels[l].exact_single);
      // The stored values are A's own.
      CHECK(to_host_csr(h_on.levels()[0].A).val == to_host_csr(A).val);
      CHECK(h_off.stats().levels[0].matrix_bytes - h_on.stats().levels[0].matrix_bytes ==
            4 * static_cast<std::size_t>(A.nnz()));
      const Vector b = random_vector(A.rows(), seed, Space::host);
      Vector x_on, x_off;
      const SolveResult r_on = solve_with(s_on, b, x_on), r_off = solve_with(s_off, b, x_off);
      CHECK(r_on.converged);
      CHECK(r_on.iterations == r_off.iterations);
      CHECK(r_on.residual_history == r_off.residual_history);
      CHECK(x_on.to_vector() == x_off.to_vector());
    }
  }
}

TEST_CASE("exact_single: one inexact value, or a view of the caller's values, keeps the fine matrix double") {
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 60, Space::host);
  AmgParams p;
  p.coarse_size = 40;
  {
    const Solver s(scaled(A, 0.1), p);  // 0.4 and -0.1 are not floats
    CHECK_FALSE(s.preconditioner().matrix().single_precision());
    CHECK_FALSE(s.stats().levels[0].exact_single);
  }
  {
    HostCsr h = to_host_csr(A);
    h.val[h.val.size() / 2] += 1e-12;  // one value off the float grid
    const Solver s(from_host_csr(h, Space::host), p);
    CHECK_FALSE(s.preconditioner().matrix().single_precision());
  }
  {
    const HostCsr h = to_host_csr(A);
    CsrMatrix V = CsrMatrix::view(h.rows, h.rows, static_cast<offset_t>(h.col.size()), h.row_ptr.data(),
                                  h.col.data(), h.val.data(), Space::host);
    const Solver s(std::move(V), p, SolverParams{});
    CHECK(s.preconditioner().matrix().val().data() == h.val.data());  // zero-copy: used in place
    CHECK_FALSE(s.stats().levels[0].exact_single);
  }
}

TEST_CASE("exact_single: a resetup decides again for the new values, and solves as the double hierarchy does") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, 16, Space::host);
  const Vector b = random_vector(A.rows(), seed, Space::host);
  AmgParams on, off;
  on.coarse_size = off.coarse_size = 50;
  off.exact_single = false;
  Solver s_on(A, on), s_off(A, off);
  for (double factor : {0.1, 1.5, 3.0}) {  // inexact, then exact values (same pattern)
    CAPTURE(factor);
    const CsrMatrix An = scaled(A, factor);
    const bool exact = all_exact_in_single(An.val());
    CHECK(exact == (factor != 0.1));
    for (bool refresh : {false, true}) {
      ResetupOptions o;
      o.refresh_prolongator = refresh;
      s_on.resetup(An, o);
      s_off.resetup(An, o);
      CHECK(s_on.preconditioner().matrix().single_precision() == exact);
      CHECK(s_on.stats().levels[0].exact_single == exact);
      Vector x_on, x_off;
      const SolveResult r_on = solve_with(s_on, b, x_on), r_off = solve_with(s_off, b, x_off);
      CHECK(r_on.converged);
      CHECK(r_on.residual_history == r_off.residual_history);
      CHECK(x_on.to_vector() == x_off.to_vector());
    }
  }
}

TEST_CASE("exact_single: read from a config; a bad value names the key") {
  SetupParams p;
  CHECK(p.exact_single);
  read_params(p, Options{{"exact_single", "false"}}, "amg");
  CHECK_FALSE(p.exact_single);
  CHECK_THROWS_WITH_AS(read_params(p, Options{{"exact_single", "maybe"}}, "amg"),
                       doctest::Contains("amg.exact_single"), InputError);
}
