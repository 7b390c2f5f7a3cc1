// Host SpMSpV, the oracle: x's rows visited in order, each product combined
// into a dense accumulator in the header's canonical order (left to right
// within blocks of kSpmspvBlock products of a column, then the blocks left to
// right), the reached columns collected in index order.
#include <vector>

#include "core/error.hpp"
#include "sparse/semiring.hpp"

namespace saga::host {

namespace {
template <Semiring S>
SparseVector multiply(const CsrMatrix& A, const SparseVector& x) {
  using Op = semiring::Ops<S>;
  constexpr bool structural = S == Semiring::or_and;
  const offset_t* rp = A.row_ptr().data();
  const index_t* ci = A.col().data();
  const double* av = A.val().data();
  const index_t* xi = x.index.data();
  const double* xv = x.value.data();
  const std::size_t cols = static_cast<std::size_t>(A.cols());
  std::vector<double> done(structural ? 0 : cols), block(structural ? 0 : cols);  // finished blocks, open block
  std::vector<std::int64_t> seen(structural ? 0 : cols, 0);                       // products so far
  std::vector<char> reached(cols, 0);
  for (std::size_t k = 0; k < x.nnz(); ++k) {
    const index_t i = xi[k];
    if (i < 0 || i >= A.rows() || (k > 0 && i <= xi[k - 1]))
      throw InputError(fmt::format("SpMSpV: the vector's entry {} has index {}: indices must be increasing and in "
                                   "[0, {})", k, i, A.rows()));
    for (offset_t h = rp[i]; h < rp[i + 1]; ++h) {
      const index_t j = ci[h];
      reached[j] = 1;
      if (!structural) {
        const double p = Op::times(av[h], xv[k]);
        const std::int64_t c = seen[j]++;
        if (c % kSpmspvBlock != 0) {
          block[j] = Op::plus(block[j], p);
          continue;
        }
        if (c == kSpmspvBlock) done[j] = block[j];  // the first block closes
        if (c > kSpmspvBlock) done[j] = Op::plus(done[j], block[j]);
        block[j] = p;
      }
    }
  }
  std::size_t count = 0;
  for (char r : reached) count += r != 0;
  SparseVector y;
  y.size = A.cols();
  y.index = Array<index_t>(count, Space::host, "SpMSpV result indices");
  if (!structural) y.value = Array<double>(count, Space::host, "SpMSpV result values");
  std::size_t p = 0;
  for (index_t j = 0; j < A.cols(); ++j)
    if (reached[j]) {
      y.index[p] = j;
      if (!structural) y.value[p] = seen[j] <= kSpmspvBlock ? block[j] : Op::plus(done[j], block[j]);
      ++p;
    }
  return y;
}
}  // namespace

SparseVector spmspv(const CsrMatrix& A, const SparseVector& x, Semiring semiring) {
  switch (semiring) {
    case Semiring::plus_times: return multiply<Semiring::plus_times>(A, x);
    case Semiring::min_plus: return multiply<Semiring::min_plus>(A, x);
    case Semiring::max_times: return multiply<Semiring::max_times>(A, x);
    case Semiring::or_and: return multiply<Semiring::or_and>(A, x);
  }
  throw Error("SpMSpV: unknown semiring");
}

}  // namespace saga::host
