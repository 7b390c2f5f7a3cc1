#pragma once
// x <- x + omega W (b - A x) with a diagonal W: the step shared by damped
// Jacobi (W = D^-1) and L1-Jacobi (W = D_l1^-1).
#include "solver/smoother.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

class DiagonalRelaxation : public Smoother {
 public:
  // W given by the caller (the level's inverse diagonal), which outlives the smoother.
  DiagonalRelaxation(const CsrMatrix& A, const Vector& w, double omega)
      : A_(A), w_(&w), omega_(omega), r_(A.rows(), A.space(), "smoother residual") {}
  // W made for this smoother, and kept by it.
  DiagonalRelaxation(const CsrMatrix& A, Vector&& w, double omega)
      : A_(A), owned_(std::move(w)), w_(&owned_), omega_(omega), r_(A.rows(), A.space(), "smoother residual") {}
  DiagonalRelaxation(const DiagonalRelaxation&) = delete;  // w_ may point into owned_
  DiagonalRelaxation& operator=(const DiagonalRelaxation&) = delete;
  void smooth(const Vector& b, Vector& x, int sweeps, bool zero_guess) const override {
    for (int s = 0; s < sweeps; ++s) {
      if (zero_guess && s == 0) {  // x = omega W b: no product
        multiply(*w_, b, x);
        scale(omega_, x);
        continue;
      }
      copy(b, r_);
      spmv(-1.0, A_, x, 1.0, r_);
      add_scaled_product(omega_, *w_, r_, x);
    }
  }
  double omega() const { return omega_; }

 private:
  const CsrMatrix& A_;
  Vector owned_;
  const Vector* w_;
  double omega_;
  mutable Vector r_;
};

}  // namespace saga
