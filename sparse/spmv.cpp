#include "sparse/spmv.hpp"

#include <array>

#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

// The SpMV components: one line each (the add_* function its file defines).
#define SAGA_SPMV_HOST_COMPONENTS(X) X(host, spmv_omp_rows)
#define SAGA_SPMV_DEVICE_COMPONENTS(X) \
  X(cuda, spmv_csr_vector)             \
  X(cuda, spmv_cusparse)

namespace saga {

#define SAGA_DECLARE(ns, name) namespace ns { void add_##name(SpmvRegistry&); }
SAGA_SPMV_HOST_COMPONENTS(SAGA_DECLARE)
#ifdef SAGA_HAVE_CUDA
SAGA_SPMV_DEVICE_COMPONENTS(SAGA_DECLARE)
#endif
#undef SAGA_DECLARE

const SpmvRegistry& spmv_registry() {
  static const SpmvRegistry r = [] {
    SpmvRegistry reg("SpMV algorithm", "spmv");
#define SAGA_ADD(ns, name) ns::add_##name(reg);
    SAGA_SPMV_HOST_COMPONENTS(SAGA_ADD)
    reg.set_default("omp_rows", Space::host);
#ifdef SAGA_HAVE_CUDA
    SAGA_SPMV_DEVICE_COMPONENTS(SAGA_ADD)
    reg.set_default("csr_vector", Space::device);
#endif
#undef SAGA_ADD
    return reg;
  }();
  return r;
}

namespace {
void check(const CsrMatrix& A, const Vector& x, const Vector& y) {
  SAGA_REQUIRE(x.size() == static_cast<std::size_t>(A.cols()), "SpMV: x has {} entries but A has {} columns",
               x.size(), A.cols());
  SAGA_REQUIRE(y.size() == static_cast<std::size_t>(A.rows()), "SpMV: y has {} entries but A has {} rows", y.size(),
               A.rows());
  SAGA_REQUIRE(x.space() == A.space() && y.space() == A.space(), "SpMV: A, x and y must live in the same space");
}
// The default algorithm of each space, made once (the hot path of every solve).
const SpmvAlgorithm& default_algorithm(Space s) {
  static const std::array<std::unique_ptr<SpmvAlgorithm>, 2> defaults = [] {
    std::array<std::unique_ptr<SpmvAlgorithm>, 2> d;
    for (Space sp : {Space::host, Space::device})
      if (!spmv_registry().default_name(sp).empty())
        d[static_cast<int>(sp)] = spmv_registry().create(Component(), sp);
    return d;
  }();
  const auto& a = defaults[static_cast<int>(s)];
  if (!a) throw UnavailableError(fmt::format("SpMV: no algorithm for {} data in this build", to_string(s)));
  return *a;
}
}  // namespace

void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) {
  check(A, x, y);
  default_algorithm(A.space()).apply(alpha, A, x, beta, y);
}

void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y, const Component& algorithm) {
  check(A, x, y);
  spmv_registry().create(algorithm, A.space())->apply(alpha, A, x, beta, y);
}

}  // namespace saga
