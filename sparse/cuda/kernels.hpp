#pragma once
// CUDA backend of the sparse layer. Plain C++ declarations (no CUDA types) so
// that host code can dispatch to them; the definitions live in the .cu files of
// this folder. All arguments live in device memory.
#include "sparse/coo.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"

namespace saga::cuda {

CsrMatrix coo_to_csr(const CooMatrix& coo);
CooMatrix csr_to_coo(const CsrMatrix& A);
CsrMatrix transpose(const CsrMatrix& A);
void spmv_csr_vector(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);
void spmv_cusparse(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);
CsrMatrix spgemm_esc(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats);
CsrMatrix spgemm_cusparse(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats);
std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B);

void fill(Vector& x, double value);
void axpby(double a, const Vector& x, double b, Vector& y);
void scale(double a, Vector& x);
void multiply(const Vector& x, const Vector& y, Vector& z);
void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y);
void scaled_difference(const Vector& w, const Vector& b, const Vector& y, Vector& r);
void step_update(double a, const Vector& r, double b, Vector& d, double c, Vector& x);
double dot(const Vector& x, const Vector& y);
bool all_finite(const Vector& x);

}  // namespace saga::cuda
