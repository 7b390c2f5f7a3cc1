// The binned SpGEMM's policy: bin shapes, the operands of a product, the passes,
// and the buffers the passes share (docs/spgemm.md).
// Included only by sparse/cuda/spgemm_binned.cu (one translation unit; the
// anonymous namespace keeps these kernels private to it).
#pragma once
#include <cstdint>

#include "core/types.hpp"

namespace saga::cuda {
namespace {

// ---- policy -----------------------------------------------------------------
// Bin b holds rows whose expansion (products, plus the fused extra entry) and
// whose nnz(A_i) both fit capacity(b) = threads x items. Bins 0-2 are one
// thread per row, the row sorted in its registers (8, 16, 32 products: the
// fused P of 2D/3D stencils, A·A of the 5-point, A·P of 7-point stencils);
// groups of up to 32 threads are logical warps (several rows per 128-thread
// block); larger groups are a whole CTA per row. The shapes were tuned on the
// H100 (docs/spgemm.md).
constexpr int kBins = 11;
__host__ __device__ constexpr int group_threads(int b) {
  constexpr int t[kBins] = {1, 1, 1, 16, 32, 32, 128, 256, 256, 512, 1024};
  return t[b];
}
__host__ __device__ constexpr int group_items(int b) {
  constexpr int t[kBins] = {8, 16, 32, 4, 4, 8, 4, 4, 8, 8, 8};
  return t[b];
}
constexpr int kThreadBins = 3;  // bins 0-2: one thread per row, in registers
constexpr int kHashOnlyFrom = 9;  // bins 9, 10: hash rows only (a sort would not fit shared memory)
__host__ __device__ constexpr int capacity(int b) { return group_threads(b) * group_items(b); }
constexpr int kLongBin = kBins;       // more than capacity(kBins - 1)
constexpr int kEmptyBin = kBins + 1;  // no products (and no extra entry)
constexpr int kAllBins = kBins + 2;
constexpr int kWarpBlock = 128;       // threads per block for logical-warp bins

// The operands of one product C = diag(s) (A B) + E as raw device pointers.
// scale and e_col/e_val are optional (null): E has at most one entry per row,
// e_col[i] < 0 when row i has none. Off: the type the kernels count
// positions in and read A's and C's row offsets as (offset_t, or in a 64-bit
// build 32-bit copies where the product fits them: spgemm_binned.cu,
// "offsets"). B's offsets are read where they are, in the build's width, and
// taken as Off (b_begin, b_end): B's rows are gathered, a sector per row of B whatever
// the width, so a copy would save no traffic, only memory.
template <class Off>
struct Operands {
  const Off* arp;
  const index_t* aci;
  const double* av;
  const offset_t* brp;
  const index_t* bci;
  const double* bv;
  const double* scale;
  const index_t* e_col;
  const double* e_val;
};

// Where row k of B starts and ends, as positions of type Off.
template <class Off>
__device__ inline Off b_begin(const Operands<Off>& op, index_t k) { return static_cast<Off>(op.brp[k]); }
template <class Off>
__device__ inline Off b_end(const Operands<Off>& op, index_t k) { return static_cast<Off>(op.brp[k + 1]); }

template <class Off>
__device__ inline bool has_extra(const Operands<Off>& op, index_t row) { return op.e_col && op.e_col[row] >= 0; }


// The passes of a product: count (nnz of each row of C), fill (C's columns and
// values), numeric (values into a given structure), and, for thread rows only
// (assembly: direct), direct: count and write each row as it finishes into a
// bump-allocated buffer.
enum class Pass { count, fill, numeric, direct };

// How a hash row works, per product: lanes per entry of A's row (a power of
// two <= 32) and whether the fill looks a column's rank up in a rank table
// (`lookup: table`) or by binary search over the sorted row (`search`).
struct HashShape {
  int team = 1;
  bool rank_table = false;
};

// Hash rows' sorted columns kept from the count pass for the fill
// (`hash_columns: keep`): the count pass sorts each row's distinct columns
// anyway to keep them, and the fill then skips the insertion, compaction and
// sort (it becomes a numeric pass plus a copy). The buffer is split into
// kStoreRegions regions with a cursor each, chosen by row id, so that
// millions of rows do not queue on one atomic; a row that does not fit its
// region gets start -1 and is recounted by the fill.
constexpr int kStoreRegions = 32;
struct StoredCols {
  unsigned long long* cursors = nullptr;  // kStoreRegions
  std::int64_t region = 0;                // entries per region
  index_t* col = nullptr;
  std::int64_t* start = nullptr;          // per row of A
};

// Where rows written as they finish go (Pass::direct): each block reserves
// its rows' total with one atomic on `cursor`; a row that does not fit below
// `capacity` gets start -1 and is filled by the fill pass instead.
struct DirectOut {
  unsigned long long* cursor = nullptr;
  std::int64_t capacity = 0;
  index_t* col = nullptr;
  double* val = nullptr;
  std::int64_t* start = nullptr;  // per row of A; also read by the fill pass to skip stored rows
};

}  // namespace
}  // namespace saga::cuda
