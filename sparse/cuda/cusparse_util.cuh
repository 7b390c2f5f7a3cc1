#pragma once
// cuSPARSE handle (one per executor, on its stream) and error checks.
#include <cusparse.h>

#include "core/cuda_check.cuh"
#include "sparse/csr.hpp"

#define SAGA_CUSPARSE(call)                                                                          \
  do {                                                                                               \
    cusparseStatus_t saga_st_ = (call);                                                              \
    if (saga_st_ != CUSPARSE_STATUS_SUCCESS)                                                         \
      throw ::saga::DeviceError(fmt::format("cuSPARSE error {} in {} [{}:{}]",                      \
                                            cusparseGetErrorString(saga_st_), #call, __FILE__, __LINE__)); \
  } while (0)

namespace saga::cuda {
// cuSPARSE's index type for saga's offsets. cuSPARSE wants row offsets and
// columns of one width, so a 64-bit-offset build hands it its columns widened
// to 64 bits (a copy held by the descriptor; saga's own kernels read the 32-bit ones).
static_assert(sizeof(index_t) == 4, "update the cuSPARSE column index type");
inline constexpr bool kCusparseWideColumns = sizeof(offset_t) == 8;
inline constexpr cusparseIndexType_t kCusparseIndexType = kCusparseWideColumns ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
// The handle of the active device executor.
cusparseHandle_t cusparse_handle();
// A generic-API descriptor of a CSR matrix (non-owning); destroyed with the object.
struct CusparseCsr {
  cusparseSpMatDescr_t d = nullptr;
  Array<std::int64_t> wide_col;  // the columns in 64 bits where kCusparseWideColumns
  explicit CusparseCsr(const CsrMatrix& A);
  ~CusparseCsr();
  CusparseCsr(const CusparseCsr&) = delete;
  CusparseCsr& operator=(const CusparseCsr&) = delete;
};
}  // namespace saga::cuda
