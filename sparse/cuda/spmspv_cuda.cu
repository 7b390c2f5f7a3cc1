// Device SpMSpV (sparse/spmspv.hpp; seed paper 003, Alg. 3): the products of
// x's rows are indexed by a scan of the row lengths, so one thread forms one
// product (a binary search finds its row): the load stays even when some rows
// are long (power-law graphs). Then either
//   sort:  a stable radix sort of (column, product position), then each run of
//          equal columns ⊕-reduced in the canonical order of the header (blocks
//          of 64 in position order, a thread each, then the blocks' partials) —
//          the host's order, hence bitwise the same results;
//   dense: atomic min / max on an order-preserving 64-bit encoding of the
//          values (or a flag alone, structurally) in an accumulator of A.cols()
//          entries, compacted by a scan — no sort, for order-free ⊕ only.
#include <cuda_runtime.h>

#include "core/error.hpp"
#include "core/parallel_for.cuh"
#include "sparse/spmspv_functors.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"
#include "sparse/scan.hpp"
#include "sparse/semiring.hpp"

namespace saga::cuda {

namespace {

// An invalid entry of x (index out of range, or not above the previous one)
// gets this length: the total goes negative, and the one read of the total
// reports the error too.
constexpr std::int64_t kInvalidLength = -(std::int64_t(1) << 40);

__global__ void frontier_row_lengths(const offset_t* rp, const index_t* xi, std::int64_t f, index_t rows,
                                     std::int64_t* len) {
  for (std::int64_t k = global_thread(); k < f; k += grid_stride()) {
    const index_t i = xi[k];
    const bool valid = i >= 0 && i < rows && (k == 0 || i > xi[k - 1]);
    len[k] = valid ? static_cast<std::int64_t>(rp[i + 1] - rp[i]) : kInvalidLength;
  }
}

template <Semiring S>
__global__ void expand_products(const offset_t* rp, const index_t* ci, const double* av, const index_t* xi,
                                const double* xv, const std::int64_t* off, std::int64_t f, std::int64_t total,
                                std::uint32_t* key, std::int32_t* position, double* product) {
  for (std::int64_t p = global_thread(); p < total; p += grid_stride()) {
    const std::int64_t k = segment_of(off, f, p);  // the x entry whose products hold p (off[f] = total > p)
    const offset_t h = rp[xi[k]] + static_cast<offset_t>(p - off[k]);
    key[p] = static_cast<std::uint32_t>(ci[h]);
    position[p] = static_cast<std::int32_t>(p);
    if (S != Semiring::or_and) product[p] = semiring::Ops<S>::times(av[h], xv[k]);
  }
}

__global__ void run_heads(const std::uint32_t* key, std::int64_t total, std::int32_t* head) {
  for (std::int64_t p = global_thread(); p < total; p += grid_stride())
    head[p] = p == 0 || key[p] != key[p - 1];
}

// Where each run of equal columns starts (runs are numbered by the scan of the
// heads); starts[count] = total.
__global__ void run_starts(const std::int32_t* head, const std::int32_t* slot, std::int64_t total,
                           std::int32_t count, std::int32_t* starts) {
  for (std::int64_t p = global_thread(); p < total; p += grid_stride())
    if (head[p]) starts[slot[p]] = static_cast<std::int32_t>(p);
  if (global_thread() == 0) starts[count] = static_cast<std::int32_t>(total);
}

// The canonical ⊕ order (sparse/spmspv.hpp): blocks of kSpmspvBlock products of
// a run folded left to right, then the blocks' partials — a hub column reached
// from 10^5 rows costs 10^5 / 64 serial steps, not 10^5.
template <Semiring S>
__global__ void fold_blocks(const std::int32_t* head, const std::int32_t* slot, const std::int32_t* starts,
                            const std::int32_t* position, const double* product, std::int64_t total,
                            double* partial) {
  for (std::int64_t p = global_thread(); p < total; p += grid_stride()) {
    const std::int32_t run = slot[p] + head[p] - 1;
    const std::int64_t s0 = starts[run], e = starts[run + 1];
    if ((p - s0) % kSpmspvBlock != 0) continue;
    const std::int64_t end = p + kSpmspvBlock < e ? p + kSpmspvBlock : e;
    double acc = product[position[p]];
    for (std::int64_t q = p + 1; q < end; ++q) acc = semiring::Ops<S>::plus(acc, product[position[q]]);
    partial[p] = acc;
  }
}

template <Semiring S>
__global__ void fold_runs(const std::uint32_t* key, const std::int32_t* starts, const double* partial,
                          std::int32_t count, index_t* yi, double* yv) {
  for (std::int64_t r = global_thread(); r < count; r += grid_stride()) {
    const std::int64_t s0 = starts[r], e = starts[r + 1];
    yi[r] = static_cast<index_t>(key[s0]);
    if (S == Semiring::or_and) continue;
    double acc = partial[s0];
    for (std::int64_t b = s0 + kSpmspvBlock; b < e; b += kSpmspvBlock) acc = semiring::Ops<S>::plus(acc, partial[b]);
    yv[r] = acc;
  }
}

// Order-preserving encoding of a double as an unsigned 64-bit integer (for
// atomic min / max): negative values flip all bits, others the sign bit.
__device__ inline unsigned long long encode(double d) {
  const unsigned long long b = static_cast<unsigned long long>(__double_as_longlong(d));
  return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
}
__device__ inline double decode(unsigned long long e) {
  const unsigned long long b = (e >> 63) ? (e & 0x7fffffffffffffffull) : ~e;
  return __longlong_as_double(static_cast<long long>(b));
}

template <Semiring S>
__global__ void scatter_products(const offset_t* rp, const index_t* ci, const double* av, const index_t* xi,
                                 const double* xv, const std::int64_t* off, std::int64_t f, std::int64_t total,
                                 std::int32_t* reached, unsigned long long* acc) {
  for (std::int64_t p = global_thread(); p < total; p += grid_stride()) {
    const std::int64_t k = segment_of(off, f, p);  // the x entry whose products hold p (off[f] = total > p)
    const offset_t h = rp[xi[k]] + static_cast<offset_t>(p - off[k]);
    const index_t j = ci[h];
    if (!reached[j]) reached[j] = 1;  // the same value from every writer
    if (S == Semiring::min_plus) atomicMin(acc + j, encode(semiring::Ops<S>::times(av[h], xv[k])));
    if (S == Semiring::max_times) atomicMax(acc + j, encode(semiring::Ops<S>::times(av[h], xv[k])));
  }
}

__global__ void fill_u64(unsigned long long* a, std::int64_t n, unsigned long long v) {
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) a[i] = v;
}

template <Semiring S>
__global__ void compact_reached(const std::int32_t* reached, const std::int32_t* slot, const unsigned long long* acc,
                                index_t cols, index_t* yi, double* yv) {
  for (std::int64_t j = global_thread(); j < cols; j += grid_stride()) {
    if (!reached[j]) continue;
    yi[slot[j]] = static_cast<index_t>(j);
    if (S != Semiring::or_and) yv[slot[j]] = decode(acc[j]);
  }
}

template <Semiring S>
SparseVector multiply(const CsrMatrix& A, const SparseVector& x, SpmspvAlgorithm algorithm) {
  constexpr bool structural = S == Semiring::or_and;
  cudaStream_t stream = ::saga::device_stream();
  const std::int64_t f = static_cast<std::int64_t>(x.nnz());
  SparseVector y;
  y.size = A.cols();
  Array<std::int64_t> len(static_cast<std::size_t>(f), Space::device, "SpMSpV row lengths");
  Array<std::int64_t> off(static_cast<std::size_t>(f) + 1, Space::device, "SpMSpV product offsets");
  if (f > 0) {
    frontier_row_lengths<<<grid_capped(f), kThreads, 0, stream>>>(A.row_ptr().data(), x.index.data(), f, A.rows(),
                                                                  len.data());
    SAGA_CUDA_LAUNCH("SpMSpV row lengths");
  }
  exclusive_scan_total(len, off);
  const std::int64_t total = off.get(static_cast<std::size_t>(f));
  if (total < 0)
    throw InputError(fmt::format("SpMSpV: the vector's indices must be increasing and in [0, {})", A.rows()));
  if (total > INT32_MAX)
    throw Error(fmt::format("SpMSpV: {} products exceed the 2^31 a single product handles", total));
  if (algorithm == SpmspvAlgorithm::automatic) algorithm = spmspv_choice(S, total, A.cols());
  const offset_t* rp = A.row_ptr().data();
  const index_t* ci = A.col().data();
  const double* av = A.val().data();
  const double* xv = structural ? nullptr : x.value.data();
  const unsigned grid = grid_capped(total);

  if (algorithm == SpmspvAlgorithm::dense) {
    const std::int64_t cols = A.cols();
    Array<std::int32_t> reached = Array<std::int32_t>::zeros(static_cast<std::size_t>(cols), Space::device,
                                                             "SpMSpV reached columns");
    Array<unsigned long long> acc(structural ? 0 : static_cast<std::size_t>(cols), Space::device,
                                  "SpMSpV dense accumulator");
    if (!structural && cols > 0) {
      // The identity of min is above every encoding, that of max below.
      fill_u64<<<grid_capped(cols), kThreads, 0, stream>>>(acc.data(), cols,
                                                           S == Semiring::min_plus ? ~0ull : 0ull);
      SAGA_CUDA_LAUNCH("SpMSpV accumulator fill");
    }
    if (total > 0) {
      scatter_products<S><<<grid, kThreads, 0, stream>>>(rp, ci, av, x.index.data(), xv, off.data(), f, total,
                                                         reached.data(), acc.data());
      SAGA_CUDA_LAUNCH("SpMSpV scatter");
    }
    Array<std::int32_t> slot(static_cast<std::size_t>(cols) + 1, Space::device, "SpMSpV output slots");
    exclusive_scan_total(reached, slot);
    const std::size_t count = static_cast<std::size_t>(slot.get(static_cast<std::size_t>(cols)));
    y.index = Array<index_t>(count, Space::device, "SpMSpV result indices");
    if (!structural) y.value = Array<double>(count, Space::device, "SpMSpV result values");
    if (count > 0) {
      compact_reached<S><<<grid_capped(cols), kThreads, 0, stream>>>(reached.data(), slot.data(), acc.data(),
                                                                     A.cols(), y.index.data(), y.value.data());
      SAGA_CUDA_LAUNCH("SpMSpV compaction");
    }
    return y;
  }

  // sort
  const std::size_t t = static_cast<std::size_t>(total);
  Array<std::uint32_t> key(t, Space::device, "SpMSpV product columns"), sorted_key(t, Space::device, "SpMSpV sorted columns");
  Array<std::int32_t> position(t, Space::device, "SpMSpV product positions");
  Array<std::int32_t> sorted_position(t, Space::device, "SpMSpV sorted positions");
  Array<double> product(structural ? 0 : t, Space::device, "SpMSpV products");
  if (total > 0) {
    expand_products<S><<<grid, kThreads, 0, stream>>>(rp, ci, av, x.index.data(), xv, off.data(), f, total, key.data(),
                                                      position.data(), product.data());
    SAGA_CUDA_LAUNCH("SpMSpV expansion");
  }
  prim::sort_pairs(key.data(), sorted_key.data(), position.data(), sorted_position.data(), t, prim::bits_for(A.cols()));
  Array<std::int32_t>& head = position;  // free after the sort
  Array<std::int32_t> slot(t + 1, Space::device, "SpMSpV output slots");
  if (total > 0) {
    run_heads<<<grid, kThreads, 0, stream>>>(sorted_key.data(), total, head.data());
    SAGA_CUDA_LAUNCH("SpMSpV run heads");
  }
  exclusive_scan_total(head, slot);
  const std::size_t count = static_cast<std::size_t>(slot.get(t));
  y.index = Array<index_t>(count, Space::device, "SpMSpV result indices");
  if (!structural) y.value = Array<double>(count, Space::device, "SpMSpV result values");
  if (count > 0) {
    const std::int32_t runs = static_cast<std::int32_t>(count);
    Array<std::int32_t> starts(count + 1, Space::device, "SpMSpV run starts");
    run_starts<<<grid, kThreads, 0, stream>>>(head.data(), slot.data(), total, runs, starts.data());
    SAGA_CUDA_LAUNCH("SpMSpV run starts");
    Array<double> partial(structural ? 0 : t, Space::device, "SpMSpV block partials");
    if (!structural) {
      fold_blocks<S><<<grid, kThreads, 0, stream>>>(head.data(), slot.data(), starts.data(), sorted_position.data(),
                                                    product.data(), total, partial.data());
      SAGA_CUDA_LAUNCH("SpMSpV block folds");
    }
    fold_runs<S><<<grid_capped(runs), kThreads, 0, stream>>>(sorted_key.data(), starts.data(), partial.data(), runs,
                                                             y.index.data(), y.value.data());
    SAGA_CUDA_LAUNCH("SpMSpV run folds");
  }
  return y;
}

}  // namespace

SparseVector spmspv(const CsrMatrix& A, const SparseVector& x, Semiring semiring, SpmspvAlgorithm algorithm) {
  switch (semiring) {
    case Semiring::plus_times: return multiply<Semiring::plus_times>(A, x, algorithm);
    case Semiring::min_plus: return multiply<Semiring::min_plus>(A, x, algorithm);
    case Semiring::max_times: return multiply<Semiring::max_times>(A, x, algorithm);
    case Semiring::or_and: return multiply<Semiring::or_and>(A, x, algorithm);
  }
  throw Error("SpMSpV: unknown semiring");
}

}  // namespace saga::cuda

SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::MarkRowColumns)
