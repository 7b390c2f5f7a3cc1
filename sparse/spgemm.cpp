#include "sparse/spgemm.hpp"

#include <map>
#include <utility>

#include "core/dispatch.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

namespace saga {

namespace {
struct Registry {
  std::map<std::pair<Space, std::string>, SpgemmFn> fns;
  std::map<Space, std::string> defaults;
};
Registry& registry() {
  static Registry r = [] {
    Registry reg;
    reg.fns[{Space::host, "gustavson"}] = &host::spgemm_gustavson;
    reg.defaults[Space::host] = "gustavson";
#ifdef SAGA_HAVE_CUDA
    reg.fns[{Space::device, "esc"}] = &cuda::spgemm_esc;
    reg.fns[{Space::device, "cusparse"}] = &cuda::spgemm_cusparse;
    reg.defaults[Space::device] = "esc";
#endif
    return reg;
  }();
  return r;
}
}  // namespace

void register_spgemm(const std::string& name, Space space, SpgemmFn fn) { registry().fns[{space, name}] = fn; }

std::vector<std::string> spgemm_algorithms(Space space) {
  std::vector<std::string> out;
  for (const auto& [key, fn] : registry().fns)
    if (key.first == space) out.push_back(key.second);
  return out;
}

CsrMatrix spgemm(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats) {
  SAGA_REQUIRE(A.cols() == B.rows(), "SpGEMM: inner dimensions differ (A is {}x{}, B is {}x{})", A.rows(), A.cols(),
               B.rows(), B.cols());
  SAGA_REQUIRE(A.space() == B.space(), "SpGEMM: A and B must live in the same space");
  Registry& reg = registry();
  auto d = reg.defaults.find(A.space());
  if (d == reg.defaults.end())
    throw UnavailableError(fmt::format("SpGEMM: no algorithm for {} data in this build", to_string(A.space())));
  const std::string name = opt.algorithm.empty() || opt.algorithm == "auto" ? d->second : opt.algorithm;
  auto it = reg.fns.find({A.space(), name});
  SAGA_REQUIRE(it != reg.fns.end(), "SpGEMM: unknown algorithm '{}' for {} data", name, to_string(A.space()));
  return it->second(A, B, opt, stats);
}

std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B) {
  SAGA_REQUIRE(A.cols() == B.rows(), "SpGEMM: inner dimensions differ");
  if (A.space() == Space::host) return host::spgemm_products(A, B);
  SAGA_DEVICE_CALL(return cuda::spgemm_products(A, B));
}

}  // namespace saga
