#include "problems/structured.hpp"

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

CsrMatrix poisson(Stencil s, index_t N, Space space) {
  SAGA_REQUIRE(N >= 1, "Poisson grid size N must be at least 1 (got {})", N);
  const index_t rows = checked_offset(poisson_rows(s, N), "Poisson grid");
  checked_offset(poisson_nnz(s, N), "Poisson matrix");
  if (space == Space::device) SAGA_DEVICE_CALL(return cuda::poisson(s, N, rows));

  Array<offset_t> row_ptr(static_cast<std::size_t>(rows) + 1, Space::host, "Poisson row_ptr");
  row_ptr[0] = 0;
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < rows; ++i) row_ptr[i + 1] = stencil_row(s, N, i, nullptr, nullptr);
  std::partial_sum(row_ptr.data(), row_ptr.data() + rows + 1, row_ptr.data());
  Array<index_t> col(row_ptr[rows], Space::host, "Poisson col");
  Array<double> val(row_ptr[rows], Space::host, "Poisson val");
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < rows; ++i) stencil_row(s, N, i, col.data() + row_ptr[i], val.data() + row_ptr[i]);
  return CsrMatrix(rows, rows, std::move(row_ptr), std::move(col), std::move(val));
}

}  // namespace saga
