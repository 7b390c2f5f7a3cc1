#include "sparse/scan.hpp"

#include "core/dispatch.hpp"
#include "sparse/cuda/primitives.hpp"

namespace saga {

namespace {
template <class In, class Out>
void scan(const Array<In>& in, Array<Out>& out) {
  SAGA_REQUIRE(out.size() == in.size() + 1, "scan: output needs {} entries, has {}", in.size() + 1, out.size());
  SAGA_REQUIRE(in.space() == out.space(), "scan: input and output in different spaces");
  if (in.space() == Space::host) {
    Out s = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      out[i] = s;
      s += in[i];
    }
    out[in.size()] = s;
  } else {
    SAGA_DEVICE_CALL(cuda::prim::exclusive_scan_total(in.data(), out.data(), in.size()));
  }
}
}  // namespace

void exclusive_scan_total(const Array<std::int32_t>& in, Array<std::int32_t>& out) { scan(in, out); }
void exclusive_scan_total(const Array<std::int64_t>& in, Array<std::int64_t>& out) { scan(in, out); }
void exclusive_scan_total(const Array<std::int32_t>& in, Array<std::int64_t>& out) { scan(in, out); }

}  // namespace saga
