#pragma once
// Parameters of the multigrid cycle (the `amg.*` keys that shape the solve
// phase): cycle shape, smoother, sweeps and the memory its SpMV copies may
// take. Per-level overrides come from SetupParams::levels (keys smoother,
// pre_sweeps, post_sweeps).
#include <optional>

#include "amg/params.hpp"

namespace saga {

struct CycleParams {
  Component cycle = "V";
  Component smoother = "jacobi";
  int pre_sweeps = 1, post_sweeps = 1;
  // The device memory the binned SpMV's copies of the cycle's operators
  // (diagonal, sliced, sorted, 32-bit offsets; docs/memory.md) may take:
  // within_peak, what the process held at its peak (the setup's) less what it
  // holds now, so the solve phase never raises the peak; free, the device's
  // free memory less a margin (copy_room in solver/multigrid_cycle.cpp), for
  // a faster solve where memory is plentiful; none, no copy (the solve holds
  // only the hierarchy and its vectors).
  // A stencil's diagonal copy gives the CSR kernel's bits; the other copies
  // may add a row's entries in another order (the same iterations, give or
  // take one).
  std::string spmv_copies = "within_peak";

  template <class V>
  void visit(V& v) {
    v("pre_sweeps", pre_sweeps, "smoothing steps before the coarse correction", at_least(0));
    v("post_sweeps", post_sweeps, "smoothing steps after it", at_least(0));
    v("spmv_copies", spmv_copies,
      "device memory the cycle's SpMV copies may take: within_peak (never above the setup's peak), free (the "
      "device's free memory, less a margin), none",
      one_of({"within_peak", "free", "none"}));
  }
  // The parameters on level l, with the cycle keys of levels[l] applied.
  CycleParams at_level(const std::vector<Options>& levels, int l) const;
};

void validate(const CycleParams& p, const std::vector<Options>& levels = {},
              std::optional<Space> space = std::nullopt);

// The parameters a user gives an AMG preconditioner: setup and cycle.
struct AmgParams : SetupParams, CycleParams {};

inline void validate(const AmgParams& p, std::optional<Space> space = std::nullopt) {
  validate(static_cast<const SetupParams&>(p), space);
  validate(static_cast<const CycleParams&>(p), p.levels, space);
}

}  // namespace saga
