// amg.exact_single on the GPU: the device test of "every value is exactly a
// float" agrees with the host's; a device hierarchy keeps an integer-stencil
// fine matrix in float, frees the 4 bytes per entry it promises, and solves
// with the same residuals and iterate, bit for bit, as with the matrix in
// double (plain launches and the captured graph alike); a resetup with
// inexact values widens it again.
#include "amg/hierarchy.hpp"
#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/device_memory.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("GPU all_exact_in_single agrees with the host on random arrays") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-50.0, 50.0);
  for (int round = 0; round < 6; ++round) {
    const std::size_t n = 1 + rng() % static_cast<std::size_t>(sized(3000000, 100000));  // small under the sanitizers
    std::vector<double> v(n);
    for (double& x : v) x = static_cast<double>(static_cast<float>(u(rng)));
    const std::size_t at = rng() % n;
    if (round % 2 == 1) v[at] = std::nextafter(v[at], 100.0);  // one value off the float grid
    CAPTURE(n);
    CAPTURE(at);
    const Vector h = Vector::from_vector(v, Space::host);
    CHECK(all_exact_in_single(h) == (round % 2 == 0));
    CHECK(all_exact_in_single(h.to(Space::device)) == all_exact_in_single(h));
    Array<float> fd(n, Space::device, "rounded"), fh(n, Space::host, "rounded");
    CHECK(to_single_if_exact(h.to(Space::device), fd) == (round % 2 == 0));
    CHECK(to_single_if_exact(h, fh) == (round % 2 == 0));
    CHECK(fd.to_vector() == fh.to_vector());
  }
}

TEST_CASE("GPU exact_single: the fine matrix in float, its bytes freed, the same solve bit for bit") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const index_t N = stencil_dim(s) == 2 ? sized(400, 64) : sized(48, 14);
    const CsrMatrix Ah = poisson(s, N, Space::host);
    AmgParams on, off;
    off.exact_single = false;
    const HeldSolver off_solver = solver_with_held_bytes(Ah, off), on_solver = solver_with_held_bytes(Ah, on);
    Solver* const s_off = off_solver.solver.get();
    Solver* const s_on = on_solver.solver.get();
    const std::size_t off_held = off_solver.held, on_held = on_solver.held;
    CHECK(s_on->preconditioner().matrix().single_precision());
    CHECK(s_on->stats().levels[0].exact_single);
    CHECK_FALSE(s_off->preconditioner().matrix().single_precision());
    CHECK(to_host_csr(s_on->preconditioner().matrix()).val == to_host_csr(Ah).val);
    const std::size_t saved = 4 * static_cast<std::size_t>(Ah.nnz());
    CHECK(s_off->stats().matrix_bytes() - s_on->stats().matrix_bytes() == saved);
    MESSAGE(stencil_name(s) << " N=" << N << ": solver holds " << off_held / 1048576.0 << " MiB (double fine matrix), "
                            << on_held / 1048576.0 << " MiB (exact float)");
    CHECK(on_held + saved <= off_held + 4096);  // the pool gave the bytes back
    const Vector b = random_vector(Ah.rows(), seed, Space::device);
    for (const char* graph : {"auto", "off"}) {
      CAPTURE(graph);
      SolverParams sp;
      sp.type = Component("pcg", Options().set("graph", graph));
      Solver a(Ah.to(Space::device), on, sp), d(Ah.to(Space::device), off, sp);
      Vector xa = Vector::zeros(Ah.rows(), Space::device), xd = Vector::zeros(Ah.rows(), Space::device);
      const SolveResult ra = a.solve(b, xa), rd = d.solve(b, xd);
      CHECK(ra.converged);
      CHECK(ra.iterations == rd.iterations);
      CHECK(ra.residual_history == rd.residual_history);
      CHECK(xa.to_vector() == xd.to_vector());
    }
    // A resetup with values off the float grid keeps them in double; back on it, float again.
    HostCsr h2 = to_host_csr(Ah);
    for (double& v : h2.val) v *= 0.1;
    s_on->resetup(from_host_csr(h2, Space::device));
    CHECK_FALSE(s_on->preconditioner().matrix().single_precision());
    CHECK_FALSE(s_on->stats().levels[0].exact_single);
    s_on->resetup(Ah.to(Space::device));
    CHECK(s_on->preconditioner().matrix().single_precision());
    Vector x = Vector::zeros(Ah.rows(), Space::device);
    CHECK(s_on->solve(b, x).converged);
  }
}
