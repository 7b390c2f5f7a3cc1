#pragma once
// Sparse matrix × sparse vector over a semiring (seed paper 003, Alg. 3):
//   y = Aᵀ ⊗ x,   y[j] = ⊕_{i ∈ x} A(i, j) ⊗ x[i],
// i.e. the rows of A named by x's entries are gathered and combined — the
// product a frontier-style graph kernel needs (the columns reached from a set
// of rows: for a symmetric A it equals A ⊗ x). Only the products that exist are
// formed: the work is the length of the gathered rows, not nnz(A).
//
// The output is sorted by index and holds exactly the reached columns (an entry
// whose ⊕-sum happens to be the identity is kept). The ⊕ of each output entry
// is taken in one canonical order on both backends: its products listed in x's
// order, then A's row order, cut into blocks of kSpmspvBlock, each block
// folded left to right, then the blocks' results left to right (a column
// reached from many rows is folded in parallel by blocks on the GPU). So
// plus_times results are bitwise the same on the host and the GPU and from run
// to run; for min / max / or the order does not matter at all.
//
// Device algorithms (the host has one, the oracle): `sort` gathers the products,
// radix-sorts them by column (stable) and reduces each run; `dense` scatters them
// into a dense accumulator of A.cols() entries with atomic min / max / or and
// compacts it — no sort, O(cols) extra work, so it pays unless the columns far
// outnumber the products; it needs an exact, order-free ⊕ and refuses
// plus_times. `automatic` weighs the two by a cost model (spmspv_choice).
#include <cstdint>

#include "sparse/csr.hpp"

namespace saga {

enum class Semiring {
  plus_times,  // (+, ×): the arithmetic product
  min_plus,    // (min, +): a shortest-path relaxation
  max_times,   // (max, ×)
  or_and,      // (∨, ∧): structural — which columns are reached; no values
};
const char* to_string(Semiring s);

enum class SpmspvAlgorithm { automatic, sort, dense };

constexpr int kSpmspvBlock = 64;
const char* to_string(SpmspvAlgorithm a);

// A sparse vector of logical length `size`: strictly increasing indices and,
// except for a structural (pattern-only) vector, one value each.
struct SparseVector {
  index_t size = 0;
  Array<index_t> index;
  Array<double> value;  // empty for a pattern
  std::size_t nnz() const { return index.size(); }
  Space space() const { return index.space(); }
  bool has_values() const { return value.size() == index.size() && !index.empty(); }
};

// y = Aᵀ ⊗ x. x.size must be A.rows() and x must live where A lives; or_and
// ignores values (x may be a pattern; y is one), the other semirings need them.
// Throws InputError for a mismatch, an unsorted x, or dense with plus_times.
SparseVector spmspv(const CsrMatrix& A, const SparseVector& x, Semiring semiring,
                    SpmspvAlgorithm algorithm = SpmspvAlgorithm::automatic);

// Structural SpMSpV with a dense output — the paper's no-sort scatter, without
// compacting the result: stamp[j] = tag for every column j of the first
// `count` rows listed in `rows` (and for those rows themselves when rows_too).
// The reached set is {j : stamp[j] == tag}; a caller that runs rounds clears
// the stamps once and gives each round its own tag, so a round costs the rows
// it gathers and no pass over all columns. One thread per listed row.
void spmspv_mark(const CsrMatrix& A, const Array<index_t>& rows, index_t count, Array<std::int32_t>& stamp,
                 std::int32_t tag, bool rows_too = false);

// The algorithm `automatic` takes for this many products.
SpmspvAlgorithm spmspv_choice(Semiring semiring, std::int64_t products, index_t cols);

namespace host {
SparseVector spmspv(const CsrMatrix& A, const SparseVector& x, Semiring semiring);
}
namespace cuda {
SparseVector spmspv(const CsrMatrix& A, const SparseVector& x, Semiring semiring, SpmspvAlgorithm algorithm);
}

}  // namespace saga
