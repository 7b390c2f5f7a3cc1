// cusparseSpGEMM (generic API, ALG_DEFAULT) wrapped as a saga SpGEMM algorithm,
// for comparison. Its time includes work estimation and buffer allocation, since
// a user of it pays them.
#include "core/parallel_for.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/cuda/cusparse_util.cuh"
#include "sparse/cuda/kernels.hpp"

namespace saga::cuda {

namespace {
struct DeviceBuffer {
  void* p = nullptr;
  DeviceBuffer(std::size_t bytes, const char* what) : p(bytes ? device::allocate(bytes, what) : nullptr) {}
  ~DeviceBuffer() { device::release(p, device::current_stream()); }
};
}  // namespace

CsrMatrix spgemm_cusparse(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions&, SpgemmStats* stats) {
  if (A.nnz() == 0 || B.nnz() == 0) {
    if (stats) *stats = SpgemmStats{};
    return CsrMatrix::zeros(A.rows(), B.cols(), Space::device);
  }
  cusparseHandle_t h = cusparse_handle();
  CusparseCsr a(A), b(B);
  Array<offset_t> row_ptr(static_cast<std::size_t>(A.rows()) + 1, Space::device, "cuSPARSE SpGEMM row_ptr");
  cusparseSpMatDescr_t c;
  SAGA_CUSPARSE(cusparseCreateCsr(&c, A.rows(), B.cols(), 0, row_ptr.data(), nullptr, nullptr, kCusparseIndexType,
                                  kCusparseIndexType, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  cusparseSpGEMMDescr_t g;
  SAGA_CUSPARSE(cusparseSpGEMM_createDescr(&g));
  const double alpha = 1.0, beta = 0.0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = CUSPARSE_SPGEMM_DEFAULT;
  std::size_t b1 = 0, b2 = 0;
  SAGA_CUSPARSE(cusparseSpGEMM_workEstimation(h, op, op, &alpha, a.d, b.d, &beta, c, CUDA_R_64F, alg, g, &b1, nullptr));
  DeviceBuffer buf1(b1, "cuSPARSE SpGEMM work-estimation buffer");
  SAGA_CUSPARSE(cusparseSpGEMM_workEstimation(h, op, op, &alpha, a.d, b.d, &beta, c, CUDA_R_64F, alg, g, &b1, buf1.p));
  SAGA_CUSPARSE(cusparseSpGEMM_compute(h, op, op, &alpha, a.d, b.d, &beta, c, CUDA_R_64F, alg, g, &b2, nullptr));
  DeviceBuffer buf2(b2, "cuSPARSE SpGEMM compute buffer");
  SAGA_CUSPARSE(cusparseSpGEMM_compute(h, op, op, &alpha, a.d, b.d, &beta, c, CUDA_R_64F, alg, g, &b2, buf2.p));
  std::int64_t rows = 0, cols = 0, nnz = 0;
  SAGA_CUSPARSE(cusparseSpMatGetSize(c, &rows, &cols, &nnz));
  Array<index_t> col(checked_offset(nnz, "cuSPARSE SpGEMM result"), Space::device, "cuSPARSE SpGEMM col");
  Array<double> val(nnz, Space::device, "cuSPARSE SpGEMM val");
  // A 64-bit-offset build receives 64-bit columns (cusparse_util.cuh) and narrows them.
  Array<std::int64_t> wide_col(kCusparseWideColumns ? nnz : 0, Space::device, "cuSPARSE SpGEMM 64-bit col");
  void* col_out = kCusparseWideColumns ? static_cast<void*>(wide_col.data()) : static_cast<void*>(col.data());
  SAGA_CUSPARSE(cusparseCsrSetPointers(c, row_ptr.data(), col_out, val.data()));
  SAGA_CUSPARSE(cusparseSpGEMM_copy(h, op, op, &alpha, a.d, b.d, &beta, c, CUDA_R_64F, alg, g));
  if (kCusparseWideColumns) {
    Array<std::int32_t> bad(nnz, Space::device, "index range flags");  // never set: cuSPARSE's columns are < B.cols()
    parallel_for(Space::device, nnz,
                 functors::NarrowIndex{wide_col.data(), col.data(), bad.data(), 0, std::int64_t{B.cols()} - 1});
  }
  cusparseSpGEMM_destroyDescr(g);
  cusparseDestroySpMat(c);
  if (stats) {
    stats->products = cuda::spgemm_products(A, B);
    stats->nnz_c = nnz;
    stats->slices = 0;
    stats->workspace_bytes = static_cast<std::int64_t>(b1 + b2);
  }
  return CsrMatrix(A.rows(), B.cols(), std::move(row_ptr), std::move(col), std::move(val));
}

namespace {
struct CusparseSpgemm {
  static constexpr const char* name = "cusparse";
  static constexpr const char* summary = "cusparseSpGEMM (ALG_DEFAULT), for comparison";
  static constexpr bool runs_on_host = false, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<SpgemmAlgorithm> make(const Params&) {
    return std::make_unique<SpgemmFunction>(&spgemm_cusparse);
  }
};
}  // namespace
void add_spgemm_cusparse(SpgemmRegistry& r) { r.add<CusparseSpgemm>(); }

}  // namespace saga::cuda
