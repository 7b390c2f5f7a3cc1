#pragma once
// Parameters of the smoothed-aggregation setup and of the multigrid cycle.
// Defaults are the reference choices of GUIDE.md §2.
#include <cstdint>
#include <string>

#include "sparse/spgemm.hpp"

namespace saga {

struct AmgParams {
  double theta = 0.0;             // symmetric strength threshold
  index_t coarse_size = 500;      // stop coarsening at or below this many rows
  int max_levels = 10;            // including the finest
  int rho_iterations = 15;        // Lanczos steps for rho(D^-1 A)
  double prolongator_omega = 0;   // 0: 4/(3 rho) per level
  std::uint32_t seed = 0;         // MIS-2 hash priorities (per level: seed + level)
  // Cycle and smoother
  std::string cycle = "V";        // V or W
  std::string smoother = "jacobi";
  int pre_sweeps = 1, post_sweeps = 1;
  double smoother_omega = 0;      // 0: 4/(3 rho) per level
  SpgemmOptions spgemm;           // SpGEMM algorithm used in the setup
};

void validate(const AmgParams& p);

}  // namespace saga
