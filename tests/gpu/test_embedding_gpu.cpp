// Embedding on the GPU (issue 16): a matrix given as device pointers is used in
// place (Array::view, CsrMatrix::view): the setup keeps no second copy of it,
// the solve reads and writes the caller's device vectors, and the C API's
// device calls (setup, resetup, apply, solve, the caller's stream) give what
// the C++ API gives.
#include <doctest/doctest.h>

#include "api/saga.hpp"
#include "api/saga_c.h"
#include "core/device.hpp"
#include "problems/structured.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
std::size_t bytes_of(const CsrMatrix& A) {
  return (A.row_ptr().size()) * sizeof(offset_t) + A.col().size() * sizeof(index_t) + A.val().size() * sizeof(double);
}
std::size_t in_use() {
  device::synchronize();
  return device::pool_usage().current;
}
}  // namespace

TEST_CASE("GPU zero-copy: a solve from device pointers keeps no copy of the matrix; C API device calls") {
  std::mt19937_64 rng(fresh_seed());
  // The caller's matrix and vectors, in device memory saga does not own.
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, sized(48, 16), Space::device);
  const index_t n = A.rows();
  const Vector b = random_vector(n, rng(), Space::device);
  SolverParams sp;
  sp.tolerance = 1e-8;

  // C++: the view against a copy moved in. Both solvers on the default executor.
  const std::size_t before = in_use();
  Solver viewed(CsrMatrix::view(n, n, A.nnz(), A.row_ptr().data(), A.col().data(), A.val().data(), Space::device), {},
                sp);
  const std::size_t with_view = in_use() - before;
  CHECK(viewed.preconditioner().matrix().val().data() == A.val().data());  // the caller's memory, in place
  CHECK(viewed.preconditioner().matrix().col().data() == A.col().data());
  CHECK_FALSE(viewed.preconditioner().matrix().val().owns());
  std::size_t with_copy = 0;
  SolveResult rc;
  Vector xc = Vector::zeros(n, Space::device);
  {
    const std::size_t b0 = in_use();
    AmgParams as_given;
    as_given.exact_single = false;  // the copy kept in double, as the view is: the copy is the whole difference
    Solver copied(A.clone(), as_given, sp);
    with_copy = in_use() - b0;
    rc = copied.solve(b, xc);
  }
  MESSAGE("device memory of the setup: " << with_view << " B from a view, " << with_copy << " B from a copy; bytes(A) = "
                                         << bytes_of(A));
  CHECK(with_copy >= with_view + bytes_of(A));
  CHECK(with_copy <= with_view + bytes_of(A) + (1u << 20));  // the copy is the whole difference

  // The solve writes the caller's x in place, the same iterates as the copy's.
  std::vector<double> xbuf(n, 0.0);
  Vector xd = Vector::zeros(n, Space::device);
  Vector xv = Vector::view(xd.data(), n, Space::device);
  const SolveResult rv = viewed.solve(b, xv);
  CHECK(rv.converged);
  CHECK(rv.iterations == rc.iterations);
  CHECK(xd.to_vector() == xc.to_vector());

  // The C API on device pointers, on a stream of the caller's. Its 32-bit entry
  // takes int32 row offsets whatever this build's offset_t (a 64-bit-offset build widens them).
  const std::vector<offset_t> offsets = A.row_ptr().to_vector();
  const std::vector<std::int32_t> host_rp(offsets.begin(), offsets.end());
  const Array<std::int32_t> rp32 = Array<std::int32_t>::from_vector(host_rp, Space::device);
  const std::int32_t nnz32 = static_cast<std::int32_t>(A.nnz());
  void* stream = device::stream_create(0);
  saga_solver h = nullptr;
  REQUIRE(saga_solver_create(&h, "cuda") == SAGA_OK);
  REQUIRE(saga_solver_set(h, "solver.tolerance", "1e-8") == SAGA_OK);
  REQUIRE(saga_solver_set_stream(h, stream) == SAGA_OK);
  REQUIRE(saga_solver_setup_device(h, n, nnz32, rp32.data(), A.col().data(), A.val().data()) == SAGA_OK);
  Vector xcapi = Vector::zeros(n, Space::device);
  REQUIRE(saga_solver_solve_device(h, b.data(), xcapi.data()) == SAGA_OK);
  int its = 0, conv = 0;
  double rel = 0;
  REQUIRE(saga_solver_result(h, &its, &conv, &rel) == SAGA_OK);
  CHECK(conv == 1);
  CHECK(its == rc.iterations);
  CHECK(max_rel_diff(xcapi.to_vector(), xc.to_vector()) < 1e-12);
  // apply: z = M^-1 r on device arrays equals the C++ preconditioner's.
  Vector z1 = Vector::zeros(n, Space::device), z2 = Vector::zeros(n, Space::device);
  REQUIRE(saga_solver_apply_device(h, b.data(), z1.data()) == SAGA_OK);
  viewed.preconditioner().apply(b, z2);
  CHECK(max_rel_diff(z1.to_vector(), z2.to_vector()) < 1e-12);
  // resetup from new device values (A scaled by 2): x halves, the iterations stay.
  Vector v2 = A.val().clone();
  scale(2.0, v2);
  REQUIRE(saga_solver_resetup_device(h, v2.data(), 0) == SAGA_OK);
  Vector x2 = Vector::zeros(n, Space::device);
  REQUIRE(saga_solver_solve_device(h, b.data(), x2.data()) == SAGA_OK);
  REQUIRE(saga_solver_result(h, &its, &conv, &rel) == SAGA_OK);
  CHECK(conv == 1);
  CHECK(std::abs(its - rc.iterations) <= 1);
  Vector half = xc.clone();
  scale(0.5, half);
  CHECK(max_rel_diff(x2.to_vector(), half.to_vector()) < 1e-6);
  // 64-bit device arrays: the indices narrowed once, the values used in place.
  {
    std::vector<std::int64_t> rp64, col64;
    for (offset_t v : A.row_ptr().to_vector()) rp64.push_back(v);
    for (index_t v : A.col().to_vector()) col64.push_back(v);
    const Array<std::int64_t> drp = Array<std::int64_t>::from_vector(rp64, Space::device);
    Array<std::int64_t> dcol = Array<std::int64_t>::from_vector(col64, Space::device);
    saga_solver h64 = nullptr;
    REQUIRE(saga_solver_create(&h64, "cuda") == SAGA_OK);
    REQUIRE(saga_solver_set(h64, "solver.tolerance", "1e-8") == SAGA_OK);
    REQUIRE(saga_solver_setup_device_i64(h64, n, A.nnz(), drp.data(), dcol.data(), A.val().data()) == SAGA_OK);
    Vector x64 = Vector::zeros(n, Space::device);
    REQUIRE(saga_solver_solve_device(h64, b.data(), x64.data()) == SAGA_OK);
    REQUIRE(saga_solver_result(h64, &its, &conv, &rel) == SAGA_OK);
    CHECK(its == rc.iterations);
    CHECK(x64.to_vector() == xc.to_vector());
    // Solved again into the same array (the kept CG workspace and graph), then
    // after the workspace is released (made again): bitwise the first solve.
    for (int k = 0; k < 2; ++k) {
      if (k == 1) REQUIRE(saga_solver_release_workspace(h64) == SAGA_OK);
      x64.set_zero();
      REQUIRE(saga_solver_solve_device(h64, b.data(), x64.data()) == SAGA_OK);
      REQUIRE(saga_solver_result(h64, &its, &conv, &rel) == SAGA_OK);
      CHECK(its == rc.iterations);
      CHECK(x64.to_vector() == xc.to_vector());
    }
    REQUIRE(saga_solver_resetup_device(h64, v2.data(), 0) == SAGA_OK);
    x64.set_zero();
    REQUIRE(saga_solver_solve_device(h64, b.data(), x64.data()) == SAGA_OK);
    CHECK(max_rel_diff(x64.to_vector(), half.to_vector()) < 1e-6);
    col64[7] = n + 3;  // out of range: named
    dcol = Array<std::int64_t>::from_vector(col64, Space::device);
    CHECK(saga_solver_setup_device_i64(h64, n, A.nnz(), drp.data(), dcol.data(), A.val().data()) == SAGA_ERROR_INPUT);
    CHECK(std::string(saga_last_error()).find("col[7]") != std::string::npos);
    saga_solver_destroy(h64);
  }
  // Misuse: a host resetup after a device setup, host arrays given as device
  // pointers (found by cudaPointerGetAttributes), device calls on a host handle.
  CHECK(saga_solver_resetup(h, nullptr, 0) == SAGA_ERROR_STATE);
  const std::vector<double> host_b = b.to_vector();
  std::vector<double> host_x(n, 0.0);
  CHECK(saga_solver_solve_device(h, host_b.data(), xcapi.data()) == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("b is not a device pointer") != std::string::npos);
  CHECK(saga_solver_apply_device(h, b.data(), host_x.data()) == SAGA_ERROR_INPUT);
  const std::vector<double> host_val = A.val().to_vector();
  CHECK(saga_solver_resetup_device(h, host_val.data(), 0) == SAGA_ERROR_INPUT);
  CHECK(saga_solver_setup_device(h, n, nnz32, host_rp.data(), A.col().data(), A.val().data()) == SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("row_ptr is not a device pointer") != std::string::npos);
  REQUIRE(saga_solver_solve_device(h, b.data(), x2.data()) == SAGA_OK);  // the handle is still set up
  {  // device arrays with two columns of a row swapped: found on the GPU, named by row
    std::vector<index_t> cols = A.col().to_vector();
    const std::vector<offset_t> rp = A.row_ptr().to_vector();
    index_t row = n / 2;
    while (rp[row + 1] - rp[row] < 2) ++row;
    std::swap(cols[rp[row]], cols[rp[row] + 1]);
    const Array<index_t> bad = Array<index_t>::from_vector(cols, Space::device);
    CHECK(saga_solver_setup_device(h, n, nnz32, rp32.data(), bad.data(), A.val().data()) ==
          SAGA_ERROR_INPUT);
    const std::string want = fmt::format("row {} columns not strictly increasing", row);
    CHECK(std::string(saga_last_error()).find(want) != std::string::npos);
    REQUIRE(saga_solver_solve_device(h, b.data(), x2.data()) == SAGA_OK);  // still the earlier setup
  }
  saga_solver_destroy(h);
  device::stream_destroy(stream);
  saga_solver hh = nullptr;
  REQUIRE(saga_solver_create(&hh, "host") == SAGA_OK);
  CHECK(saga_solver_setup_device(hh, n, nnz32, rp32.data(), A.col().data(), A.val().data()) ==
        SAGA_ERROR_INPUT);
  CHECK(std::string(saga_last_error()).find("host") != std::string::npos);
  saga_solver_destroy(hh);
  // A view whose row_ptr does not end at nnz is refused.
  CHECK_THROWS_AS(CsrMatrix::view(n, n, A.nnz() - 1, A.row_ptr().data(), A.col().data(), A.val().data(), Space::device),
                  InputError);
}
