#pragma once
// Host backend of the sparse layer (OpenMP). These are the CPU fallback and the
// oracle the CUDA kernels are tested against; keep them simple.
#include "sparse/coo.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/scalars.hpp"
#include "sparse/spmv.hpp"

namespace saga::host {

CsrMatrix coo_to_csr(const CooMatrix& coo);
CooMatrix csr_to_coo(const CsrMatrix& A);
CsrMatrix transpose(const CsrMatrix& A);
void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);
CsrMatrix spgemm_gustavson(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats);
std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B);

void fill(Vector& x, double value);
void axpby(double a, const Vector& x, double b, Vector& y);
void scale(double a, Vector& x);
void multiply(const Vector& x, const Vector& y, Vector& z, double a);
void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y);
void scaled_difference(const Vector& w, const Vector& b, const Vector& y, Vector& r);
void step_update(double a, const Vector& r, double b, Vector& d, double c, Vector& x);
double dot(const Vector& x, const Vector& y);
bool all_finite(const Vector& x);
bool all_exact_in_single(const Vector& x);
bool to_single_if_exact(const Vector& x, Array<float>& out);
void cg_direction(Scalars& s, const Vector& z, Vector& q, bool flexible);
void cg_step(Scalars& s, const Vector& q, const Vector& Aq, Vector& x, Vector& r);
void lanczos_orthogonalize(Scalars& s, int alpha, int beta_prev, int beta, const Vector& d, const Vector& v,
                           const Vector& v_prev, Vector& w);
void lanczos_normalize(const Scalars& s, int beta, const Vector& w, Vector& v);

}  // namespace saga::host
