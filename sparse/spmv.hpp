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

namespace saga {

class SpmvAlgorithm {
 public:
  virtual ~SpmvAlgorithm() = default;
  virtual void apply(double alpha, const CsrMatrix& A, const Vector& x, double beta, Vector& y) const = 0;
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

}  // namespace saga
