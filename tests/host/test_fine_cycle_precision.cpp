// amg.fine_cycle_precision: float gives the cycle a single-precision copy of
// the fine matrix's values (its row offsets and columns read in place) where
// they are not floats already, while the Krylov method reads the doubles. The
// setup is the double one; the cycle applies A rounded to float on the fine
// level, so the solve reaches the same tolerance on the true residual, with a
// preconditioner that is still symmetric (both sweeps read the same copy).
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/attainable_accuracy.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("fine_cycle_precision float: the cycle reads float(A) in place of A's doubles, the Krylov method A") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil st : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(st));
    const CsrMatrix A = perturbed_symmetric(poisson(st, stencil_dim(st) == 2 ? 100 : 18, Space::host), seed);
    REQUIRE_FALSE(all_exact_in_single(A.val()));
    AmgParams on, off;
    on.coarse_size = off.coarse_size = 60;
    on.fine_cycle_precision = "float";
    const Solver s_on(A, on), s_off(A, off);
    const Hierarchy& h_on = s_on.preconditioner().hierarchy();
    const Hierarchy& h_off = s_off.preconditioner().hierarchy();
    const Level& L0 = h_on.levels()[0];
    // The copy: float(A) value for value, A's pattern in place; A keeps its doubles.
    REQUIRE(L0.A_cycle.rows() == A.rows());
    CHECK(&L0.cycle_matrix() == &L0.A_cycle);
    CHECK(L0.A_cycle.single_precision());
    CHECK_FALSE(L0.A.single_precision());
    CHECK(L0.A_cycle.row_ptr().data() == L0.A.row_ptr().data());
    CHECK(L0.A_cycle.col().data() == L0.A.col().data());
    CHECK(to_host_csr(L0.A_cycle).val == to_host_csr(rounded_to_float(A)).val);
    CHECK(s_on.preconditioner().matrix().val().data() == L0.A.val().data());  // the Krylov method's matrix
    CHECK(h_on.stats().levels[0].fine_cycle_single);
    CHECK_FALSE(h_off.stats().levels[0].fine_cycle_single);
    CHECK(h_off.levels()[0].A_cycle.rows() == 0);
    for (std::size_t l = 1; l < h_on.levels().size(); ++l) CHECK(h_on.levels()[l].A_cycle.rows() == 0);
    CHECK(h_on.stats().levels[0].matrix_bytes - h_off.stats().levels[0].matrix_bytes ==
          4 * static_cast<std::size_t>(A.nnz()));
    // The same setup: P, R and the coarse levels bit for bit.
    REQUIRE(h_on.levels().size() == h_off.levels().size());
    for (std::size_t l = 0; l + 1 < h_on.levels().size(); ++l) {
      CHECK(to_host_csr(h_on.levels()[l].P).val == to_host_csr(h_off.levels()[l].P).val);
      CHECK(to_host_csr(h_on.levels()[l + 1].A).val == to_host_csr(h_off.levels()[l + 1].A).val);
    }
    // The cycle differs from the double one by float's rounding of A, no more,
    // and is still symmetric: u . M v = M u . v to 1e-12 (double's rounding
    // leaves ~1e-16; a prolongation on float(A) against R = P^T left 4e-11).
    const Vector u = random_vector(A.rows(), seed + 1, Space::host);
    const Vector v = random_vector(A.rows(), seed + 2, Space::host);
    Vector Mu(A.rows(), Space::host), Mv(A.rows(), Space::host), Mv_off(A.rows(), Space::host);
    s_on.preconditioner().cycle().apply(u, Mu);
    s_on.preconditioner().cycle().apply(v, Mv);
    s_off.preconditioner().cycle().apply(v, Mv_off);
    const double d = max_rel_diff(Mv.to_vector(), Mv_off.to_vector());
    CAPTURE(d);
    CHECK(d > 0);
    CHECK(d < 1e-6);
    const double uMv = dot(u, Mv), Muv = dot(Mu, v);
    CHECK(std::abs(uMv - Muv) <= 1e-12 * std::abs(uMv));
    {  // P applied implicitly reads A, not the copy: the prolongation stays R's transpose
      AmgParams imp = on;
      imp.implicit_prolongator = true;
      const Solver s_imp(A, imp);
      REQUIRE(s_imp.stats().levels[0].implicit_prolongator);
      Vector Iu(A.rows(), Space::host), Iv(A.rows(), Space::host);
      s_imp.preconditioner().cycle().apply(u, Iu);
      s_imp.preconditioner().cycle().apply(v, Iv);
      const double uIv = dot(u, Iv), Iuv = dot(Iu, v);
      CHECK(std::abs(uIv - Iuv) <= 1e-12 * std::abs(uIv));
    }
    // PCG reaches the tolerance on the true residual of A (doubles), in about
    // the iterations of the double cycle.
    const Vector b = random_vector(A.rows(), seed, Space::host);
    Vector x_on = Vector::zeros(b.size(), Space::host), x_off = Vector::zeros(b.size(), Space::host);
    const SolveResult r_on = s_on.solve(b, x_on), r_off = s_off.solve(b, x_off);
    MESSAGE(stencil_name(st) << ": cycle differs from the double one by " << d << " (relative), asymmetry "
                             << std::abs(uMv - Muv) / std::abs(uMv) << "; " << r_on.iterations << " iterations, "
                             << r_off.iterations << " with the double cycle");
    CHECK(r_on.converged);
    CHECK(true_relative_residual(A, b, x_on) <= 1.05e-8);
    CHECK(std::abs(r_on.iterations - r_off.iterations) <= 1);
    CHECK(r_on.residual_history != r_off.residual_history);  // the copy is what the cycle read
  }
}

TEST_CASE("fine_cycle_precision float: exact floats need no copy; values that round losslessly give the same bits") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, 16, Space::host);  // integer stencil
  const Vector b = random_vector(A.rows(), seed, Space::host);
  AmgParams p;
  p.coarse_size = 50;
  p.fine_cycle_precision = "float";
  {
    const Solver s(A, p);  // exact_single stores A itself in float: the cycle reads A
    const Level& L0 = s.preconditioner().hierarchy().levels()[0];
    CHECK(L0.A.single_precision());
    CHECK(L0.A_cycle.rows() == 0);
    CHECK(&L0.cycle_matrix() == &L0.A);
    CHECK_FALSE(s.stats().levels[0].fine_cycle_single);
  }
  // Without exact_single the copy is made, equal to the doubles: the solve of
  // the double cycle bit for bit.
  AmgParams copy = p, none = p;
  copy.exact_single = none.exact_single = false;
  none.fine_cycle_precision = "double";
  const Solver s_copy(A, copy), s_none(A, none);
  CHECK(s_copy.stats().levels[0].fine_cycle_single);
  Vector x_copy = Vector::zeros(b.size(), Space::host), x_none = Vector::zeros(b.size(), Space::host);
  const SolveResult r_copy = s_copy.solve(b, x_copy), r_none = s_none.solve(b, x_none);
  CHECK(r_copy.converged);
  CHECK(r_copy.residual_history == r_none.residual_history);
  CHECK(x_copy.to_vector() == x_none.to_vector());
}

TEST_CASE("fine_cycle_precision float: every resetup makes the copy of the new values again") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, 16, Space::host);
  const Vector b = random_vector(A.rows(), seed, Space::host);
  AmgParams p;
  p.coarse_size = 50;
  p.fine_cycle_precision = "float";
  Solver s(perturbed_symmetric(A, seed), p);
  CHECK(s.stats().levels[0].fine_cycle_single);
  for (double factor : {0.1, 3.0, 0.7}) {  // inexact, exact (A stores floats, no copy), inexact
    CAPTURE(factor);
    const CsrMatrix An = scaled(A, factor);
    const bool exact = all_exact_in_single(An.val());
    for (bool refresh : {false, true}) {
      CAPTURE(refresh);
      ResetupOptions o;
      o.refresh_prolongator = refresh;
      s.resetup(An, o);
      const Level& L0 = s.preconditioner().hierarchy().levels()[0];
      CHECK(s.stats().levels[0].fine_cycle_single == !exact);
      CHECK((L0.A_cycle.rows() > 0) == !exact);
      if (!exact) {
        CHECK(L0.A_cycle.row_ptr().data() == L0.A.row_ptr().data());
        CHECK(to_host_csr(L0.A_cycle).val == to_host_csr(rounded_to_float(An)).val);
      }
      Vector x = Vector::zeros(b.size(), Space::host);
      const SolveResult r = s.solve(b, x);
      CHECK(r.converged);
      CHECK(true_relative_residual(An, b, x) <= 1.05e-8);
    }
  }
}

TEST_CASE("fine_cycle_precision: read from a config; a bad value names the key") {
  SetupParams p;
  CHECK(p.fine_cycle_precision == "double");
  read_params(p, Options{{"fine_cycle_precision", "float"}}, "amg");
  CHECK(p.fine_cycle_precision == "float");
  CHECK_THROWS_WITH_AS(read_params(p, Options{{"fine_cycle_precision", "half"}}, "amg"),
                       doctest::Contains("amg.fine_cycle_precision"), InputError);
}
