#include "sparse/cuda/cusparse_util.cuh"

#include "core/executor.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops_functors.hpp"

namespace saga::cuda {

namespace {
void* create_handle(const Executor& exec) {
  cusparseHandle_t handle;
  SAGA_CUSPARSE(cusparseCreate(&handle));
  SAGA_CUSPARSE(cusparseSetStream(handle, static_cast<cudaStream_t>(exec.stream())));
  return handle;
}
void destroy_handle(void* h) { cusparseDestroy(static_cast<cusparseHandle_t>(h)); }
}  // namespace

cusparseHandle_t cusparse_handle() {
  return static_cast<cusparseHandle_t>(
      active_executor(Space::device)->library_handle("cusparse", &create_handle, &destroy_handle));
}

CusparseCsr::CusparseCsr(const CsrMatrix& A) {
  // cuSPARSE wants non-null pointers even for empty arrays.
  void* col = const_cast<index_t*>(A.col().data());
  if constexpr (kCusparseWideColumns) {
    wide_col = Array<std::int64_t>(static_cast<std::size_t>(A.nnz()), Space::device, "cuSPARSE 64-bit columns");
    parallel_for(Space::device, A.nnz(), functors::WidenIndex{A.col().data(), wide_col.data()});
    col = wide_col.data();
  }
  SAGA_CUSPARSE(cusparseCreateCsr(&d, A.rows(), A.cols(), A.nnz(), const_cast<offset_t*>(A.row_ptr().data()), col,
                                  const_cast<double*>(A.val().data()), kCusparseIndexType, kCusparseIndexType,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
}

CusparseCsr::~CusparseCsr() {
  if (d) cusparseDestroySpMat(d);
}

}  // namespace saga::cuda
