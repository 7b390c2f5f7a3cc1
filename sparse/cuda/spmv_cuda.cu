// Device SpMV. csr_vector: a group of V threads per row (V from the mean row
// length, as in CUSP), a shuffle reduction, y written once. cusparse: the
// vendor's cusparseSpMV (ALG_DEFAULT or CSR_ALG2) with its analysis kept in the
// matrix's analysis cache. The binned SpMV (device default) is spmv_binned.cu.
#include <memory>

#include "sparse/cuda/cusparse_util.cuh"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/spmv_row_blocks.hpp"

namespace saga::cuda {

namespace {
template <int V, class Value>
__global__ void csr_vector_kernel(index_t rows, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                                  const Value* __restrict__ v, const double* __restrict__ x, double alpha,
                                  double beta, double* __restrict__ y) {
  const std::int64_t row = global_thread() / V;
  const int lane = threadIdx.x % V;
  if (row >= rows) return;
  double s = 0.0;
  for (offset_t k = rp[row] + lane; k < rp[row + 1]; k += V) s += static_cast<double>(v[k]) * __ldg(x + ci[k]);
#pragma unroll
  for (int off = V / 2; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off, V);
  if (lane == 0) y[row] = beta == 0.0 ? alpha * s : alpha * s + beta * y[row];
}

template <int V>
void launch_csr_vector(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) {
  const unsigned grid = grid_for(static_cast<std::int64_t>(A.rows()) * V);
  const cudaStream_t st = ::saga::device_stream();
  if (A.single_precision())  // values stored as float, widened to double
    csr_vector_kernel<V><<<grid, kThreads, 0, st>>>(A.rows(), A.row_ptr().data(), A.col().data(),
                                                    A.val_single().data(), x.data(), alpha, beta, y.data());
  else
    csr_vector_kernel<V><<<grid, kThreads, 0, st>>>(A.rows(), A.row_ptr().data(), A.col().data(), A.val().data(),
                                                    x.data(), alpha, beta, y.data());
  SAGA_CUDA_LAUNCH("csr_vector_kernel");
}

// cusparseSpMV state tied to one matrix: descriptor, buffer, preprocessing.
struct CusparseSpmvPlan {
  std::shared_ptr<CusparseCsr> mat;
  std::shared_ptr<Array<char>> buffer;
};
}  // namespace

void spmv_csr_vector(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) {
  if (A.rows() == 0) return;
  switch (spmv_vector_lanes(static_cast<std::int64_t>(A.nnz()), A.rows())) {
    case 2: return launch_csr_vector<2>(alpha, A, x, beta, y);
    case 4: return launch_csr_vector<4>(alpha, A, x, beta, y);
    case 8: return launch_csr_vector<8>(alpha, A, x, beta, y);
    case 16: return launch_csr_vector<16>(alpha, A, x, beta, y);
    default: return launch_csr_vector<32>(alpha, A, x, beta, y);
  }
}

static void spmv_cusparse_alg(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y, bool alg2) {
  if (A.rows() == 0) return;
  const cusparseSpMVAlg_t alg = alg2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_ALG_DEFAULT;
  cusparseHandle_t h = cusparse_handle();
  cusparseDnVecDescr_t dx, dy;
  SAGA_CUSPARSE(cusparseCreateDnVec(&dx, A.cols(), const_cast<double*>(x.data()), CUDA_R_64F));
  SAGA_CUSPARSE(cusparseCreateDnVec(&dy, A.rows(), y.data(), CUDA_R_64F));
  auto& plan = A.analysis<CusparseSpmvPlan>(alg2 ? "cusparse_spmv_alg2" : "cusparse_spmv", [&](const CsrMatrix& M) {
    CusparseSpmvPlan p;
    p.mat = std::make_shared<CusparseCsr>(M);
    std::size_t bytes = 0;
    SAGA_CUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, p.mat->d, dx, &beta, dy,
                                          CUDA_R_64F, alg, &bytes));
    p.buffer = std::make_shared<Array<char>>(bytes ? bytes : 1, Space::device, "cuSPARSE SpMV buffer");
    SAGA_CUSPARSE(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, p.mat->d, dx, &beta, dy,
                                          CUDA_R_64F, alg, p.buffer->data()));
    return p;
  });
  SAGA_CUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, plan.mat->d, dx, &beta, dy, CUDA_R_64F,
                             alg, plan.buffer->data()));
  cusparseDestroyDnVec(dx);
  cusparseDestroyDnVec(dy);
}

void spmv_cusparse(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) {
  spmv_cusparse_alg(alpha, A, x, beta, y, false);
}

namespace {
struct CsrVector {
  static constexpr const char* name = "csr_vector";
  static constexpr const char* summary = "V threads per row, V from the mean row length (the default before binned)";
  static constexpr bool runs_on_host = false, runs_on_device = true;
  using Params = NoParams;
  static std::unique_ptr<SpmvAlgorithm> make(const Params&) {
    return std::make_unique<SpmvFunction>(&spmv_csr_vector);
  }
};
class CusparseAlgorithm final : public SpmvAlgorithm {
 public:
  explicit CusparseAlgorithm(bool alg2) : alg2_(alg2) {}
  void apply(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) const override {
    spmv_cusparse_alg(alpha, A, x, beta, y, alg2_);
  }

 private:
  bool alg2_;
};
struct CusparseSpmv {
  static constexpr const char* name = "cusparse";
  static constexpr const char* summary = "cusparseSpMV with its analysis cached on the matrix";
  static constexpr bool runs_on_host = false, runs_on_device = true;
  struct Params {
    std::string alg = "default";
    template <class V>
    void visit(V& v) {
      v("alg", alg, "cuSPARSE algorithm: default or csr_alg2 (merge-based, for irregular rows)",
        one_of({"default", "csr_alg2"}));
    }
  };
  static std::unique_ptr<SpmvAlgorithm> make(const Params& p) {
    return std::make_unique<CusparseAlgorithm>(p.alg == "csr_alg2");
  }
};
}  // namespace
void add_spmv_csr_vector(SpmvRegistry& r) { r.add<CsrVector>(); }
void add_spmv_cusparse(SpmvRegistry& r) { r.add<CusparseSpmv>(); }

}  // namespace saga::cuda
