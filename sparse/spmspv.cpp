#include "sparse/spmspv.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/parallel_for.hpp"
#include "sparse/spmspv_functors.hpp"
#include "sparse/semiring.hpp"

namespace saga {

const char* to_string(Semiring s) {
  switch (s) {
    case Semiring::plus_times: return "plus_times";
    case Semiring::min_plus: return "min_plus";
    case Semiring::max_times: return "max_times";
    case Semiring::or_and: return "or_and";
  }
  return "?";
}

const char* to_string(SpmspvAlgorithm a) {
  switch (a) {
    case SpmspvAlgorithm::automatic: return "automatic";
    case SpmspvAlgorithm::sort: return "sort";
    case SpmspvAlgorithm::dense: return "dense";
  }
  return "?";
}

SpmspvAlgorithm spmspv_choice(Semiring semiring, std::int64_t products, index_t cols) {
  // Cost model fitted to saga-bench-spmspv on the H100 (docs/spmspv.md): dense
  // moves ~16 B per column (flags cleared, scanned, compacted) and ~8 B per
  // product; sort ~64 B per product (radix passes over key and position) plus
  // ~40 us more launch latency (its CUB passes), worth ~120 MB at 3 TB/s.
  if (!semiring::order_free(semiring)) return SpmspvAlgorithm::sort;
  const double dense = 16.0 * static_cast<double>(cols) + 8.0 * static_cast<double>(products);
  const double sort = 120e6 + 64.0 * static_cast<double>(products);
  return dense <= sort ? SpmspvAlgorithm::dense : SpmspvAlgorithm::sort;
}

SparseVector spmspv(const CsrMatrix& A, const SparseVector& x, Semiring semiring, SpmspvAlgorithm algorithm) {
  if (x.size != A.rows())
    throw InputError(fmt::format("SpMSpV: the vector has length {} but the matrix has {} rows", x.size, A.rows()));
  if (!x.index.empty() && x.space() != A.space())
    throw InputError(fmt::format("SpMSpV: the matrix lives on the {} and the vector on the {}", to_string(A.space()),
                                 to_string(x.space())));
  if (semiring != Semiring::or_and && !x.index.empty() && !x.has_values())
    throw InputError(fmt::format("SpMSpV: semiring {} needs a value for each of the vector's {} entries (it has {})",
                                 to_string(semiring), x.nnz(), x.value.size()));
  if (algorithm == SpmspvAlgorithm::dense && !semiring::order_free(semiring))
    throw InputError(fmt::format("SpMSpV: the dense algorithm accumulates with atomics and needs an order-free "
                                 "sum (min_plus, max_times or or_and); {} would not be deterministic: use sort",
                                 to_string(semiring)));
  if (A.space() == Space::host) return host::spmspv(A, x, semiring);
  SAGA_DEVICE_CALL(return cuda::spmspv(A, x, semiring, algorithm));
}

void spmspv_mark(const CsrMatrix& A, const Array<index_t>& rows, index_t count, Array<std::int32_t>& stamp,
                 std::int32_t tag, bool rows_too) {
  SAGA_REQUIRE(count >= 0 && static_cast<std::size_t>(count) <= rows.size(),
               "SpMSpV mark: {} rows listed but {} given", count, rows.size());
  SAGA_REQUIRE(stamp.size() == static_cast<std::size_t>(A.cols()) && stamp.space() == A.space() &&
                   (count == 0 || rows.space() == A.space()),
               "SpMSpV mark: the stamp array (or the row list) does not match the matrix");
  parallel_for(A.space(), count,
               functors::MarkRowColumns{A.row_ptr().data(), A.col().data(), rows.data(), tag, rows_too, stamp.data()});
}

}  // namespace saga
