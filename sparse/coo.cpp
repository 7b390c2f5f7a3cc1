#include "sparse/coo.hpp"

#include "core/dispatch.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

namespace saga {

CsrMatrix coo_to_csr(const CooMatrix& coo) {
  SAGA_REQUIRE(coo.row.size() == coo.col.size() && coo.col.size() == coo.val.size(),
               "COO: {} rows, {} cols, {} values given", coo.row.size(), coo.col.size(), coo.val.size());
  SAGA_REQUIRE(coo.rows >= 0 && coo.cols >= 0, "COO: negative shape {}x{}", coo.rows, coo.cols);
  if (coo.space() == Space::host) return host::coo_to_csr(coo);
  SAGA_DEVICE_CALL(return cuda::coo_to_csr(coo));
}

CooMatrix csr_to_coo(const CsrMatrix& A) {
  if (A.space() == Space::host) return host::csr_to_coo(A);
  SAGA_DEVICE_CALL(return cuda::csr_to_coo(A));
}

}  // namespace saga
