// Long rows of C = A·B by segmented merge (spgemm_merge_rows.hpp; 001_… §3.4;
// docs/spgemm.md "Long rows by segmented merge"). Per row slice:
//   tile_sort    a CTA per tile of 2048 consecutive products of one row of C:
//                expand (each thread 8 consecutive products, its entry of A
//                found once by binary search), stable block radix sort by
//                column, the sorted run written striped (coalesced);
//   merge_round  runs of W products, aligned at W from the row's start, merged
//                in pairs into runs of 2W; a CTA per block of kBlock outputs of
//                a row still of more than one run (the blocks listed on the
//                host per round) splits its range by merge path, stages the
//                keys in shared memory, and each thread merges kMergeItems of
//                them (left run first on equal columns: stable); rows already
//                one run are skipped, so a row's data lies in buffer (its
//                number of rounds mod 2);
//   heads        1 where a column starts in its row; scan -> C's positions;
//   contract     each head sums its column's products in order and writes C.
// No atomics: every sum of C is in the order of A's entries.
#include "sparse/cuda/spgemm_merge_rows.hpp"

#include <cub/block/block_radix_sort.cuh>

#include <algorithm>
#include <vector>

#include "sparse/csr_ops.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {

constexpr int kTileThreads = 256;
constexpr int kTileItems = 8;
constexpr std::int64_t kTile = kTileThreads * kTileItems;  // products a tile sorts: the first runs
constexpr int kMergeItems = 16;                            // outputs a thread of a merge round places
// Device memory a product of a slice needs: keys and values twice (the rounds'
// two buffers), the head flags and their scan.
constexpr std::size_t kBytesPerProduct = 2 * (4 + 8) + 4 + 4;

// Rounds a row of `len` products takes: until one run of W >= len is left.
__host__ __device__ inline int rounds_for(std::int64_t len) {
  int r = 0;
  for (std::int64_t w = kTile; w < len; w *= 2) ++r;
  return r;
}

// Last index i in [lo, hi) with a[i] <= x (a sorted; a[lo] <= x assumed).
template <class T>
__device__ inline std::int64_t last_not_above(const T* a, std::int64_t lo, std::int64_t hi, std::int64_t x) {
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(a[mid]) <= x)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Products of each entry of A: nnz of the row of B it selects.
__global__ void entry_products_kernel(std::int64_t nnz, const index_t* __restrict__ aci,
                                      const offset_t* __restrict__ brp, std::int64_t* __restrict__ len) {
  for (std::int64_t e = global_thread(); e < nnz; e += grid_stride()) len[e] = brp[aci[e] + 1] - brp[aci[e]];
}

// seg[r] = the position of row r's first product: ent[arp[r]].
__global__ void row_starts_kernel(index_t rows, const offset_t* __restrict__ arp, const std::int64_t* __restrict__ ent,
                                  std::int64_t* __restrict__ seg) {
  for (std::int64_t r = global_thread(); r <= rows; r += grid_stride()) seg[r] = ent[arp[r]];
}

struct SliceRows {
  index_t r0, rows;            // the slice's rows of A: [r0, r0 + rows)
  const std::int64_t* seg;     // products' positions of rows r0 .. r0 + rows (rows + 1 entries, absolute)
  std::int64_t s0;             // seg[0]: slice positions are seg - s0
};

__global__ __launch_bounds__(kTileThreads) void tile_sort_kernel(
    SliceRows sr, const index_t* __restrict__ tile_ptr, const offset_t* __restrict__ arp,
    const std::int64_t* __restrict__ ent, const index_t* __restrict__ aci, const double* __restrict__ av,
    const offset_t* __restrict__ brp, const index_t* __restrict__ bci, const double* __restrict__ bv, int col_bits,
    std::uint32_t* __restrict__ keys, double* __restrict__ vals) {
  using Sort = cub::BlockRadixSort<std::uint32_t, kTileThreads, kTileItems, double>;
  __shared__ typename Sort::TempStorage temp;
  const index_t t = static_cast<index_t>(blockIdx.x);
  const index_t r = static_cast<index_t>(last_not_above(tile_ptr, 0, sr.rows, t));  // rows of no tile skipped
  const index_t R = sr.r0 + r;
  const std::int64_t q0 = sr.seg[r] + static_cast<std::int64_t>(t - tile_ptr[r]) * kTile;
  const std::int64_t count = min(kTile, sr.seg[r + 1] - q0);
  std::uint32_t k[kTileItems];
  double v[kTileItems];
  const std::int64_t p = q0 + static_cast<std::int64_t>(threadIdx.x) * kTileItems;
  if (p < q0 + count) {
    // This thread's products are consecutive: one search for the first's
    // entry, then a walk (an entry may select an empty row of B).
    std::int64_t e = last_not_above(ent, arp[R], arp[R + 1], p);
    std::int64_t next = ent[e + 1];
#pragma unroll
    for (int i = 0; i < kTileItems; ++i) {
      const std::int64_t pos = p + i;
      k[i] = ~0u;  // padding: sorted after every product (stable, higher rank)
      v[i] = 0.0;
      if (pos < q0 + count) {
        while (next <= pos) next = ent[++e + 1];
        const offset_t b = brp[aci[e]] + static_cast<offset_t>(pos - ent[e]);
        k[i] = static_cast<std::uint32_t>(bci[b]);
        v[i] = av[e] * bv[b];
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kTileItems; ++i) {
      k[i] = ~0u;
      v[i] = 0.0;
    }
  }
  Sort(temp).SortBlockedToStriped(k, v, 0, col_bits);
  const std::int64_t out = q0 - sr.s0;
#pragma unroll
  for (int i = 0; i < kTileItems; ++i) {
    const std::int64_t idx = static_cast<std::int64_t>(i) * kTileThreads + threadIdx.x;
    if (idx < count) {
      keys[out + idx] = k[i];
      vals[out + idx] = v[i];
    }
  }
}

// Number of outputs i in [0, d] of a merge of sorted a[0, na) and b[0, nb)
// taken from a among its first d (merge path; equal keys from a first).
template <class K>
__device__ inline std::int64_t merge_path(const K* a, std::int64_t na, const K* b, std::int64_t nb, std::int64_t d) {
  std::int64_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (a[mid] <= b[d - 1 - mid])
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// A CTA's share of a merge round: kBlock consecutive outputs of one row,
// counted from the row's start (so a block never straddles a pair of runs,
// whose 2W >= kBlock are aligned the same way).
constexpr int kBlock = kThreads * kMergeItems;
struct MergeBlock {
  index_t row;         // in the slice
  std::int64_t begin;  // slice position of the block's first output
};

// One binary-tree round: runs of w merged in pairs, a CTA per block of the
// rows still more than one run. The CTA finds where its outputs start and end
// in the two runs (two merge-path searches), stages those keys in shared
// memory, each thread merges kMergeItems of them (its own search in shared
// memory) and records each output's source; the outputs are then written
// coalesced.
__global__ __launch_bounds__(kThreads) void merge_round_kernel(SliceRows sr, const MergeBlock* __restrict__ blocks,
                                                               std::int64_t w, const std::uint32_t* __restrict__ ik,
                                                               const double* __restrict__ iv,
                                                               std::uint32_t* __restrict__ ok,
                                                               double* __restrict__ ov) {
  __shared__ std::uint32_t sk[kBlock];         // the block's keys of the left run, then of the right run
  __shared__ std::uint16_t source[kBlock];     // output x came from sk[source[x]]
  __shared__ std::int64_t split[2];
  const MergeBlock blk = blocks[blockIdx.x];
  const std::int64_t ss = sr.seg[blk.row] - sr.s0, se = sr.seg[blk.row + 1] - sr.s0;
  const std::int64_t ps = ss + (blk.begin - ss) / (2 * w) * (2 * w);
  const std::int64_t pm = min(ps + w, se), pe = min(ps + 2 * w, se);
  const std::int64_t end = min(blk.begin + kBlock, pe);
  if (pm == pe) {  // the row's last run has no partner: copied
    for (std::int64_t p = blk.begin + threadIdx.x; p < end; p += kThreads) {
      ok[p] = ik[p];
      ov[p] = iv[p];
    }
    return;
  }
  const std::uint32_t* lk = ik + ps;
  const std::uint32_t* rk = ik + pm;
  const std::int64_t na = pm - ps, nb = pe - pm;
  if (threadIdx.x < 2) split[threadIdx.x] = merge_path(lk, na, rk, nb, (threadIdx.x ? end : blk.begin) - ps);
  __syncthreads();
  const std::int64_t i0 = split[0], j0 = blk.begin - ps - i0;
  const int la = static_cast<int>(split[1] - i0), lb = static_cast<int>(end - ps - split[1] - j0);
  for (int x = threadIdx.x; x < la; x += kThreads) sk[x] = lk[i0 + x];
  for (int x = threadIdx.x; x < lb; x += kThreads) sk[la + x] = rk[j0 + x];
  __syncthreads();
  const int d = threadIdx.x * kMergeItems, n = la + lb;
  if (d < n) {
    int i = static_cast<int>(merge_path(sk, la, sk + la, lb, d)), j = d - i;
    const int stop = min(d + kMergeItems, n);
    for (int x = d; x < stop; ++x) {
      const bool left = j >= lb || (i < la && sk[i] <= sk[la + j]);
      source[x] = static_cast<std::uint16_t>(left ? i++ : la + j++);
    }
  }
  __syncthreads();
  for (int x = threadIdx.x; x < n; x += kThreads) {
    const int from = source[x];
    ok[blk.begin + x] = sk[from];
    ov[blk.begin + x] = from < la ? iv[ps + i0 + from] : iv[pm + j0 + (from - la)];
  }
}

// Where a row's data is after the rounds, and a thread's walk over rows.
struct RowCursor {
  SliceRows sr;
  const std::uint32_t *k0, *k1;
  const double *v0, *v1;
  std::int64_t r, ss, se;
  const std::uint32_t* k;
  const double* v;
  __device__ void at(std::int64_t p) {  // the row holding slice position p (rows of no products skipped)
    while (p >= se) {
      ++r;
      ss = sr.seg[r] - sr.s0;
      se = sr.seg[r + 1] - sr.s0;
      const bool odd = rounds_for(se - ss) % 2;
      k = odd ? k1 : k0;
      v = odd ? v1 : v0;
    }
  }
  __device__ RowCursor(SliceRows s, const std::uint32_t* a, const std::uint32_t* b, const double* c, const double* d,
                       std::int64_t p)
      : sr(s), k0(a), k1(b), v0(c), v1(d), r(last_not_above(s.seg, 0, s.rows, p + s.s0) - 1), ss(0), se(p),
        k(nullptr), v(nullptr) {
    at(p);
  }
};

__global__ __launch_bounds__(kThreads) void heads_kernel(SliceRows sr, std::int64_t total,
                                                         const std::uint32_t* __restrict__ k0,
                                                         const std::uint32_t* __restrict__ k1,
                                                         std::int32_t* __restrict__ head) {
  std::int64_t p = global_thread() * kMergeItems;
  if (p >= total) return;
  const std::int64_t p_end = min(total, p + kMergeItems);
  RowCursor c(sr, k0, k1, nullptr, nullptr, p);
  for (; p < p_end; ++p) {
    c.at(p);
    head[p] = p == c.ss || c.k[p] != c.k[p - 1];
  }
}

__global__ __launch_bounds__(kThreads) void contract_kernel(SliceRows sr, std::int64_t total,
                                                            const std::uint32_t* __restrict__ k0,
                                                            const std::uint32_t* __restrict__ k1,
                                                            const double* __restrict__ v0,
                                                            const double* __restrict__ v1,
                                                            const std::int32_t* __restrict__ pos,
                                                            index_t* __restrict__ ccol, double* __restrict__ cval) {
  std::int64_t p = global_thread() * kMergeItems;
  if (p >= total) return;
  const std::int64_t p_end = min(total, p + kMergeItems);
  RowCursor c(sr, k0, k1, v0, v1, p);
  for (; p < p_end; ++p) {
    if (pos[p + 1] == pos[p]) continue;  // not a head
    c.at(p);
    const std::uint32_t col = c.k[p];
    double s = c.v[p];
    for (std::int64_t q = p + 1; q < c.se && c.k[q] == col; ++q) s += c.v[q];
    ccol[pos[p]] = static_cast<index_t>(col);
    cval[pos[p]] = s;
  }
}

// C's row pointers of the slice: the scan at each row's first product.
__global__ void slice_row_ptr_kernel(SliceRows sr, const std::int32_t* __restrict__ pos, offset_t* __restrict__ crp) {
  for (std::int64_t r = global_thread(); r <= sr.rows; r += grid_stride()) crp[r] = pos[sr.seg[r] - sr.s0];
}

}  // namespace

CsrMatrix spgemm_merge_rows(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats) {
  const index_t m = A.rows(), n = B.cols();
  SAGA_REQUIRE(A.cols() == B.rows(), "merge-row SpGEMM: A is {}x{}, B is {}x{}", A.rows(), A.cols(), B.rows(),
               B.cols());
  const std::size_t budget = opt.budget_now();
  if (stats) {
    *stats = SpgemmStats{};
    stats->budget_bytes = static_cast<std::int64_t>(budget);
  }
  if (m == 0 || n == 0 || A.nnz() == 0 || B.nnz() == 0) return CsrMatrix::zeros(m, n, Space::device);
  const cudaStream_t st = ::saga::device_stream();
  const int col_bits = prim::bits_for(n);

  // Positions of every entry's products, and of every row's.
  const std::int64_t nnz_a = A.nnz();
  Array<std::int64_t> ent(static_cast<std::size_t>(nnz_a) + 1, Space::device, "merge-row SpGEMM entry positions");
  {
    Array<std::int64_t> len(static_cast<std::size_t>(nnz_a), Space::device, "merge-row SpGEMM entry products");
    entry_products_kernel<<<grid_capped(nnz_a), kThreads, 0, st>>>(nnz_a, A.col().data(), B.row_ptr().data(),
                                                                   len.data());
    SAGA_CUDA_LAUNCH("merge-row SpGEMM entry products");
    prim::exclusive_scan_total(len.data(), ent.data(), static_cast<std::size_t>(nnz_a));
  }
  Array<std::int64_t> seg(static_cast<std::size_t>(m) + 1, Space::device, "merge-row SpGEMM row positions");
  row_starts_kernel<<<grid_capped(static_cast<std::int64_t>(m) + 1), kThreads, 0, st>>>(m, A.row_ptr().data(),
                                                                                      ent.data(), seg.data());
  SAGA_CUDA_LAUNCH("merge-row SpGEMM row positions");
  const std::vector<std::int64_t> h = seg.to_vector();
  const std::int64_t total = h[m];

  // Row slices whose products fit the budget (a row alone may exceed it), and
  // whose positions fit the 32-bit scan of the heads.
  const std::int64_t max_per_slice =
      std::min<std::int64_t>(std::max<std::int64_t>(1, static_cast<std::int64_t>(budget / kBytesPerProduct)),
                             std::int64_t{1} << 30);
  std::vector<CsrMatrix> pieces;
  std::int64_t workspace = 0, nnz_c = 0;
  for (index_t r0 = 0; r0 < m;) {
    index_t r1 = r0 + 1;
    while (r1 < m && h[r1 + 1] - h[r0] <= max_per_slice) ++r1;
    const index_t rows = r1 - r0;
    const std::int64_t P = h[r1] - h[r0];
    SAGA_REQUIRE(P < (std::int64_t{1} << 31) - 1,
                 "merge-row SpGEMM: row {} of A (of the {} rows passed to the merge) has {} products, more than "
                 "one slice of the merge can index (2^31 - 2 products)",
                 r0, m, P);
    if (P == 0) {
      pieces.push_back(CsrMatrix::zeros(rows, n, Space::device));
      r0 = r1;
      continue;
    }
    std::vector<index_t> tile_ptr{0};
    int rounds = 0;
    for (index_t r = r0; r < r1; ++r) {
      const std::int64_t len = h[r + 1] - h[r];
      tile_ptr.push_back(tile_ptr.back() + static_cast<index_t>((len + kTile - 1) / kTile));
      rounds = std::max(rounds, rounds_for(len));
    }
    const auto d_tile_ptr = Array<index_t>::from_vector(tile_ptr, Space::device, "merge-row SpGEMM tiles");
    const SliceRows sr{r0, rows, seg.data() + r0, h[r0]};
    const auto np = static_cast<std::size_t>(P);
    Array<std::uint32_t> k0(np, Space::device, "merge-row SpGEMM keys"), k1(np, Space::device, "merge-row SpGEMM keys");
    Array<double> v0(np, Space::device, "merge-row SpGEMM values"), v1(np, Space::device, "merge-row SpGEMM values");
    Array<std::int32_t> head(np, Space::device, "merge-row SpGEMM heads");
    Array<std::int32_t> pos(np + 1, Space::device, "merge-row SpGEMM head positions");
    workspace = std::max<std::int64_t>(workspace, P * static_cast<std::int64_t>(kBytesPerProduct));

    tile_sort_kernel<<<static_cast<unsigned>(tile_ptr.back()), kTileThreads, 0, st>>>(
        sr, d_tile_ptr.data(), A.row_ptr().data(), ent.data(), A.col().data(), A.val().data(), B.row_ptr().data(),
        B.col().data(), B.val().data(), col_bits, k0.data(), v0.data());
    SAGA_CUDA_LAUNCH("merge-row SpGEMM tile sort");
    // Every round's blocks, made on the host from the rows' lengths: only
    // rows still of more than one run take part.
    std::vector<MergeBlock> blocks;
    std::vector<std::size_t> round_start{0};
    for (int round = 0; round < rounds; ++round) {
      for (index_t r = r0; r < r1; ++r) {
        const std::int64_t len = h[r + 1] - h[r];
        if (len <= (kTile << round)) continue;
        for (std::int64_t b = 0; b < len; b += kBlock) blocks.push_back({r - r0, h[r] - h[r0] + b});
      }
      round_start.push_back(blocks.size());
    }
    const auto d_blocks = Array<MergeBlock>::from_vector(blocks, Space::device, "merge-row SpGEMM merge blocks");
    std::uint32_t *ka = k0.data(), *kb = k1.data();
    double *va = v0.data(), *vb = v1.data();
    for (int round = 0; round < rounds; ++round) {
      const std::size_t nblocks = round_start[round + 1] - round_start[round];
      merge_round_kernel<<<static_cast<unsigned>(nblocks), kThreads, 0, st>>>(
          sr, d_blocks.data() + round_start[round], kTile << round, ka, va, kb, vb);
      SAGA_CUDA_LAUNCH("merge-row SpGEMM merge round");
      std::swap(ka, kb);
      std::swap(va, vb);
    }
    const unsigned grid = grid_for((P + kMergeItems - 1) / kMergeItems);
    heads_kernel<<<grid, kThreads, 0, st>>>(sr, P, k0.data(), k1.data(), head.data());
    SAGA_CUDA_LAUNCH("merge-row SpGEMM heads");
    prim::exclusive_scan_total(head.data(), pos.data(), np);
    Array<offset_t> crp(static_cast<std::size_t>(rows) + 1, Space::device, "merge-row SpGEMM row_ptr");
    slice_row_ptr_kernel<<<grid_capped(static_cast<std::int64_t>(rows) + 1), kThreads, 0, st>>>(sr, pos.data(),
                                                                                              crp.data());
    SAGA_CUDA_LAUNCH("merge-row SpGEMM row_ptr");
    const std::int64_t u = pos.get(np);
    checked_offset(nnz_c + u, "merge-row SpGEMM result");
    CsrMatrix C(rows, n, std::move(crp), Array<index_t>(static_cast<std::size_t>(u), Space::device, "merge-row SpGEMM col"),
                Array<double>(static_cast<std::size_t>(u), Space::device, "merge-row SpGEMM val"));
    contract_kernel<<<grid, kThreads, 0, st>>>(sr, P, k0.data(), k1.data(), v0.data(), v1.data(), pos.data(),
                                               const_cast<index_t*>(C.col().data()),
                                               const_cast<double*>(C.val().data()));
    SAGA_CUDA_LAUNCH("merge-row SpGEMM contract");
    nnz_c += u;
    pieces.push_back(std::move(C));
    r0 = r1;
  }
  if (stats) {
    stats->products = total;
    stats->nnz_c = nnz_c;
    stats->slices = static_cast<int>(pieces.size());
    stats->workspace_bytes = workspace + (static_cast<std::int64_t>(nnz_a) + m + 2) * 8;
  }
  if (pieces.size() == 1) return std::move(pieces.front());
  return stack_rows(std::move(pieces));
}

}  // namespace saga::cuda
