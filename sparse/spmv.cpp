#include "sparse/spmv.hpp"

#include <map>
#include <utility>

#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

namespace saga {

namespace {
struct Registry {
  std::map<std::pair<Space, std::string>, SpmvFn> fns;
  std::map<Space, std::string> defaults;
};
Registry& registry() {
  static Registry r = [] {
    Registry reg;
    reg.fns[{Space::host, "omp_rows"}] = &host::spmv;
    reg.defaults[Space::host] = "omp_rows";
#ifdef SAGA_HAVE_CUDA
    reg.fns[{Space::device, "csr_vector"}] = &cuda::spmv_csr_vector;
    reg.fns[{Space::device, "cusparse"}] = &cuda::spmv_cusparse;
    reg.defaults[Space::device] = "csr_vector";
#endif
    return reg;
  }();
  return r;
}
}  // namespace

void register_spmv(const std::string& name, Space space, SpmvFn fn) { registry().fns[{space, name}] = fn; }

std::vector<std::string> spmv_algorithms(Space space) {
  std::vector<std::string> out;
  for (const auto& [key, fn] : registry().fns)
    if (key.first == space) out.push_back(key.second);
  return out;
}

void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y, const std::string& algorithm) {
  SAGA_REQUIRE(x.size() == static_cast<std::size_t>(A.cols()), "SpMV: x has {} entries but A has {} columns",
               x.size(), A.cols());
  SAGA_REQUIRE(y.size() == static_cast<std::size_t>(A.rows()), "SpMV: y has {} entries but A has {} rows", y.size(),
               A.rows());
  SAGA_REQUIRE(x.space() == A.space() && y.space() == A.space(), "SpMV: A, x and y must live in the same space");
  Registry& reg = registry();
  auto d = reg.defaults.find(A.space());
  if (d == reg.defaults.end())
    throw UnavailableError(fmt::format("SpMV: no algorithm for {} data in this build", to_string(A.space())));
  const std::string name = algorithm.empty() ? d->second : algorithm;
  auto it = reg.fns.find({A.space(), name});
  SAGA_REQUIRE(it != reg.fns.end(), "SpMV: unknown algorithm '{}' for {} data", name, to_string(A.space()));
  it->second(alpha, A, x, beta, y);
}

}  // namespace saga
