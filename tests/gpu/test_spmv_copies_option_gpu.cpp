// amg.spmv_copies on the GPU: the room the cycle gives the binned SpMV's copies
// of its operators. none makes no copy; within_peak (the default) none where
// the process holds nearly its peak already; free makes them there all the
// same, past the setup's peak; the solves agree (the fine level's diagonal
// copy gives the CSR kernel's bits, the coarse levels' copies the same
// iterations give or take one).
#include <cstdlib>
#include <string>

#include "amg/hierarchy.hpp"
#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "solver/multigrid_cycle.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/spmv.hpp"
#include "sparse/spmv_diagonals.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/attainable_accuracy.hpp"
#include "tests/gpu/fine_copy_hierarchy.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
CycleParams with_copies(const std::string& room) {
  CycleParams p;
  p.spmv_copies = room;
  return p;
}
}  // namespace

TEST_CASE("GPU amg.spmv_copies: none makes no copy, free makes them past the setup's peak, within_peak under it") {
  const FineCopyHierarchy f = fine_copy_hierarchy();
  const Hierarchy& h = *f.h;
  const CsrMatrix& A0 = f.A0();
  const std::size_t vec = f.vec, copy = f.copy;
  // Ballast up to where the Krylov vectors the cycle reserves leave no room under the peak.
  const device::PoolUsage u = device::pool_usage();
  REQUIRE(u.peak > u.current + 2 * vec);
  const Array<double> ballast((u.peak - u.current - 2 * vec) / sizeof(double), Space::device, "ballast");
  {
    const MultigridCycle none(h, with_copies("none"));
    CHECK(cuda::spmv_binned_info(A0).diagonals == 0);
    CHECK(none.spmv_copies().bytes == 0);  // not even a 64-bit build's 32-bit offsets
    CHECK(none.spmv_copies().operators == 0);
  }
  {
    const MultigridCycle peak(h, with_copies("within_peak"));
    CHECK(cuda::spmv_binned_info(A0).diagonals == 0);  // no room under the peak for the fine copy
    CHECK(spmv_kept_bytes(A0) == 0);
  }
  // (The cycles' own vectors may have passed the setup's peak by a little.)
  const std::size_t before = device::pool_usage().peak;
  const MultigridCycle generous(h, with_copies("free"));
  CHECK(cuda::spmv_binned_info(A0).diagonals == 7);
  CHECK(spmv_kept_bytes(A0) == copy);
  CHECK(generous.spmv_copies().bytes >= copy);
  CHECK(generous.spmv_copies().operators >= 1);
  CHECK(device::pool_usage().peak > before);  // past the peak, as asked
  CHECK(device::pool_usage().peak > u.peak);
}

TEST_CASE("GPU amg.spmv_copies: the solves agree whatever room the copies had") {
  const std::uint64_t seed = fresh_seed();
  const std::int64_t copy_rows = std::int64_t{32} * SpmvDiagonals::min_warps_per_sm * device::info().multiprocessors;
  for (Stencil st : {Stencil::fd2d_5pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(st));
    const index_t N = stencil_dim(st) == 2 ? sized(1024, 200) : sized(96, 24);
    const CsrMatrix Ah = poisson(st, N, Space::host);
    const CsrMatrix Ad = Ah.to(Space::device);
    const Vector bh = random_vector(Ah.rows(), seed, Space::host);
    const Vector b = bh.to(Space::device);
    SolveResult none_result;
    for (const std::string room : {"none", "within_peak", "free"}) {
      CAPTURE(room);
      AmgParams p;
      p.spmv_copies = room;
      const Solver s(Ad, p, SolverParams{}, Executor::cuda());
      const MultigridCycle::SpmvCopies copies = s.preconditioner().cycle().spmv_copies();
      Vector x = Vector::zeros(Ah.rows(), Space::device);
      const SolveResult r = s.solve(b, x);
      MESSAGE(stencil_name(st) << " N=" << N << " " << room << ": " << r.iterations << " iterations, copies of "
                               << copies.operators << " operators, " << copies.bytes << " B");
      CHECK(r.converged);
      CHECK(true_relative_residual(Ah, bh, x) <= 1.05e-8);
      if (room == "none") {
        CHECK(copies.bytes == 0);
        CHECK(copies.operators == 0);
        CHECK(s.preconditioner().cycle().spmv_copies().bytes == 0);  // nor did the solve's products make any
        none_result = r;
      } else {
        CHECK(std::abs(r.iterations - none_result.iterations) <= 1);
      }
      // At least the fine level's diagonal copy where it has the rows for one (not at the sanitizers' small sizes).
      if (room == "free" && Ah.rows() >= copy_rows) CHECK(copies.operators >= 1);
    }
  }
}
