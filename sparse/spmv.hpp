#pragma once
// Sparse matrix-vector product y = alpha A x + beta y, behind the SpMV registry
// (Registry<SpmvAlgorithm>, core/registry.hpp), so that new kernels (the
// adaptive-binned SpMV) plug in without touching callers: a component in its
// own file plus one line in SAGA_SPMV_COMPONENTS (sparse/spmv.cpp). beta = 0
// ignores the old contents of y (even NaN).
#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "sparse/csr.hpp"
#include "sparse/scalars.hpp"

namespace saga {

class SpmvAlgorithm {
 public:
  virtual ~SpmvAlgorithm() = default;
  virtual void apply(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) const = 0;
  // The fused products of the solve phase. Each is one pass over A in an
  // algorithm that fuses them (binned); the defaults compose apply() with
  // vector operations and are the oracle the fused kernels are tested against.
  // y = alpha A x + beta z, z another vector than y (the residual b - A x, the
  // prolongation x + P e written elsewhere).
  virtual void apply_add(double alpha, const CsrMatrix& A, const Vector& x, double beta, const Vector& z,
                         Vector& y) const;
  // x_out = x + omega w .* (b - A x): a diagonal relaxation sweep (damped or
  // L1 Jacobi). x_out must not be x (other rows still read the old x). With
  // `dot`, also (*dot)[slot] = b . x_out (CG's r^T z when the sweep ends a cycle).
  virtual void relax(const CsrMatrix& A, const Vector& x, const Vector& b, const Vector& w, double omega,
                     Vector& x_out, Scalars* dot = nullptr, int slot = 0) const;
  // y = A x and s[slot] = x . y (CG's A q and q^T A q).
  virtual void apply_dot(const CsrMatrix& A, const Vector& x, Vector& y, Scalars& s, int slot) const;
  // x_out = x + u - omega w .* (A u) with u = T e, T the tentative prolongator
  // of one column per aggregate: u_i = scale[g] e[g], g = agg[i] (0 where g < 0).
  // The smoothed prolongation (I - omega D^-1 A) T e added to x without P stored
  // (amg.implicit_prolongator). x_out may be x (row i reads x_i only).
  virtual void smoothed_prolongation(const CsrMatrix& A, const Vector& w, double omega, const Array<index_t>& agg,
                                     const Vector& scale, const Vector& e, const Vector& x, Vector& x_out) const;
  // x = omega w .* b (a relaxation sweep from x = 0) and r = b - A x with that
  // x: the pre-sweep of a cycle and the residual it restricts, in one pass
  // over A where the algorithm fuses them (x_j formed where it is read). x,
  // b and r distinct.
  virtual void relax_from_zero(const CsrMatrix& A, const Vector& b, const Vector& w, double omega, Vector& x,
                               Vector& r) const;
  // Builds what the algorithm keeps with A (its analysis), so that the first
  // product does not pay for it (and a CUDA graph capture finds it made).
  // extra_bytes: device memory it may keep beyond its plan (the binned
  // SpMV's sliced copy, made only here); returns the bytes it took of them.
  virtual std::size_t prepare(const CsrMatrix& A, std::size_t extra_bytes) const {
    (void)A;
    (void)extra_bytes;
    return 0;
  }
  // A second, smaller kind of copy, made after every operator had its turn at
  // prepare() (MultigridCycle), in the room they left: the binned SpMV's 32-bit
  // copy of a 64-bit build's row offsets (4 B a row, where A fits them and its
  // products read them); returns the bytes it took of extra_bytes.
  virtual std::size_t prepare_offsets(const CsrMatrix& A, std::size_t extra_bytes) const {
    (void)A;
    (void)extra_bytes;
    return 0;
  }
  // Frees what prepare() and prepare_offsets() kept beyond the plan (a resetup
  // does, before its own products; the next cycle prepares again).
  virtual void release(const CsrMatrix& A) const { (void)A; }
  // The device memory held with A now beyond its plan (the binned SpMV's
  // diagonal, sliced or sorted copy and its 32-bit offsets; 0 without them).
  virtual std::size_t kept_bytes(const CsrMatrix& A) const {
    (void)A;
    return 0;
  }
};
using SpmvRegistry = Registry<SpmvAlgorithm>;
const SpmvRegistry& spmv_registry();

// An algorithm that is one kernel function of sparse/host or sparse/cuda.
class SpmvFunction : public SpmvAlgorithm {
 public:
  using Fn = void (*)(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);
  explicit SpmvFunction(Fn fn) : fn_(fn) {}
  void apply(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) const override {
    fn_(alpha, A, x, beta, y);
  }

 private:
  Fn fn_;
};

// y = alpha A x + beta y with the default algorithm of A's space.
void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y);
// ... with a chosen one ("" or "auto": the default).
void spmv(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y, const Component& algorithm);
// y = A x
inline void spmv(const CsrMatrix& A, const Vector& x, Vector& y) { spmv(1.0, A, x, 0.0, y); }
// The fused products with the default algorithm of A's space (see SpmvAlgorithm).
void spmv_add(double alpha, const CsrMatrix& A, const Vector& x, double beta, const Vector& z, Vector& y);
// r = b - A x
inline void spmv_residual(const CsrMatrix& A, const Vector& x, const Vector& b, Vector& r) {
  spmv_add(-1.0, A, x, 1.0, b, r);
}
void spmv_relax(const CsrMatrix& A, const Vector& x, const Vector& b, const Vector& w, double omega, Vector& x_out,
                Scalars* dot = nullptr, int slot = 0);
void spmv_dot(const CsrMatrix& A, const Vector& x, Vector& y, Scalars& s, int slot);
void spmv_smoothed_prolongation(const CsrMatrix& A, const Vector& w, double omega, const Array<index_t>& agg,
                                const Vector& scale, const Vector& e, const Vector& x, Vector& x_out);
void spmv_relax_from_zero(const CsrMatrix& A, const Vector& b, const Vector& w, double omega, Vector& x, Vector& r);
// Builds the default algorithm's analysis of A now (MultigridCycle does this for
// every operator of the hierarchy when it is made), keeping at most
// extra_bytes of device memory beyond it; returns what it kept of them.
std::size_t spmv_prepare(const CsrMatrix& A, std::size_t extra_bytes = 0);
// The default algorithm's second kind of copy (SpmvAlgorithm::prepare_offsets),
// within extra_bytes; returns what it kept of them.
std::size_t spmv_prepare_offsets(const CsrMatrix& A, std::size_t extra_bytes = 0);
// Frees what spmv_prepare and spmv_prepare_offsets kept with A beyond its plan.
void spmv_release(const CsrMatrix& A);
// What the default algorithm holds with A now beyond its plan (its copies).
std::size_t spmv_kept_bytes(const CsrMatrix& A);

}  // namespace saga
