#pragma once
// CUDA backend of the sparse layer. Plain C++ declarations (no CUDA types) so
// that host code can dispatch to them; the definitions live in the .cu files of
// this folder. All arguments live in device memory.
#include <memory>

#include "sparse/coo.hpp"
#include "sparse/dcsr_functors.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/scalars.hpp"
#include "sparse/spmv.hpp"

namespace saga::cuda {

CsrMatrix coo_to_csr(const CooMatrix& coo);
CooMatrix csr_to_coo(const CsrMatrix& A);
CsrMatrix transpose(const CsrMatrix& A);
void spmv_csr_vector(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);
void spmv_scalar(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);
// The bins the binned SpMV made for A (its analysis, built on first use).
struct SpmvBinsInfo {
  index_t blocks = 0, long_rows = 0, chunks = 0;
  int units = 0;         // work units per row block
  offset_t max_row = 0;  // the longest row
  bool finish_in_chunks = false;  // the chunks' CTAs write the long rows (else a kernel of their own)
  bool dense = false;             // every row holds every column: the dense rows kernel
  int dense_lanes = 32;           // its lanes a row
  bool sliced = false;            // the default options send it to the sliced rows (spmv_sliced_fit)
  int diagonals = 0;              // the diagonals of its diagonal copy, where it holds one (else 0)
};
SpmvBinsInfo spmv_binned_info(const CsrMatrix& A);
// CSR arrays that no CsrMatrix owns (a compact DCSR's): the binned SpMV with
// its default options on them, with a plan the caller makes once and keeps
// while the arrays do not change.
struct CsrRef {
  index_t rows = 0, cols = 0;
  offset_t nnz = 0;
  const offset_t* rp = nullptr;
  const index_t* ci = nullptr;
  const double* v = nullptr;
  const float* v_single = nullptr;  // the values where stored in single precision (then v is null)
  // A 64-bit build's row offsets in 32 bits, where the binned SpMV keeps that
  // copy of a matrix that fits it (spmv_binned.cu, NarrowOffsets); else null.
  const std::int32_t* rp32 = nullptr;
};
std::shared_ptr<void> spmv_binned_plan(const CsrRef& A);
void spmv_binned(double alpha, const CsrRef& A, void* plan, const Vector& x, double beta, Vector& y);
// Whether the binned algorithm (default options) fuses a relaxation sweep from
// zero into the residual's product on A: where w and b fit in half the L2 and
// A's rows go to the thread bin or A is small (spmv_binned.cu).
bool fuse_relax_from_zero(const CsrMatrix& A);
void spmv_cusparse(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);
CsrMatrix spgemm_esc(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats);
CsrMatrix spgemm_cusparse(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats);
std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B);
// DCSR (sparse/dcsr.cpp): rows ordered longest first (stable); the SpMV over
// fragmented rows and the compaction into new buffers, a group of V lanes per
// row (V from the mean length of a row's runs), rows of over 4096 entries a CTA
// each.
Array<index_t> dcsr_rows_by_length(const Array<offset_t>& size);
// `row_lists`: the SpMV's lists of rows too long for their lanes (a warp each
// over 64 entries, a CTA each over 4096), kept by the caller between calls
// (grown here when the entries outgrow them).
void dcsr_spmv(const functors::DcsrSpmvRow& f, index_t rows, std::int64_t entries, double mean_run_length,
               Array<index_t>& row_lists);
void dcsr_compact(const functors::DcsrCompact& f, index_t rows, std::int64_t entries, double mean_run_length);

void fill(Vector& x, double value);
void axpby(double a, const Vector& x, double b, Vector& y);
void scale(double a, Vector& x);
void multiply(const Vector& x, const Vector& y, Vector& z, double a);
void add_scaled_product(double a, const Vector& d, const Vector& r, Vector& y);
void scaled_difference(const Vector& w, const Vector& b, const Vector& y, Vector& r);
void step_update(double a, const Vector& r, double b, Vector& d, double c, Vector& x);
double dot(const Vector& x, const Vector& y);
void dot_into(const Vector& x, const Vector& y, Scalars& s, int slot);
bool all_finite(const Vector& x);
// The least index of a non-zero flag, or -1 (one kernel, one 8-byte read).
std::int64_t first_flagged(const Array<std::int32_t>& flags);
bool all_exact_in_single(const Vector& x);
bool to_single_if_exact(const Vector& x, Array<float>& out);
void cg_direction(Scalars& s, const Vector& z, Vector& q, bool flexible);
void cg_step(Scalars& s, const Vector& q, const Vector& Aq, Vector& x, Vector& r);
void lanczos_orthogonalize(Scalars& s, int alpha, int beta_prev, int beta, const Vector& d, const Vector& v,
                           const Vector& v_prev, Vector& w);
void lanczos_normalize(const Scalars& s, int beta, const Vector& w, Vector& v);
// All m steps in one cooperative kernel; false (nothing done) where the device
// cannot launch one, or where the composed steps are faster (wide rows on a
// large matrix).
bool lanczos_steps(const CsrMatrix& A, const Vector& d, int m, Vector& v, Scalars& s, bool normalise);
// ... from dinv: the kernel makes d = D^-1/2 and the start vector v in the caller's vectors.
bool lanczos_steps_dinv(const CsrMatrix& A, const Vector& dinv, int m, std::uint64_t seed, Vector& d, Vector& v,
                        Scalars& s);

}  // namespace saga::cuda
