// The coarsest matrix's Cholesky inverse on the GPU (cuSOLVER potrf + potrs
// with the identity as right-hand side), kept as a dense CSR matrix like the
// host path's. The host path (Eigen) stays for the host backend and for the
// semi-definite case (its pseudo-inverse needs an eigen-decomposition).
#include <cusolverDn.h>

#include "amg/coarse_cholesky.hpp"
#include "core/cuda_check.cuh"
#include "core/executor.hpp"
#include "sparse/cuda/launch.cuh"

#define SAGA_CUSOLVER(call)                                                                                       \
  do {                                                                                                           \
    const cusolverStatus_t saga_st_ = (call);                                                                    \
    if (saga_st_ != CUSOLVER_STATUS_SUCCESS)                                                                     \
      throw ::saga::DeviceError(fmt::format("cuSOLVER call {} failed with status {} ({}:{})", #call,             \
                                            static_cast<int>(saga_st_), __FILE__, __LINE__));                    \
  } while (0)

namespace saga::amg::cuda {

namespace {
using saga::cuda::global_thread;
using saga::cuda::grid_for;
using saga::cuda::grid_stride;
using saga::cuda::kThreads;

void* create_handle(const Executor& exec) {
  cusolverDnHandle_t h;
  SAGA_CUSOLVER(cusolverDnCreate(&h));
  SAGA_CUSOLVER(cusolverDnSetStream(h, static_cast<cudaStream_t>(exec.stream())));
  return h;
}
void destroy_handle(void* h) { cusolverDnDestroy(static_cast<cusolverDnHandle_t>(h)); }
cusolverDnHandle_t handle() {
  return static_cast<cusolverDnHandle_t>(
      active_executor(Space::device)->library_handle("cusolver", &create_handle, &destroy_handle));
}

// M (column-major n x n) = A, and B = I.
__global__ void scatter_kernel(index_t n, const offset_t* __restrict__ rp, const index_t* __restrict__ ci,
                               const double* __restrict__ v, double* __restrict__ M, double* __restrict__ B) {
  const std::int64_t r = global_thread();
  if (r >= n) return;
  for (offset_t k = rp[r]; k < rp[r + 1]; ++k) M[static_cast<std::int64_t>(ci[k]) * n + r] = v[k];
  B[r * n + r] = 1.0;
}
// The inverse (column-major X) as a dense CSR matrix: row i holds X(i, 0..n).
__global__ void dense_csr_kernel(index_t n, const double* __restrict__ X, offset_t* __restrict__ rp,
                                 index_t* __restrict__ ci, double* __restrict__ v) {
  const std::int64_t total = static_cast<std::int64_t>(n) * n;
  for (std::int64_t k = global_thread(); k < total; k += grid_stride()) {
    const std::int64_t i = k / n, j = k % n;
    ci[k] = static_cast<index_t>(j);
    v[k] = X[j * n + i];
    if (j == 0) rp[i] = static_cast<offset_t>(i * n);
  }
  if (global_thread() == 0) rp[n] = static_cast<offset_t>(total);
}
}  // namespace

bool cholesky_inverse(const CsrMatrix& A, CsrMatrix& inverse) {
  const index_t n = A.rows();
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  const cudaStream_t st = ::saga::device_stream();
  Array<double> M = Array<double>::zeros(nn, Space::device, "coarse matrix (dense)");
  Array<double> X = Array<double>::zeros(nn, Space::device, "coarse inverse (dense)");
  scatter_kernel<<<grid_for(n), kThreads, 0, st>>>(n, A.row_ptr().data(), A.col().data(), A.val().data(), M.data(),
                                                    X.data());
  SAGA_CUDA_LAUNCH("coarse scatter");
  cusolverDnHandle_t h = handle();
  int lwork = 0;
  SAGA_CUSOLVER(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, M.data(), n, &lwork));
  Array<double> work(static_cast<std::size_t>(lwork > 0 ? lwork : 1), Space::device, "cuSOLVER workspace");
  Array<int> info = Array<int>::zeros(1, Space::device, "cuSOLVER info");
  SAGA_CUSOLVER(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, M.data(), n, work.data(), lwork, info.data()));
  if (info.get(0) != 0) return false;  // not positive definite: the host path decides
  SAGA_CUSOLVER(cusolverDnDpotrs(h, CUBLAS_FILL_MODE_LOWER, n, n, M.data(), n, X.data(), n, info.data()));
  SAGA_REQUIRE(info.get(0) == 0, "cuSOLVER potrs: argument {} is invalid", -info.get(0));
  Array<offset_t> rp(static_cast<std::size_t>(n) + 1, Space::device, "coarse inverse rows");
  Array<index_t> ci(nn, Space::device, "coarse inverse columns");
  Array<double> v(nn, Space::device, "coarse inverse values");
  dense_csr_kernel<<<std::min<unsigned>(grid_for(static_cast<std::int64_t>(nn)), 4096u), kThreads, 0, st>>>(
      n, X.data(), rp.data(), ci.data(), v.data());
  SAGA_CUDA_LAUNCH("coarse inverse to CSR");
  inverse = CsrMatrix(n, n, std::move(rp), std::move(ci), std::move(v));
  return true;
}

}  // namespace saga::amg::cuda
