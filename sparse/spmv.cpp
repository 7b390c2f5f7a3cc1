#include "sparse/spmv.hpp"

#include <array>

#include "core/parallel_for.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"
#include "sparse/vector_ops.hpp"

// The SpMV components: one line each (the add_* function its file defines).
#define SAGA_SPMV_HOST_COMPONENTS(X) X(host, spmv_omp_rows)
#define SAGA_SPMV_DEVICE_COMPONENTS(X) \
  X(cuda, spmv_binned)                 \
  X(cuda, spmv_scalar)                 \
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
    reg.set_default("binned", Space::device);
#endif
#undef SAGA_ADD
    return reg;
  }();
  return r;
}

void SpmvAlgorithm::apply_add(double alpha, const CsrMatrix& A, const Vector& x, double beta, const Vector& z,
                              Vector& y) const {
  if (&z != &y) copy(z, y);
  apply(alpha, A, x, beta, y);
}

void SpmvAlgorithm::relax(const CsrMatrix& A, const Vector& x, const Vector& b, const Vector& w, double omega,
                          Vector& x_out, Scalars* dot, int slot) const {
  apply_add(-1.0, A, x, 1.0, b, x_out);  // x_out holds r = b - A x, then w .* r, then x + omega w .* r
  multiply(w, x_out, x_out);
  axpby(1.0, x, omega, x_out);
  if (dot) dot_into(b, x_out, *dot, slot);
}

void SpmvAlgorithm::apply_dot(const CsrMatrix& A, const Vector& x, Vector& y, Scalars& s, int slot) const {
  apply(1.0, A, x, 0.0, y);
  dot_into(x, y, s, slot);
}

void SpmvAlgorithm::smoothed_prolongation(const CsrMatrix& A, const Vector& w, double omega,
                                          const Array<index_t>& agg, const Vector& scale, const Vector& e,
                                          const Vector& x, Vector& x_out) const {
  const Space s = A.space();
  Vector u(x.size(), s, "prolongation T e"), y(x.size(), s, "prolongation A T e");
  parallel_for(s, static_cast<std::int64_t>(u.size()),
               functors::GatherAggregated{agg.data(), scale.data(), e.data(), u.data()});
  apply(1.0, A, u, 0.0, y);
  if (&x_out != &x) copy(x, x_out);
  add_scaled_product(-omega, w, y, x_out);  // x - omega w .* (A u)
  axpby(1.0, u, 1.0, x_out);                // ... + u
}

void SpmvAlgorithm::relax_from_zero(const CsrMatrix& A, const Vector& b, const Vector& w, double omega, Vector& x,
                                    Vector& r) const {
  multiply(w, b, x, omega);  // x_j = omega (w_j b_j): the fused kernels form the same value
  apply_add(-1.0, A, x, 1.0, b, r);
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

void spmv_add(double alpha, const CsrMatrix& A, const Vector& x, double beta, const Vector& z, Vector& y) {
  check(A, x, y);
  SAGA_REQUIRE(z.size() == y.size() && z.space() == y.space(), "SpMV: z has {} entries, A has {} rows", z.size(),
               A.rows());
  SAGA_REQUIRE(x.data() != y.data() || x.empty(), "SpMV: x and y must be distinct vectors");
  default_algorithm(A.space()).apply_add(alpha, A, x, beta, z, y);
}

void spmv_relax(const CsrMatrix& A, const Vector& x, const Vector& b, const Vector& w, double omega, Vector& x_out,
                Scalars* dot, int slot) {
  SAGA_REQUIRE(A.rows() == A.cols(), "relaxation: A is {}x{}, not square", A.rows(), A.cols());
  check(A, x, x_out);
  SAGA_REQUIRE(b.size() == x.size() && w.size() == x.size() && b.space() == x.space() && w.space() == x.space(),
               "relaxation: b ({}) and w ({}) must match x ({} entries, same space)", b.size(), w.size(), x.size());
  SAGA_REQUIRE(&x != &x_out && (x.empty() || x.data() != x_out.data()), "relaxation: x_out must not be x");
  if (dot)
    SAGA_REQUIRE(dot->space() == A.space() && slot >= 0 && static_cast<std::size_t>(slot) < dot->size(),
                 "relaxation with dot: slot {} of {} scalars on the {}", slot, dot->size(), to_string(dot->space()));
  default_algorithm(A.space()).relax(A, x, b, w, omega, x_out, dot, slot);
}

void spmv_dot(const CsrMatrix& A, const Vector& x, Vector& y, Scalars& s, int slot) {
  check(A, x, y);
  SAGA_REQUIRE(A.rows() == A.cols(), "SpMV with dot: A is {}x{}, not square", A.rows(), A.cols());
  SAGA_REQUIRE(s.space() == A.space() && slot >= 0 && static_cast<std::size_t>(slot) < s.size(),
               "SpMV with dot: slot {} of {} scalars on the {}", slot, s.size(), to_string(s.space()));
  default_algorithm(A.space()).apply_dot(A, x, y, s, slot);
}

void spmv_smoothed_prolongation(const CsrMatrix& A, const Vector& w, double omega, const Array<index_t>& agg,
                                const Vector& scale, const Vector& e, const Vector& x, Vector& x_out) {
  SAGA_REQUIRE(A.rows() == A.cols(), "smoothed prolongation: A is {}x{}, not square", A.rows(), A.cols());
  const std::size_t n = static_cast<std::size_t>(A.rows());
  SAGA_REQUIRE(w.size() == n && agg.size() == n && x.size() == n && x_out.size() == n,
               "smoothed prolongation: w ({}), agg ({}), x ({}) and x_out ({}) must have A's {} rows", w.size(),
               agg.size(), x.size(), x_out.size(), n);
  SAGA_REQUIRE(scale.size() == e.size(), "smoothed prolongation: {} scales for {} coarse entries", scale.size(),
               e.size());
  const Space s = A.space();
  SAGA_REQUIRE(w.space() == s && agg.space() == s && scale.space() == s && e.space() == s && x.space() == s &&
                   x_out.space() == s,
               "smoothed prolongation: every operand on the {}", to_string(s));
  default_algorithm(s).smoothed_prolongation(A, w, omega, agg, scale, e, x, x_out);
}

void spmv_relax_from_zero(const CsrMatrix& A, const Vector& b, const Vector& w, double omega, Vector& x, Vector& r) {
  SAGA_REQUIRE(A.rows() == A.cols(), "relaxation from zero: A is {}x{}, not square", A.rows(), A.cols());
  check(A, x, r);
  SAGA_REQUIRE(b.size() == x.size() && w.size() == x.size() && b.space() == x.space() && w.space() == x.space(),
               "relaxation from zero: b ({}) and w ({}) must match x ({} entries, same space)", b.size(), w.size(),
               x.size());
  SAGA_REQUIRE(x.empty() || (x.data() != r.data() && x.data() != b.data() && r.data() != b.data()),
               "relaxation from zero: x, b and r must be distinct vectors");
  default_algorithm(A.space()).relax_from_zero(A, b, w, omega, x, r);
}

std::size_t spmv_prepare(const CsrMatrix& A, std::size_t extra_bytes) {
  return default_algorithm(A.space()).prepare(A, extra_bytes);
}

std::size_t spmv_prepare_offsets(const CsrMatrix& A, std::size_t extra_bytes) {
  return default_algorithm(A.space()).prepare_offsets(A, extra_bytes);
}

void spmv_release(const CsrMatrix& A) { default_algorithm(A.space()).release(A); }

std::size_t spmv_kept_bytes(const CsrMatrix& A) { return default_algorithm(A.space()).kept_bytes(A); }

void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) {
  check(A, x, y);
  default_algorithm(A.space()).apply(alpha, A, x, beta, y);
}

void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y, const Component& algorithm) {
  check(A, x, y);
  spmv_registry().create(algorithm, A.space())->apply(alpha, A, x, beta, y);
}

}  // namespace saga
