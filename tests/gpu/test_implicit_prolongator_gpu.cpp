// The implicit smoothed prolongator on the GPU (amg.implicit_prolongator): the
// binned kernels' fused x + u - omega w .* (A u), u = T e read through the
// aggregates, equals the host's on every bin (thread, warp, row blocks, long
// rows split across CTAs); a device hierarchy without P stored equals the
// host's, solves in as many iterations as one with P, and holds fewer bytes.
#include <cmath>

#include "api/saga.hpp"
#include "core/device.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/device_memory.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("GPU spmv_smoothed_prolongation equals the host's on every bin, in place or not") {
  std::mt19937_64 rng(fresh_seed());
  std::vector<std::pair<std::string, CsrMatrix>> cases;
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt})
    cases.emplace_back(stencil_name(s), poisson(s, stencil_dim(s) == 2 ? sized(120, 40) : sized(24, 10), Space::host));
  RmatParams rp;
  rp.scale = sized(14, 11);
  rp.edges = 12;
  rp.seed = rng();
  cases.emplace_back("R-MAT", rmat_matrix(rp, Space::host));  // long rows: chunks across CTAs
  for (const auto& named : cases) {
    const std::string& name = named.first;
    const CsrMatrix& A = named.second;
    CAPTURE(name);
    const index_t n = A.rows(), nc = 1 + n / 9;
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    std::vector<index_t> agg(n);
    for (auto& g : agg) g = static_cast<index_t>(rng() % (nc + 1)) - 1;  // -1: unaggregated
    std::vector<double> scale(nc), e(nc), w(n), x(n);
    for (auto& v : scale) v = U(rng);
    for (auto& v : e) v = U(rng);
    for (auto& v : w) v = U(rng);
    for (auto& v : x) v = U(rng);
    const double omega = 0.61;
    auto run = [&](Space s, bool in_place) {
      const CsrMatrix M = A.to(s);
      const Array<index_t> ag = Array<index_t>::from_vector(agg, s);
      const Vector sc = Vector::from_vector(scale, s), ev = Vector::from_vector(e, s),
                   wv = Vector::from_vector(w, s), xv = Vector::from_vector(x, s);
      Vector out = in_place ? xv.clone() : Vector(static_cast<std::size_t>(n), s);
      spmv_smoothed_prolongation(M, wv, omega, ag, sc, ev, in_place ? out : xv, out);
      return out.to_vector();
    };
    const std::vector<double> host = run(Space::host, false), dev = run(Space::device, false);
    CHECK(max_rel_diff(dev, host) < 1e-13);
    CHECK(run(Space::device, true) == dev);
  }
}

TEST_CASE("GPU implicit_prolongator: the device hierarchy equals the host's, the same iterations, P's bytes saved") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const index_t N = stencil_dim(s) == 2 ? sized(300, 64) : sized(40, 14);
    AmgParams pe;
    AmgParams pi = pe;
    pi.implicit_prolongator = true;
    const CsrMatrix Ah = poisson(s, N, Space::host);
    const HeldSolver e_held = solver_with_held_bytes(Ah, pe), i_held = solver_with_held_bytes(Ah, pi);
    Solver* const se = e_held.solver.get();
    Solver* const si = i_held.solver.get();
    const std::size_t explicit_held = e_held.held, implicit_held = i_held.held;
    const Solver sh(Ah, pi);
    const Hierarchy& hi = si->preconditioner().hierarchy();
    const Hierarchy& hh = sh.preconditioner().hierarchy();
    REQUIRE(hi.levels().size() == hh.levels().size());
    CHECK(hi.levels()[0].implicit_prolongator());
    CHECK(hi.levels()[0].P.nnz() == 0);
    for (std::size_t l = 1; l < hi.levels().size(); ++l) {
      CAPTURE(l);
      check_equal(to_host_csr(hi.levels()[l].A), to_host_csr(hh.levels()[l].A), 1e-12);
    }
    const std::size_t p_bytes = se->preconditioner().hierarchy().levels()[0].P.bytes();
    MESSAGE(stencil_name(s) << " N=" << N << ": solver holds " << explicit_held / 1048576.0 << " MiB with P stored, "
                            << implicit_held / 1048576.0 << " MiB implicit (P: " << p_bytes / 1048576.0 << " MiB)");
    CHECK(implicit_held + p_bytes <= explicit_held + 65536);
    const Vector r = random_vector(Ah.rows(), seed, Space::device);
    Vector zi(Ah.rows(), Space::device), ze(Ah.rows(), Space::device);
    si->preconditioner().apply(r, zi);
    se->preconditioner().apply(r, ze);
    CHECK(max_rel_diff(zi.to_vector(), ze.to_vector()) < 1e-12);
    Vector zh(Ah.rows(), Space::host);
    sh.preconditioner().apply(r.to(Space::host), zh);
    CHECK(max_rel_diff(zi.to_vector(), zh.to_vector()) < 1e-11);
    Vector x = Vector::zeros(Ah.rows(), Space::device), y = Vector::zeros(Ah.rows(), Space::device);
    const SolveResult ri = si->solve(r, x), re = se->solve(r, y);
    MESSAGE("iterations: P stored " << re.iterations << ", implicit " << ri.iterations);
    CHECK(ri.converged);
    CHECK(ri.iterations == re.iterations);
    // A resetup makes the implicit P of the new matrix and solves as before.
    HostCsr h2 = to_host_csr(Ah);
    for (double& v : h2.val) v *= 2.0;
    si->resetup(from_host_csr(h2, Space::device));
    CHECK(si->preconditioner().hierarchy().levels()[0].implicit_prolongator());
    Vector x2 = Vector::zeros(Ah.rows(), Space::device);
    const SolveResult r2 = si->solve(r, x2);
    CHECK(r2.converged);
    CHECK(std::abs(r2.iterations - ri.iterations) <= 1);
  }
}
