#pragma once
// x <- x + omega W (b - A x) with a diagonal W: the step shared by damped
// Jacobi (W = D^-1) and L1-Jacobi (W = D_l1^-1). Each sweep is one fused pass
// over A (spmv_relax: the product, the residual and the update together),
// written to another vector than it reads (rows still read the old x), so
// sweeps alternate between x and a scratch vector. The scratch is made on
// first need: the default V(1,1) cycle never needs it (its pre-sweep from a
// zero guess has no product, its post-sweep reads the cycle's residual vector
// and writes x), and on the fine level it would be 8 B per unknown held for
// nothing. (A solve's first iteration runs uncaptured, so a CUDA graph finds
// it made.)
#include "solver/smoother.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

class DiagonalRelaxation : public Smoother {
 public:
  // W given by the caller (the level's inverse diagonal), which outlives the smoother.
  DiagonalRelaxation(const CsrMatrix& A, const Vector& w, double omega)
      : A_(A), w_(&w), omega_(omega) {}
  // W made for this smoother, and kept by it.
  DiagonalRelaxation(const CsrMatrix& A, Vector&& w, double omega)
      : A_(A), owned_(std::move(w)), w_(&owned_), omega_(omega) {}
  DiagonalRelaxation(const DiagonalRelaxation&) = delete;  // w_ may point into owned_
  DiagonalRelaxation& operator=(const DiagonalRelaxation&) = delete;
  void smooth(const Vector& b, Vector& x, int sweeps, bool zero_guess) const override {
    if (sweeps <= 0) return;
    if (zero_guess) {  // x = omega W b: no product
      multiply(*w_, b, x, omega_);  // one pass
      --sweeps;
    }
    if (sweeps == 0) return;
    // Sweeps alternate x -> t -> x ...; an odd count ends in t and is copied back.
    sweep_pairs(b, x, scratch(), sweeps);
    if (sweeps % 2 == 1) copy(t_, x);
  }
  // The first sweep reads x_in and writes x_out: one sweep costs one pass.
  void smooth_from(const Vector& b, Vector& x_in, Vector& x_out, int sweeps, Scalars* dot = nullptr,
                   int slot = 0) const override {
    if (sweeps <= 0) {
      copy(x_in, x_out);
      if (dot) dot_into(b, x_out, *dot, slot);
      return;
    }
    // Alternate x_in <-> x_out so that the last sweep lands in x_out.
    if (sweeps % 2 == 1)
      sweep_pairs(b, x_in, x_out, sweeps, dot, slot);
    else {
      spmv_relax(A_, x_in, b, *w_, omega_, scratch());
      sweep_pairs(b, t_, x_out, sweeps - 1, dot, slot);
    }
  }
  bool sweeps_out_of_place() const override { return true; }
  // x = omega W b, r = b - A x: one pass (x_j formed where the product reads it).
  bool sweep_from_zero_with_residual(const Vector& b, Vector& x, Vector& r) const override {
    spmv_relax_from_zero(A_, b, *w_, omega_, x, r);
    return true;
  }
  double omega() const { return omega_; }

 private:
  // `sweeps` sweeps alternating a -> b -> a ...; the last one also forms the dot.
  void sweep_pairs(const Vector& rhs, Vector& a, Vector& b, int sweeps, Scalars* dot = nullptr, int slot = 0) const {
    for (int s = 0; s < sweeps; ++s) {
      Scalars* d = s + 1 == sweeps ? dot : nullptr;
      if (s % 2 == 0)
        spmv_relax(A_, a, rhs, *w_, omega_, b, d, slot);
      else
        spmv_relax(A_, b, rhs, *w_, omega_, a, d, slot);
    }
  }
  Vector& scratch() const {
    if (t_.size() != static_cast<std::size_t>(A_.rows())) t_ = Vector(A_.rows(), A_.space(), "smoother scratch");
    return t_;
  }
  const CsrMatrix& A_;
  Vector owned_;
  const Vector* w_;
  double omega_;
  mutable Vector t_;
};

}  // namespace saga
