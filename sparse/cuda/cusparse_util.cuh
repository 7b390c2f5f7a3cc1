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
// cuSPARSE's names for saga's index widths (core/types.hpp). Whether a routine
// takes 64-bit row offsets beside 32-bit columns is cuSPARSE's to say: it
// reports CUSPARSE_STATUS_NOT_SUPPORTED, which SAGA_CUSPARSE turns into an error.
static_assert(sizeof(index_t) == 4, "update the cuSPARSE column index type");
inline constexpr cusparseIndexType_t kCusparseOffsetType = sizeof(offset_t) == 8 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
inline constexpr cusparseIndexType_t kCusparseIndexType = CUSPARSE_INDEX_32I;
// The handle of the active device executor.
cusparseHandle_t cusparse_handle();
// A generic-API descriptor of a CSR matrix (non-owning); destroyed with the object.
struct CusparseCsr {
  cusparseSpMatDescr_t d = nullptr;
  explicit CusparseCsr(const CsrMatrix& A);
  ~CusparseCsr();
  CusparseCsr(const CusparseCsr&) = delete;
  CusparseCsr& operator=(const CusparseCsr&) = delete;
};
}  // namespace saga::cuda
