// saga-gather-model: how many 32-byte sectors of x the sliced rows' gathers
// touch on each operator of a seed problem's hierarchy (host setup, no GPU).
//
// The sliced rows (sparse/cuda/spmv_sliced.cuh) give a warp 32 consecutive
// rows, longest first; at step k each running row gathers x at its k-th
// column. A step's gathers cost the distinct sectors they touch (L2 -> SM
// traffic where L1 misses); 0.25 sectors a gather is perfect coalescing of
// 8-byte values. Comparing the sectors' bytes with A's own bytes says whether
// an operator's product can be bound by its gathers rather than by streaming A
// (docs/spmv.md, "Where the rest is"). The last columns: sectors a gather in
// the vector rows' order (G lanes a row, consecutive entries) at G = 4, 8, 16, 32.
// The hierarchy is the host backend's (one algorithm on both backends: level 1
// of 3D 7-pt N=128 has the 222081 rows the device makes). The last column is
// the kernel the binned SpMV's defaults give the operator on a GPU of 132 SMs
// (H100 / H200; spmv_diagonals_of, sparse/spmv_diagonals.hpp, then
// spmv_binned_route, sparse/spmv_row_blocks.hpp). "diagonal rows" (a stencil's
// diagonal copy), "sliced rows" and "sorted slices" (a power-law matrix's sorted copy) hold where the cycle
// has room for the copy (MultigridCycle: under the
// setup's peak); where it has not, the operator takes the route it would take
// without the copy, printed in brackets (the 2D seed problems' A1 and
// R0 in the forty-sixth and forty-seventh sessions' cycle profiles).
//
//   saga-gather-model 3d7 128      # stencil (2d5 2d9 3d7 3d27) and N
//   saga-gather-model configs/fe_box_4.yaml   # a config's problem and amg options
//   saga-gather-model rmat 21 [4]  # R-MAT 2^21 x16 (or x4) and its Laplacian (the bench's power-law matrices)
// The rmat mode prints no hierarchy: where a power-law product's entries lie
// by row length (the row blocks, their medium rows, the long rows' chunks) and
// how many of its gathers fall on the most-gathered columns of x (what a table
// of the hot columns in shared memory, filled once a CTA, would serve), and
// the row blocks' sum phase in dependent steps against a balanced split, and
// the sorted slices' layout (their lanes busy, the warp rows by length).
// The hierarchy takes the device's coarse size (coarse_size_for) where the
// options leave it to the backend, so that its levels are the GPU's.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "api/saga.hpp"
#include "app/config.hpp"
#include "app/run.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/spmv_diagonals.hpp"
#include "sparse/spmv_row_blocks.hpp"

namespace {

// The longest row of a CSR row pointer.
long long longest_row(const std::vector<saga::offset_t>& rp) {
  long long longest = 0;
  for (std::size_t r = 0; r + 1 < rp.size(); ++r) longest = std::max<long long>(longest, rp[r + 1] - rp[r]);
  return longest;
}

struct Gathers {
  long long gathers = 0, sectors = 0;
};

// A warp of G lanes a row takes 32 / G consecutive rows; at step j lane l of
// row r gathers x at column rp[r] + j G + l. G = 1 is the sliced rows (and the
// thread bin): 32 rows, step k their k-th columns (the slice's ranking of its
// rows does not change which sectors a step touches). G > 1 is the vector rows
// (lane_rows_kernel).
Gathers warp_gathers(const std::vector<saga::offset_t>& rp, const std::vector<saga::index_t>& col, int G) {
  const long long n = static_cast<long long>(rp.size()) - 1, per_warp = 32 / G;
  Gathers g;
  std::vector<long long> sectors;
  for (long long r0 = 0; r0 < n; r0 += per_warp) {
    const long long r1 = std::min(n, r0 + per_warp);
    long long longest = 0;
    for (long long r = r0; r < r1; ++r) longest = std::max<long long>(longest, rp[r + 1] - rp[r]);
    for (long long j = 0; j * G < longest; ++j) {
      sectors.clear();
      for (long long r = r0; r < r1; ++r)
        for (long long k = rp[r] + j * G; k < std::min<long long>(rp[r + 1], rp[r] + (j + 1) * G); ++k)
          sectors.push_back(static_cast<long long>(col[k]) * 8 / 32);
      std::sort(sectors.begin(), sectors.end());
      g.gathers += static_cast<long long>(sectors.size());
      g.sectors += std::unique(sectors.begin(), sectors.end()) - sectors.begin();
    }
  }
  return g;
}

// The multiprocessors of the GPU the kernel column models (H100 and H200 alike).
constexpr int kSms = 132;

// The kernel a route names, with the vector rows' lanes a row.
void print_route(saga::SpmvRoute route, const saga::CsrMatrix& M) {
  std::printf("%s", saga::spmv_route_name(route));
  if (route == saga::SpmvRoute::vector) std::printf(", %d lanes", saga::spmv_vector_rows_lanes(M.nnz(), M.rows(), kSms));
}

void report(const std::string& name, const saga::CsrMatrix& M) {
  if (M.rows() == 0) return;
  const std::vector<saga::offset_t> rp = M.row_ptr().to_vector();
  const std::vector<saga::index_t> col = M.col().to_vector();
  const Gathers g = warp_gathers(rp, col, 1);
  const double a_mb = static_cast<double>(M.nnz()) * 12e-6;  // 4 B column + 8 B value an entry
  const double x_mb = static_cast<double>(g.sectors) * 32e-6;
  std::printf("| %s | %lld | %lld | %.1f | %.2f | %.1f | %.1f | %.2f |", name.c_str(),
              static_cast<long long>(M.rows()), static_cast<long long>(M.nnz()),
              static_cast<double>(M.nnz()) / static_cast<double>(M.rows()),
              static_cast<double>(g.sectors) / static_cast<double>(g.gathers), a_mb, x_mb, x_mb / a_mb);
  for (int G : {4, 8, 16, 32}) {
    const Gathers v = warp_gathers(rp, col, G);
    std::printf(" %.2f |", static_cast<double>(v.sectors) / static_cast<double>(v.gathers));
  }
  const long long max_row = longest_row(rp);
  const saga::SpmvRoute route = saga::spmv_binned_route(M.rows(), M.cols(), M.nnz(), max_row, kSms);
  std::printf(" %lld | ", max_row);
  const std::vector<saga::index_t> diagonals =
      saga::spmv_diagonals_of(M.rows(), M.nnz(), rp.data(), col.data(), max_row, kSms);
  if (!diagonals.empty()) {  // a stencil: its diagonal copy, where the cycle has room for it
    saga::SpmvRouteOptions no_copy;
    no_copy.sliced = saga::SpmvRouteOptions::Sliced::off;  // no room for it: none for a sliced copy either
    saga::spmv_route_without_diagonal_copy(no_copy, max_row);
    std::printf("diagonal rows, %zu diagonals (without room for the copy: ", diagonals.size());
    print_route(saga::spmv_binned_route(M.rows(), M.cols(), M.nnz(), max_row, kSms, no_copy), M);
    std::printf(") |\n");
    return;
  }
  // A power-law matrix (a row past the row blocks' base): its sorted slices,
  // where the cycle has room for their copy.
  const bool power_law = saga::spmv_blocks_round_up(max_row, saga::SpmvRowBlocks::default_units, M.nnz(), M.rows(),
                                                    saga::SpmvRowBlocks::default_unstaged_mean);
  if (route == saga::SpmvRoute::row_blocks && saga::spmv_sorted_fit(M.rows(), power_law, kSms)) {
    std::printf("sorted slices (without room for the copy: row blocks) |\n");
    return;
  }
  print_route(route, M);
  if (route == saga::SpmvRoute::sliced) {  // what it runs where the cycle has no room for the copy
    saga::SpmvRouteOptions no_copy;
    no_copy.sliced = saga::SpmvRouteOptions::Sliced::off;
    std::printf(" (without room for the copy: ");
    print_route(saga::spmv_binned_route(M.rows(), M.cols(), M.nnz(), max_row, kSms, no_copy), M);
    std::printf(")");
  }
  std::printf(" |\n");
}

// A power-law matrix: its entries by row length, and the share of its gathers
// that the K most-gathered columns of x take (a table of K doubles) against the
// generator's first K columns (a contiguous window of x).
void report_power_law(const std::string& name, const saga::CsrMatrix& M) {
  const std::vector<saga::offset_t> rp = M.row_ptr().to_vector();
  const std::vector<saga::index_t> col = M.col().to_vector();
  const double nnz = static_cast<double>(M.nnz());
  const long long units = saga::SpmvRowBlocks::default_units;
  const long long bands[] = {8, 32, 256, units};
  double in_band[5] = {0, 0, 0, 0, 0};
  long long empty = 0, long_rows = 0;
  for (std::size_t r = 0; r + 1 < rp.size(); ++r) {
    const long long len = rp[r + 1] - rp[r];
    empty += len == 0;
    long_rows += len > units;
    int b = 0;
    while (b < 4 && len > bands[b]) ++b;
    in_band[b] += static_cast<double>(len);
  }
  std::printf("%s: %lld rows (%lld empty), %lld entries; entries in rows of 1-8 %.1f%%, 9-32 %.1f%%, 33-256 %.1f%%, "
              "257-%lld %.1f%%, longer (%lld rows, the chunks) %.1f%%\n\n",
              name.c_str(), static_cast<long long>(M.rows()), empty, static_cast<long long>(M.nnz()),
              100 * in_band[0] / nnz, 100 * in_band[1] / nnz, 100 * in_band[2] / nnz, units, 100 * in_band[3] / nnz,
              long_rows, 100 * in_band[4] / nnz);
  std::vector<long long> count(static_cast<std::size_t>(M.cols()), 0);
  for (const saga::index_t c : col) ++count[static_cast<std::size_t>(c)];
  // Columns by how often they are gathered, most first (ties by column: deterministic).
  std::vector<saga::index_t> order(count.size());
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = static_cast<saga::index_t>(c);
  std::stable_sort(order.begin(), order.end(), [&](saga::index_t a, saga::index_t b) {
    return count[static_cast<std::size_t>(a)] > count[static_cast<std::size_t>(b)];
  });
  std::printf("| columns K | as a table, KB | gathers on the K most-gathered columns | the 32-byte sectors of x they "
              "lie in, KB (what L1 must hold for them) | gathers on columns 0..K-1 |\n|---:|---:|---:|---:|---:|\n");
  long long top = 0, low = 0;
  std::vector<char> sector_seen(count.size() / 4 + 1, 0);
  long long sectors = 0;
  std::size_t k = 0;
  for (std::size_t K : {1024u, 4096u, 8192u, 16384u, 28672u, 65536u, 131072u}) {
    if (k == order.size()) break;
    K = std::min(K, order.size());  // a small matrix: its every column, once
    for (; k < K; ++k) {
      const std::size_t c = static_cast<std::size_t>(order[k]);
      top += count[c];
      low += count[k];
      if (!sector_seen[c / 4]) {
        sector_seen[c / 4] = 1;
        ++sectors;
      }
    }
    std::printf("| %zu | %zu | %.1f%% | %lld | %.1f%% |\n", K, K * 8 / 1024, 100 * static_cast<double>(top) / nnz,
                sectors * 32 / 1024, 100 * static_cast<double>(low) / nnz);
  }
  std::printf("\n");
}

// The sorted slices' layout (SpmvSorted; sparse/cuda/spmv_sorted.cuh): the
// rows of at most max_row entries sorted by length within windows, in slices
// of 32 positions (a window's last slice part empty), and how full a slice's
// warp is over its steps (its entries over 32 x its longest row: what sorting
// buys over the sliced rows' in-slice ranking, printed beside it); the warp
// rows (max_row + 1 .. chunk entries, one warp a row; the chunk
// spmv_sorted_chunk gives the matrix on kSms SMs) by length, with a warp's
// lanes busy over its rounds; the chunked rows.
void report_sorted_slices(const std::string& name, const saga::CsrMatrix& M) {
  const std::vector<saga::offset_t> rp = M.row_ptr().to_vector();
  const saga::index_t n = M.rows();
  const double nnz = static_cast<double>(M.nnz());
  auto len_of = [&](std::int64_t r) { return static_cast<long long>(rp[r + 1] - rp[r]); };
  // Slices' steps (32 lanes x the longest row) over the entries they hold, sorted and as the sliced rows rank them.
  const auto fill = [&](int window) {
    long long entries = 0, steps = 0;
    for (std::int64_t w0 = 0; w0 < n; w0 += window) {
      std::vector<long long> lens;
      for (std::int64_t r = w0; r < std::min<std::int64_t>(n, w0 + window); ++r)
        if (len_of(r) <= saga::SpmvSorted::max_row) lens.push_back(len_of(r));
      std::stable_sort(lens.begin(), lens.end(), std::greater<>());
      for (std::size_t i = 0; i < lens.size(); i += 32) {
        steps += 32 * lens[i];  // the slice's first row is its longest
        for (std::size_t j = i; j < std::min(lens.size(), i + 32); ++j) entries += lens[j];
      }
    }
    return steps ? static_cast<double>(entries) / static_cast<double>(steps) : 1.0;
  };
  const long long chunk = saga::spmv_sorted_chunk(M.nnz(), kSms);
  long long short_rows = 0, long_rows = 0, chunks = 0;
  double short_entries = 0, long_entries = 0;
  std::vector<long long> bands{128, 256, 512, 1024, 2048};  // up to the chunk
  while (bands.back() < chunk) bands.push_back(2 * bands.back());
  const std::size_t nb = bands.size();
  std::vector<long long> band_rows(nb, 0);
  std::vector<double> band_entries(nb, 0.0), band_lane_steps(nb, 0.0);
  for (std::int64_t r = 0; r < n; ++r) {
    const long long len = len_of(r);
    if (len <= saga::SpmvSorted::max_row) {
      ++short_rows;
      short_entries += static_cast<double>(len);
    } else if (len <= chunk) {
      std::size_t b = 0;
      while (len > bands[b]) ++b;
      ++band_rows[b];
      band_entries[b] += static_cast<double>(len);
      band_lane_steps[b] += 32.0 * static_cast<double>((len + 31) / 32);
    } else {
      ++long_rows;
      chunks += (len + chunk - 1) / chunk;
      long_entries += static_cast<double>(len);
    }
  }
  std::printf("%s, sorted slices: rows of <= %d entries %lld (%.1f%% of the entries), slices' lanes busy %.1f%% "
              "(windows of %d rows; %.1f%% ranked within a slice of 32, the sliced rows' order); rows past %d: %lld in "
              "%lld chunks (%.1f%% of the entries)\n\n",
              name.c_str(), saga::SpmvSorted::max_row, short_rows, 100 * short_entries / nnz,
              100 * fill(saga::SpmvSorted::window), saga::SpmvSorted::window, 100 * fill(32), static_cast<int>(chunk),
              long_rows, chunks, 100 * long_entries / nnz);
  std::printf("| warp rows of | rows | share of the entries | lanes busy (a warp a row) |\n|---|---:|---:|---:|\n");
  long long lo = saga::SpmvSorted::max_row + 1;
  for (std::size_t b = 0; b < nb; ++b) {
    std::printf("| %lld-%lld | %lld | %.1f%% | %.1f%% |\n", lo, bands[b], band_rows[b], 100 * band_entries[b] / nnz,
                band_lane_steps[b] > 0 ? 100 * band_entries[b] / band_lane_steps[b] : 0.0);
    lo = bands[b] + 1;
  }
  std::printf("\n");
}

// The row blocks' sum phase (rows_kernel, sparse/cuda/spmv_binned.cu) in
// dependent steps, block by block, against a balanced split of the same work.
// A block of 256 threads stages its products, then (phase 1) gives each row of
// up to 32 V entries a group of V lanes (V from the block's mean row and row
// count, as the kernel picks it), a warp's round lasting as long as its longest
// such row's ceil(len / V) steps; then (phase 2) one warp each to the rows of
// 32 V + 1 .. units entries, round-robin over the 8 warps, ceil(len / 32) steps
// each. The block's sum time is its slowest warp's steps. Balanced: each thread
// an equal share of the block's entries and row ends (a merge-path split:
// (entries + rows) / 256 steps, before its search and carry scan). Two
// variants between: "three classes" (rows of 8 V + 1 .. 256 entries 8 lanes
// each) and "rows past 256 by the CTA" (the binned option cta_rows_from 256:
// those rows summed by all 256 threads, ~8 steps of reduction each). Summed
// over the blocks (each block is one CTA; the GPU runs many at once, so the
// totals compare the splits, not times).
void report_sum_phase(const std::string& name, const saga::CsrMatrix& M, int sms) {
  const std::vector<saga::offset_t> rp = M.row_ptr().to_vector();
  const long long n = M.rows();
  const int base = saga::SpmvRowBlocks::default_units;
  const long long max_row = longest_row(rp);
  const int units =
      saga::spmv_plan_units(M.nnz(), n, max_row, base, sms, saga::SpmvRowBlocks::default_unstaged_mean,
                            saga::SpmvRowBlocks::default_power_law_units);
  constexpr int kBlock = 256, kWarps = kBlock / 32, kEntriesPerLane = 32;
  // Block b owns the rows whose work offset rp[r] + r lies in [b units, (b + 1) units).
  long long blocks = 0, cur_steps = 0, phase1_steps = 0, phase2_steps = 0, bal_steps = 0, worst_ratio_blocks = 0;
  long long three_class_steps = 0, cta_medium_steps = 0;
  long long r = 0;
  for (long long b = 0; r < n; ++b) {
    const long long r0 = r;
    while (r < n && static_cast<long long>(rp[r]) + r < (b + 1) * units) ++r;
    const long long r1 = r;
    if (r1 == r0) continue;
    ++blocks;
    // The last row, if longer than units, is split into chunks (not this phase's).
    const bool last_long = rp[r1] - rp[r1 - 1] > units;
    const long long rows = r1 - r0 - (last_long ? 1 : 0);
    const long long entries = (last_long ? rp[r1 - 1] : rp[r1]) - rp[r0];
    const long long mean = entries / std::max<long long>(rows, 1);
    int V = 1;
    while (V < 32 && (V * kEntriesPerLane < mean || 2 * V * rows <= kBlock)) V *= 2;
    const long long groups = kBlock / V, rows_per_warp = 32 / V;
    // Phase 1's steps a warp for the rows of at most `limit` entries: each
    // round, the longest such row among the warp's rows, ceil(len / V).
    const auto group_steps = [&](long long limit) {
      std::vector<long long> warp(kWarps, 0);
      for (long long base_row = r0; base_row < r0 + rows; base_row += groups)
        for (int w = 0; w < kWarps; ++w) {
          long long longest = 0;
          for (long long i = 0; i < rows_per_warp; ++i) {
            const long long row = base_row + w * rows_per_warp + i;
            if (row >= r0 + rows) break;
            const long long len = rp[row + 1] - rp[row];
            if (len <= limit) longest = std::max(longest, (len + V - 1) / V);
          }
          warp[w] += longest;
        }
      return warp;
    };
    const std::vector<long long> warp = group_steps(32 * V);
    const long long p1 = *std::max_element(warp.begin(), warp.end());
    std::vector<long long> warp2(kWarps, 0);
    long long ordinal = 0;
    for (long long row = r0; row < r0 + rows; ++row) {
      const long long len = rp[row + 1] - rp[row];
      if (len > 32 * V) warp2[static_cast<std::size_t>(ordinal++ % kWarps)] += (len + 31) / 32;
    }
    const long long p2 = *std::max_element(warp2.begin(), warp2.end());
    // Three classes instead: rows of up to 8 V entries in phase 1's groups, rows
    // of 8 V + 1 .. 256 entries 8 lanes each (4 a warp at once, round-robin over
    // the warps in row order), longer ones a warp each as in phase 2.
    std::vector<long long> w3 = group_steps(8 * V);
    std::vector<long long> mid_lens;
    for (long long row = r0; row < r0 + rows; ++row) {
      const long long len = rp[row + 1] - rp[row];
      if (len > 8 * V && len <= 256) mid_lens.push_back((len + 7) / 8);
    }
    for (std::size_t q = 0; q < mid_lens.size(); q += 4) {  // 4 rows a warp step, warps in turn
      long long longest = 0;
      for (std::size_t i = q; i < std::min(mid_lens.size(), q + 4); ++i) longest = std::max(longest, mid_lens[i]);
      w3[(q / 4) % kWarps] += longest;
    }
    long long ord3 = 0;
    for (long long row = r0; row < r0 + rows; ++row) {
      const long long len = rp[row + 1] - rp[row];
      if (len > 256 && len > 8 * V) w3[static_cast<std::size_t>(ord3++ % kWarps)] += (len + 31) / 32;
    }
    three_class_steps += *std::max_element(w3.begin(), w3.end());
    // Phase 2 with the rows past 256 entries summed by the whole CTA, one after
    // another (ceil(len / 256) steps and ~8 for the block's reduction each),
    // after the warps' round-robin of the rows of 32 V + 1 .. 256.
    std::vector<long long> w4(kWarps, 0);
    long long ord4 = 0, cta_rows = 0;
    for (long long row = r0; row < r0 + rows; ++row) {
      const long long len = rp[row + 1] - rp[row];
      if (len > 32 * V && len <= 256) w4[static_cast<std::size_t>(ord4++ % kWarps)] += (len + 31) / 32;
      if (len > 32 * V && len > 256) cta_rows += (len + kBlock - 1) / kBlock + 8;
    }
    cta_medium_steps += p1 + *std::max_element(w4.begin(), w4.end()) + cta_rows;
    const long long bal = (entries + rows + kBlock - 1) / kBlock;
    phase1_steps += p1;
    phase2_steps += p2;
    cur_steps += p1 + p2;
    bal_steps += bal;
    worst_ratio_blocks += p1 + p2 > 3 * bal;
  }
  std::printf("%s, row blocks of %d units (%lld blocks): the sum phase in dependent steps, summed over the blocks: "
              "now %lld (groups of V lanes %lld, medium rows' warps %lld), three classes %lld, rows past 256 by "
              "the CTA %lld, balanced %lld (now %.2fx it); blocks over 3x their balanced steps: %lld (%.1f%%)\n",
              name.c_str(), units, blocks, cur_steps, phase1_steps, phase2_steps, three_class_steps,
              cta_medium_steps, bal_steps,
              static_cast<double>(cur_steps) / static_cast<double>(std::max<long long>(bal_steps, 1)),
              worst_ratio_blocks, 100.0 * static_cast<double>(worst_ratio_blocks) / static_cast<double>(blocks));
}

int power_law_main(const char* scale_arg, const char* edges_arg) {
  char* end = nullptr;
  const long scale = std::strtol(scale_arg, &end, 10);
  if (*end != '\0' || scale < 4 || scale > 24)
    throw saga::InputError(std::string("the R-MAT scale must be a whole number from 4 to 24, not '") + scale_arg + "'");
  long edges = 16;
  if (edges_arg) {
    edges = std::strtol(edges_arg, &end, 10);
    if (*end != '\0' || edges < 1 || edges > 1024)
      throw saga::InputError(std::string("the R-MAT edges a row must be a whole number from 1 to 1024, not '") +
                             edges_arg + "'");
  }
  saga::RmatParams p;  // saga-bench-spmv's: the Graph500 quadrants, seed 2026 (16 edges a row unless given)
  p.seed = 2026;
  p.scale = static_cast<int>(scale);
  p.edges = static_cast<int>(edges);
  const std::string title = "R-MAT 2^" + std::to_string(scale) + " x" + std::to_string(edges);
  const saga::CsrMatrix G = saga::rmat_matrix(p, saga::Space::host);
  const saga::CsrMatrix L = saga::rmat_laplacian(p, 1.0, saga::Space::host);
  report_power_law(title, G);
  report_power_law(title + " Laplacian", L);
  report_sorted_slices(title, G);
  report_sorted_slices(title + " Laplacian", L);
  report_sum_phase(title, G, kSms);
  report_sum_phase(title + " Laplacian", L, kSms);
  return 0;
}

// The options with the device's coarse size where they leave it to the backend.
saga::AmgParams on_device_coarse_size(saga::AmgParams params) {
  params.coarse_size = saga::coarse_size_for(params, saga::Space::device);
  return params;
}

bool is_config(const std::string& arg) { return arg.size() > 5 && arg.compare(arg.size() - 5, 5, ".yaml") == 0; }

// The hierarchy of a config's problem (a .yaml path) or of a seed problem (STENCIL N), set up on the host with
// the device's coarse size.
std::unique_ptr<saga::AmgPreconditioner> setup(char** argv, bool config_file, std::string& title) {
  const std::string first = argv[1];
  if (config_file) {
    const saga::RunConfig config = saga::load_config(first);
    saga::Problem p = saga::build_problem(config.problem, saga::Space::host);
    saga::NearNullspace ns = saga::problem_nullspace(p, config, saga::Space::host);
    title = first + " (" + p.description + ")";
    return std::make_unique<saga::AmgPreconditioner>(std::move(p.A), on_device_coarse_size(config.amg), std::move(ns));
  }
  const saga::Stencil stencil = saga::parse_stencil(first);
  char* end = nullptr;
  const long n = std::strtol(argv[2], &end, 10);
  if (*end != '\0' || n < 2 || n > 4096)
    throw saga::InputError(std::string("N must be a whole number from 2 to 4096, not '") + argv[2] + "'");
  title = first + " N=" + argv[2];
  return std::make_unique<saga::AmgPreconditioner>(
      saga::poisson(stencil, static_cast<saga::index_t>(n), saga::Space::host), on_device_coarse_size({}));
}

}  // namespace

int main(int argc, char** argv) {
  const bool config_file = argc == 2 && is_config(argv[1]);
  const bool rmat = argc >= 2 && std::string(argv[1]) == "rmat";
  if (!config_file && !(argc == 3 || (rmat && argc == 4))) {
    std::fprintf(stderr, "usage: %s STENCIL N | CONFIG.yaml | rmat SCALE [EDGES]   (STENCIL: 2d5, 2d9, 3d7, 3d27)\n",
                 argv[0]);
    return 2;
  }
  try {
    if (rmat) return power_law_main(argv[2], argc == 4 ? argv[3] : nullptr);
    std::string title;
    const std::unique_ptr<saga::AmgPreconditioner> Mp = setup(argv, config_file, title);
    const saga::AmgPreconditioner& M = *Mp;
    const auto& L = M.hierarchy().levels();
    std::printf("%s, gathers of x in 32-byte sectors (0.25 a gather is perfect); columns 5-8 in the sliced "
                "rows' order, the last four in the vector rows' at G lanes a row:\n\n", title.c_str());
    std::printf("| operator | rows | entries | a row | sectors a gather | A MB | x sectors MB | x / A | "
                "vector rows G=4 | G=8 | G=16 | G=32 | max row | kernel (132 SMs) |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (std::size_t l = 0; l < L.size(); ++l) {
      report("A" + std::to_string(l), L[l].A);
      if (l + 1 < L.size()) {
        report("R" + std::to_string(l), L[l].R);
        report("P" + std::to_string(l), L[l].P);
      }
    }
    report("coarse inverse", M.hierarchy().coarse().inverse);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "saga-gather-model: %s\n", e.what());
    return 1;
  }
  return 0;
}
