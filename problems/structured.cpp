#include "problems/structured.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/dispatch.hpp"
#include "problems/cuda/kernels.hpp"

namespace saga {

Stencil parse_stencil(const std::string& name) {
  if (name == "2d5" || name == "poisson2d_5pt") return Stencil::fd2d_5pt;
  if (name == "2d9" || name == "poisson2d_9pt") return Stencil::fe2d_9pt;
  if (name == "3d7" || name == "poisson3d_7pt") return Stencil::fd3d_7pt;
  if (name == "3d27" || name == "poisson3d_27pt") return Stencil::fe3d_27pt;
  SAGA_REQUIRE(false, "unknown stencil '{}' (expected 2d5, 2d9, 3d7 or 3d27)", name);
}

std::string stencil_name(Stencil s) {
  switch (s) {
    case Stencil::fd2d_5pt: return "2d5";
    case Stencil::fe2d_9pt: return "2d9";
    case Stencil::fd3d_7pt: return "3d7";
    default: return "3d27";
  }
}

std::int64_t poisson_rows(Stencil s, index_t N) {
  const std::int64_t n = N;
  return stencil_dim(s) == 2 ? n * n : n * n * n;
}

std::int64_t poisson_nnz(Stencil s, index_t N) {
  const std::int64_t n = N;
  switch (s) {
    case Stencil::fd2d_5pt: return 5 * n * n - 4 * n;
    case Stencil::fe2d_9pt: return (3 * n - 2) * (3 * n - 2);
    case Stencil::fd3d_7pt: return 7 * n * n * n - 6 * n * n;
    default: return (3 * n - 2) * (3 * n - 2) * (3 * n - 2);
  }
}

StencilSpec make_stencil_spec(Stencil s, const Anisotropy& an, const CoefficientField& kappa, bool neumann) {
  StencilSpec spec;
  spec.shape = s;
  spec.kappa = kappa;
  SAGA_REQUIRE(an.epsilon > 0 && std::isfinite(an.epsilon), "anisotropy epsilon must be positive and finite (got {})",
               an.epsilon);
  SAGA_REQUIRE(std::isfinite(an.angle_degrees), "anisotropy angle must be finite");
  SAGA_REQUIRE(kappa.contrast > 0 && std::isfinite(kappa.contrast), "coefficient contrast must be positive (got {})",
               kappa.contrast);
  SAGA_REQUIRE(kappa.blocks >= 1, "coefficient blocks must be at least 1 (got {})", kappa.blocks);
  const bool anisotropic = an.epsilon != 1.0;
  double K[9];
  an.tensor(K);
  const double a = K[0], b = K[1], c = K[4];
  auto w = [&](int dx, int dy, int dz) -> double& { return spec.weight[stencil_offset_index(dx, dy, dz)]; };
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (!(dx == 0 && dy == 0 && dz == 0) && stencil_has(s, dx, dy, dz)) w(dx, dy, dz) = -1.0;
  if (anisotropic) {
    switch (s) {
      case Stencil::fd2d_5pt:
      case Stencil::fd3d_7pt:
        // -a u_xx - 2b u_xy - c u_yy (- u_zz): central differences, the mixed
        // derivative on the xy corners.
        w(-1, 0, 0) = w(1, 0, 0) = -a;
        w(0, -1, 0) = w(0, 1, 0) = -c;
        w(1, 1, 0) = w(-1, -1, 0) = -b / 2;
        w(1, -1, 0) = w(-1, 1, 0) = b / 2;
        break;
      case Stencil::fe2d_9pt:
        // 3 x the assembled bilinear (Q1) element stencil of -div(K grad u):
        // isotropic K gives 8 / -1.
        w(-1, 0, 0) = w(1, 0, 0) = -2 * a + c;
        w(0, -1, 0) = w(0, 1, 0) = a - 2 * c;
        w(1, 1, 0) = w(-1, -1, 0) = -(a + c) / 2 - 1.5 * b;
        w(1, -1, 0) = w(-1, 1, 0) = -(a + c) / 2 + 1.5 * b;
        break;
      default:
        SAGA_REQUIRE(false,
                     "anisotropy is not defined for the 27-point stencil (it is not a discretisation of a "
                     "diffusion tensor); use 3d7 or a P1 finite-element problem (type: fe)");
    }
    for (double& x : spec.weight)
      if (std::abs(x) < 1e-14 * (a + c)) x = 0.0;  // cos(90 deg) is not exactly 0
  }
  if (!kappa.is_constant())
    for (double x : spec.weight)
      SAGA_REQUIRE(x <= 0.0,
                   "a jumping coefficient needs non-positive off-diagonal stencil weights, and this anisotropy gives "
                   "positive ones; use a P1 finite-element problem (type: fe) to combine them");
  if (neumann)
    for (double x : spec.weight)
      SAGA_REQUIRE(x <= 0.0,
                   "a Neumann boundary needs non-positive off-diagonal stencil weights (else the zero-row-sum matrix "
                   "need not be positive semi-definite), and this anisotropy gives positive ones");
  spec.neumann = neumann;
  return spec;
}

std::int64_t poisson_nnz(const StencilSpec& spec, index_t N) {
  // Each offset d of the pattern contributes prod_k (N - |d_k|) entries.
  const bool three_d = stencil_dim(spec.shape) == 3;
  const std::int64_t n = N;
  std::int64_t nnz = poisson_rows(spec.shape, N);
  for (int dz = three_d ? -1 : 0; dz <= (three_d ? 1 : 0); ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (spec.has(dx, dy, dz))
          nnz += std::max<std::int64_t>(0, n - std::abs(dx)) * std::max<std::int64_t>(0, n - std::abs(dy)) *
                 (three_d ? std::max<std::int64_t>(0, n - std::abs(dz)) : 1);
  return nnz;
}

CsrMatrix poisson(Stencil s, index_t N, Space space) { return poisson(make_stencil_spec(s), N, space); }

CsrMatrix poisson(const StencilSpec& spec, index_t N, Space space) {
  SAGA_REQUIRE(N >= 1, "Poisson grid size N must be at least 1 (got {})", N);
  const Stencil s = spec.shape;
  const index_t rows = checked_index(poisson_rows(s, N), "Poisson grid");
  checked_offset(poisson_nnz(spec, N), "Poisson matrix");
  if (space == Space::device) SAGA_DEVICE_CALL(return cuda::poisson(spec, N, rows));

  Array<offset_t> row_ptr(static_cast<std::size_t>(rows) + 1, Space::host, "Poisson row_ptr");
  row_ptr[0] = 0;
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < rows; ++i) row_ptr[i + 1] = stencil_row(spec, N, i, nullptr, nullptr);
  std::partial_sum(row_ptr.data(), row_ptr.data() + rows + 1, row_ptr.data());
  Array<index_t> col(row_ptr[rows], Space::host, "Poisson col");
  Array<double> val(row_ptr[rows], Space::host, "Poisson val");
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < rows; ++i) stencil_row(spec, N, i, col.data() + row_ptr[i], val.data() + row_ptr[i]);
  return CsrMatrix(rows, rows, std::move(row_ptr), std::move(col), std::move(val));
}

}  // namespace saga
