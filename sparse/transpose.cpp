#include "sparse/transpose.hpp"

#include "core/dispatch.hpp"
#include "sparse/cuda/kernels.hpp"
#include "sparse/host/kernels.hpp"

namespace saga {

CsrMatrix transpose(const CsrMatrix& A) {
  if (A.space() == Space::host) return host::transpose(A);
  SAGA_DEVICE_CALL(return cuda::transpose(A));
}

}  // namespace saga
