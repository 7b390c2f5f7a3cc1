#pragma once
// LinearOperator: anything that maps a vector to a vector — a matrix, a
// multigrid cycle, a smoother, a Krylov solve, a user's callback. Krylov
// methods take operators for both the system and the preconditioner, so any
// method can precondition any other (AmgX-style nesting), and the C API and
// Python bindings wrap them.
#include <functional>
#include <utility>

#include "sparse/csr.hpp"
#include "sparse/scalars.hpp"

namespace saga {

class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  virtual index_t rows() const = 0;
  virtual index_t cols() const { return rows(); }
  virtual Space space() const = 0;
  // y = Op x. y's old contents are ignored; x and y are distinct vectors.
  virtual void apply(const Vector& x, Vector& y) const = 0;
  // r = b - Op x; w is scratch for Op x. An operator that can fuse the two
  // (a matrix: one SpMV) overrides it.
  virtual void residual(const Vector& b, const Vector& x, Vector& r, Vector& w) const;
  // y = Op x and s[slot] = x . y, the scalar kept where the vectors live (CG's
  // A q and q^T A q). A matrix fuses the two into one pass.
  virtual void apply_dot(const Vector& x, Vector& y, Scalars& s, int slot) const;
  // True when apply() only queues device work on the active stream — no host
  // synchronisation, no allocation that outlives the call — so that a Krylov
  // iteration using it can be captured as a CUDA graph and replayed.
  virtual bool graph_safe() const { return false; }
};

// A CSR matrix as an operator (y = A x with the default SpMV); A must outlive it.
class MatrixOperator final : public LinearOperator {
 public:
  explicit MatrixOperator(const CsrMatrix& A) : A_(A) {}
  index_t rows() const override { return A_.rows(); }
  index_t cols() const override { return A_.cols(); }
  Space space() const override { return A_.space(); }
  void apply(const Vector& x, Vector& y) const override;
  void residual(const Vector& b, const Vector& x, Vector& r, Vector& w) const override;
  void apply_dot(const Vector& x, Vector& y, Scalars& s, int slot) const override;
  bool graph_safe() const override { return true; }
  const CsrMatrix& matrix() const { return A_; }

 private:
  const CsrMatrix& A_;
};

// y = x.
class IdentityOperator final : public LinearOperator {
 public:
  IdentityOperator(index_t n, Space s) : n_(n), s_(s) {}
  index_t rows() const override { return n_; }
  Space space() const override { return s_; }
  void apply(const Vector& x, Vector& y) const override;
  bool graph_safe() const override { return true; }

 private:
  index_t n_;
  Space s_;
};

// A user's function as an operator (e.g. a matrix-free product or their own
// preconditioner).
class FunctionOperator final : public LinearOperator {
 public:
  using Fn = std::function<void(const Vector& x, Vector& y)>;
  FunctionOperator(index_t n, Space s, Fn fn) : n_(n), s_(s), fn_(std::move(fn)) {}
  index_t rows() const override { return n_; }
  Space space() const override { return s_; }
  void apply(const Vector& x, Vector& y) const override { fn_(x, y); }

 private:
  index_t n_;
  Space s_;
  Fn fn_;
};

}  // namespace saga
