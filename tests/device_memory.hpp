#pragma once
// GPU tests of memory savings: a device solver and the bytes of saga's pool
// its setup left held (the matrix's device copy included), measured around
// its construction on the active executor (whose pool pool_usage() reads).
#include <memory>

#include "api/saga.hpp"
#include "core/device.hpp"

namespace saga::test {

struct HeldSolver {
  std::unique_ptr<Solver> solver;
  std::size_t held = 0;
};

inline HeldSolver solver_with_held_bytes(const CsrMatrix& host_matrix, const AmgParams& params) {
  HeldSolver h;
  const std::size_t before = device::pool_usage().current;
  h.solver = std::make_unique<Solver>(host_matrix.to(Space::device), params);
  h.held = device::pool_usage().current - before;
  return h;
}

}  // namespace saga::test
