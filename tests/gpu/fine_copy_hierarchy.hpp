#pragma once
// A 3D 7-pt hierarchy whose fine level takes the binned SpMV's diagonal copy
// (past its 20 warps of rows an SM), set up from a fresh pool peak so that the
// process's peak is this setup's: the GPU tests of the room the cycle gives its
// SpMV copies (test_spmv_gpu.cpp, test_spmv_copies_option_gpu.cpp).
#include <cstdint>
#include <memory>

#include <doctest/doctest.h>

#include "amg/hierarchy.hpp"
#include "core/device.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv_diagonals.hpp"
#include "tests/helpers.hpp"

namespace saga::test {

struct FineCopyHierarchy {
  std::unique_ptr<Hierarchy> h;
  std::size_t vec = 0;   // a fine-level vector of doubles, bytes
  std::size_t copy = 0;  // the fine matrix's diagonal copy, bytes
  const CsrMatrix& A0() const { return h->levels().front().A; }
};

inline FineCopyHierarchy fine_copy_hierarchy() {
  FineCopyHierarchy f;
  const int sms = device::info().multiprocessors;
  const index_t N = cube_side_for(std::int64_t{32} * SpmvDiagonals::min_warps_per_sm * sms, 20);
  MESSAGE("3D 7-pt N=" << N);
  device::release_cached_memory();
  device::reset_peak_memory();  // the peak of this setup, not of the tests before
  f.h = std::make_unique<Hierarchy>(poisson(Stencil::fd3d_7pt, N, Space::device), SetupParams{});
  const CsrMatrix& A0 = f.A0();
  f.vec = sizeof(double) * static_cast<std::size_t>(A0.rows());
  f.copy = static_cast<std::size_t>(spmv_diagonals_bytes(A0.rows(), 7, A0.single_precision() ? 4 : 8));
  return f;
}

}  // namespace saga::test
