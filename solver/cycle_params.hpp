#pragma once
// Parameters of the multigrid cycle (the `amg.*` keys that shape the solve
// phase): cycle shape, smoother and sweeps. Per-level overrides come from
// SetupParams::levels (keys smoother, pre_sweeps, post_sweeps).
#include <optional>

#include "amg/params.hpp"

namespace saga {

struct CycleParams {
  Component cycle = "V";
  Component smoother = "jacobi";
  int pre_sweeps = 1, post_sweeps = 1;

  template <class V>
  void visit(V& v) {
    v("pre_sweeps", pre_sweeps, "smoothing steps before the coarse correction", at_least(0));
    v("post_sweeps", post_sweeps, "smoothing steps after it", at_least(0));
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
