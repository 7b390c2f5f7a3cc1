#include "solver/cycle.hpp"

namespace saga {

namespace {
class VShape final : public CycleShape {
 public:
  std::vector<const CycleShape*> coarse_visits() const override { return {this}; }
};
class WShape final : public CycleShape {
 public:
  std::vector<const CycleShape*> coarse_visits() const override { return {this, this}; }
};
class FShape final : public CycleShape {
 public:
  std::vector<const CycleShape*> coarse_visits() const override { return {this, &v_}; }

 private:
  VShape v_;
};

struct V {
  static constexpr const char* name = "V";
  static constexpr const char* summary = "V-cycle: one visit of each coarser level";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<CycleShape> make(const Params&) { return std::make_unique<VShape>(); }
};
struct W {
  static constexpr const char* name = "W";
  static constexpr const char* summary = "W-cycle: two visits of each coarser level";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<CycleShape> make(const Params&) { return std::make_unique<WShape>(); }
};
struct F {
  static constexpr const char* name = "F";
  static constexpr const char* summary = "F-cycle: an F-cycle then a V-cycle on each coarser level";
  static constexpr bool runs_on_host = true, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<CycleShape> make(const Params&) { return std::make_unique<FShape>(); }
};
}  // namespace

const CycleRegistry& cycles() {
  static const CycleRegistry r = [] {
    CycleRegistry reg("cycle", "amg.cycle");
    reg.add<V>().add<W>().add<F>();
    reg.set_default("V");
    return reg;
  }();
  return r;
}

}  // namespace saga
