#pragma once
// Cycle shapes of the multigrid cycle, behind the cycle registry (amg.cycle):
// a shape says which cycles visit the next coarser level, in order, each time a
// level is visited. V: one V; W: two W; F: one F then one V.
#include <memory>
#include <vector>

#include "core/registry.hpp"

namespace saga {

class CycleShape {
 public:
  virtual ~CycleShape() = default;
  // The shapes of the coarse-level visits made from a level visited by this one.
  virtual std::vector<const CycleShape*> coarse_visits() const = 0;
};

using CycleRegistry = Registry<CycleShape>;
const CycleRegistry& cycles();

}  // namespace saga
