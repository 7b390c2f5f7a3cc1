#pragma once
// How the binned SpMV (sparse/cuda/spmv_binned.cu) cuts a matrix into row
// blocks, one CTA each. A row costs its length + 1 work units; a block holds
// about `units` of them. Plain integer arithmetic, so that host tests check the
// rule where CI has no GPU (docs/spmv.md, thirty-fourth and thirty-fifth
// sessions).
#include <algorithm>
#include <cstdint>

#include "core/hd.hpp"
#include "core/types.hpp"

namespace saga {

struct SpmvRowBlocks {
  // Work units a block: the default base (the component's max_units), and the
  // bounds (max_units: the staging's shared memory, (8192 + 32) doubles).
  static constexpr int default_units = 2304, min_units = 256, max_units = 8192;
  // The binned option unstaged_mean's default (spmv_blocks_staged).
  static constexpr int default_unstaged_mean = 0;
  // Power-law matrices' staged row blocks (spmv_blocks_round_up): their base
  // units and the CTAs an SM their shared memory carveout holds (the binned
  // options power_law_units and power_law_ctas; spmv_plan_units).
  static constexpr int default_power_law_units = 1450, default_power_law_ctas = 7;
  // A row block's time is mostly its chain of dependent loads, so a last wave a
  // tenth full costs nearly a whole one: block counts are whole waves. 24 CTAs an
  // SM is a wave whether the kernel runs 6 (40 registers) or 8 (32) CTAs an SM;
  // grids below half such a wave use waves of 6 CTAs an SM.
  static constexpr int wave_ctas_per_sm = 24, small_wave_ctas_per_sm = 6;
  // Matrices of at most this many work units take the vector rows instead of
  // row blocks (the binned component's small_vector option). 2^18 from the
  // thirty-eighth session (level 2 of 3D 7-pt N=128, 211k units, 0.009 ->
  // 0.007 ms; larger bounds lost on level 1 of 3D 7-pt N=64, 840k units, when
  // the lanes a row were a kernel argument); 2^22 since the forty-sixth, with
  // compile-time lanes and ~4 entries a lane past 2^18 units (H200, V(1,1)
  // cycles in a graph: 2D 5-pt N=1024 -7.4%, 3D 7-pt N=64 -6.5%, 27-pt N=64
  // -6.7%, N=101 -2.2%, none slower; docs/spmv.md).
  static constexpr std::int64_t vector_max_units = std::int64_t{1} << 22;
  // Past this many work units (and a mean row under vector_long_mean_row) the
  // vector rows give a row about vector_mid_entries_a_lane entries a lane
  // rather than a lane an entry: such matrices fill the GPU with rows, and a
  // lane's loads in flight are what it lacks (27-pt N=128 level 1, 79507 rows
  // of ~26, L2 flushed: 32 lanes 0.027 ms, 8 lanes 0.015; forty-sixth session).
  static constexpr std::int64_t vector_few_lanes_units = std::int64_t{1} << 18;
  static constexpr int vector_mid_entries_a_lane = 4;
  // Rows averaging at most this many entries (the thread bin's: prolongators,
  // 5- and 7-point matrices) take 2 lanes a row, ~4 entries a lane, in
  // matrices past vector_two_lanes_min_units (spmv_vector_rows_lanes; forty-
  // eighth session). Below that bound (the coarse tails' P2, P3 of a few
  // thousand rows) a lane an entry again: a kernel there is a chain of
  // dependent loads, and the shorter chain won (fiftieth session, H200: the
  // CLI's warm solves of five seed configs 0.93-1.01 in median, 0.98 on
  // average; cycles in a graph 0.988-1.003; docs/spmv.md).
  static constexpr std::int64_t vector_two_lanes_mean = 8;
  static constexpr std::int64_t vector_two_lanes_min_units = std::int64_t{1} << 16;
  // Matrices of at most this many work units take the vector rows ahead of the
  // thread and warp bins: a coarse level's P or A of a few thousand rows makes
  // the thread or warp rows a grid of a few CTAs, each thread a serial chain of
  // loads, where the vector rows spread a row over 2-4 lanes (H200, forty-
  // seventh session, at 2^16: V(1,1) cycles in a graph 2D 5-pt N=1024 -3.2%,
  // 3D 7-pt N=128 -2.1%). 2^21 since the forty-eighth: the thread bin's
  // matrices up to ~2M entries + rows (3D 7-pt N=64's fine matrix and P0, 2D
  // 5-pt's P1), 2 lanes a row (spmv_vector_rows_lanes): 3D 7-pt N=64 -5.6%,
  // 2D 5-pt -1.0%, none slower (docs/spmv.md).
  static constexpr std::int64_t vector_tiny_units = std::int64_t{1} << 21;
  // Matrices whose mean row holds at least this many entries take the vector
  // rows at any size (the other bounds below still apply): a warp a row keeps
  // its loads coalesced there, and the row blocks' staging and barrier bought
  // nothing (H200, forty-second session: R0 of 3D 27-pt N=128, 79507 rows of
  // ~120, 0.061 -> 0.051 ms; R1 of 3D 7-pt N=128, 3939 rows of ~250, 0.018 ->
  // 0.012). Below 64 (level 1 and R0 of 3D 7-pt, ~30 a row) the sliced rows
  // or the row blocks serve better.
  static constexpr std::int64_t vector_long_mean_row = 64;
  static constexpr int vector_max_per_lane = 8;
  static constexpr int vector_max_row = 1024;
  static constexpr std::int64_t dense_max_cols = 4096;  // 16 entries a lane at 256 lanes a row
};

// Units a block so that the blocks fill a whole number of waves of `wave` CTAs:
// the wave count nearest total / base blocks, at least one, at most as many as
// keep min_units a block (the caller guarantees one wave does) and at least as
// many as keep max_units; the units spread evenly over them.
// With `round_up`, the wave count rounds up instead, so that no block exceeds
// the base (spmv_blocks_round_up).
inline std::int64_t spmv_units_in_whole_waves(std::int64_t total, std::int64_t base, std::int64_t wave,
                                              bool round_up = false) {
  std::int64_t waves = std::max<std::int64_t>(
      1, round_up ? (total + base * wave - 1) / (base * wave) : (total / base + wave / 2) / wave);
  waves = std::min(waves, total / (wave * SpmvRowBlocks::min_units));
  waves = std::max(waves, (total + wave * SpmvRowBlocks::max_units - 1) / (wave * SpmvRowBlocks::max_units));
  return (total + waves * wave - 1) / (waves * wave);
}

// Work units a block for a matrix of `total` = nnz + rows work units, from the
// base `base` (min_units..max_units) on a GPU of `sms` multiprocessors. The
// plan then has total / units + 1 blocks (the last one may be empty).
//  - from half a wave of 24 CTAs an SM up (where blocks of min_units fill one):
//    whole waves of 24 CTAs an SM;
//  - below, where blocks of min_units fill one wave of 6 CTAs an SM: whole
//    waves of 6 CTAs an SM (the 32-register kernels run such a grid in as
//    many waves or fewer, never more);
//  - the tiniest matrices: min_units.
// `round_up`: the wave counts round up (spmv_blocks_round_up).
inline int spmv_row_block_units(std::int64_t total, int base, int sms, bool round_up = false) {
  const std::int64_t wave = std::int64_t{SpmvRowBlocks::wave_ctas_per_sm} * sms;
  const std::int64_t small_wave = std::int64_t{SpmvRowBlocks::small_wave_ctas_per_sm} * sms;
  if (total / base >= wave / 2 && total >= wave * SpmvRowBlocks::min_units)
    return static_cast<int>(spmv_units_in_whole_waves(total, base, wave, round_up));
  if (total >= small_wave * SpmvRowBlocks::min_units)
    return static_cast<int>(spmv_units_in_whole_waves(total, base, small_wave, round_up));
  return SpmvRowBlocks::min_units;
}

// Whether blocks of `units` (the rule's) fit in one wave of 6 CTAs an SM: a
// product of a few microseconds, whose launches cost as much as its bytes. The
// binned SpMV then lets the CTAs of a long row's chunks finish the row instead
// of launching a kernel for it (BinnedPlan::finish_in_chunks).
inline bool spmv_blocks_in_one_small_wave(std::int64_t total, int units, int sms) {
  return total <= std::int64_t{SpmvRowBlocks::small_wave_ctas_per_sm} * sms * units;
}

// Lanes per row of the small matrices' vector kernel (and of csr_vector): the
// smallest power of two from 2 to 32 at least the mean row length.
inline int spmv_vector_lanes(std::int64_t nnz, std::int64_t rows) {
  int V = 2;
  while (V < 32 && static_cast<std::int64_t>(V) * rows < nnz) V *= 2;
  return V;
}

// Lanes per row for `rows` rows of `row_len` entries, past a warp: a power of
// two from 32 up to 256 (a CTA a row), doubled while each lane keeps at least
// `per_lane` entries and the rows fill at most one wave of 2048 threads an SM
// (`sms` multiprocessors). Shared by the vector rows and the dense rows below.
inline int spmv_wide_lanes(std::int64_t rows, std::int64_t row_len, int per_lane, int sms) {
  int G = 32;
  while (G < 256 && 2 * G * per_lane <= row_len && rows * 2 * G <= std::int64_t{sms} * 2048) G *= 2;
  return G;
}

// Lanes per row of the vector rows: V (spmv_vector_lanes) where the mean row
// has at most 32 entries; above, spmv_wide_lanes with 2 entries a lane of the
// mean row. Few long rows (R3 of 3D 27-pt N=101: 40 rows of ~1000, 32 entries
// a lane at 32 lanes) are then spread over more of the GPU. Matrices past
// vector_few_lanes_units with a mean under vector_long_mean_row: about
// vector_mid_entries_a_lane entries a lane (level 1 of 3D 7-pt N=64, mean 28:
// 8 lanes). A mean of at most vector_two_lanes_mean: 2 lanes past
// vector_two_lanes_min_units (a lane an entry had given 27-pt N=101's P1, 39304
// rows of 4.5, 8 lanes and its cycle +0.4%); smaller, a lane an entry.
inline int spmv_vector_rows_lanes(std::int64_t nnz, std::int64_t rows, int sms) {
  if (rows > 0 && nnz <= SpmvRowBlocks::vector_two_lanes_mean * rows &&
      nnz + rows > SpmvRowBlocks::vector_two_lanes_min_units)
    return 2;
  if (rows > 0 && nnz + rows > SpmvRowBlocks::vector_few_lanes_units && nnz < SpmvRowBlocks::vector_long_mean_row * rows)
    return spmv_vector_lanes(nnz, std::int64_t{SpmvRowBlocks::vector_mid_entries_a_lane} * rows);
  const int V = spmv_vector_lanes(nnz, rows);
  if (V < 32 || rows <= 0) return V;
  return spmv_wide_lanes(rows, (nnz + rows - 1) / rows, 2, sms);
}

// Whether a matrix (nnz entries, rows, its longest row max_row) takes the
// vector rows: at most max_units work units (the binned component's
// vector_max_units option, default SpmvRowBlocks::vector_max_units) or a mean
// row of at least vector_long_mean_row entries, no row longer than
// vector_max_row (a warp's loop of at most 32 entries a lane), and none of
// more than vector_max_per_lane times the larger of V and the mean row length.
// V comes from the mean, so one long row of a small skewed matrix would be
// summed by a few lanes in a long serial loop, where the row blocks give it a
// warp; rows all about as long (a coarse level's restriction, ~200 a row; a
// 27-point coarse operator) loop alike and stay, even where they are longer
// than the row blocks' units: there the row blocks would split them into
// chunks, two or three launches of a few microseconds each instead of one.
inline bool spmv_vector_rows_fit(std::int64_t nnz, std::int64_t rows, std::int64_t max_row,
                                 std::int64_t max_units = SpmvRowBlocks::vector_max_units) {
  if (rows <= 0 || max_row > SpmvRowBlocks::vector_max_row) return false;
  const std::int64_t mean = (nnz + rows - 1) / rows;
  if (nnz + rows > max_units && mean < SpmvRowBlocks::vector_long_mean_row) return false;
  return max_row <= std::int64_t{SpmvRowBlocks::vector_max_per_lane} * std::max<std::int64_t>(spmv_vector_lanes(nnz, rows), mean);
}

// Dense rows: every row holds every column (a coarse level's dense inverse,
// nnz = rows x cols; CsrMatrix's columns are sorted and distinct, and the
// binned plan checks the pattern on the device too). Their kernel reads no
// column index: a lane's loads do not wait for one another, where the vector
// rows' x waits for its column and the row blocks split rows this long into
// chunks (three launches). Only for rows of 32 to dense_max_cols entries.
inline bool spmv_dense_rows_fit(std::int64_t nnz, std::int64_t rows, std::int64_t cols) {
  return rows > 0 && cols >= 32 && cols <= SpmvRowBlocks::dense_max_cols && nnz == rows * cols;
}

// Lanes per dense row: spmv_wide_lanes with 4 entries a lane (measured for
// the 676 x 676 coarse inverse, which takes 128 lanes a row).
inline int spmv_dense_lanes(std::int64_t rows, std::int64_t cols, int sms) { return spmv_wide_lanes(rows, cols, 4, sms); }

// The end of the entries a row block sums itself, k1 = row_ptr[one past its
// last row], last_start = row_ptr[its last row]: last_start where that row is
// longer than `units` (split into chunks, below), else k1.
// Off: the row offsets' type the product reads (offset_t, or 32-bit where the
// SpMV keeps a narrow copy of a 64-bit build's offsets: spmv_binned.cu).
template <class Off = offset_t>
SAGA_HD inline Off spmv_block_short_rows_end(Off last_start, Off k1, int units) {
  return k1 - last_start > units ? last_start : k1;
}
// Where a row block's staged products end: the CTA stages the products of
// entries [k0, end) in shared memory, k0 = row_ptr[first row], short_end =
// spmv_block_short_rows_end(...). Block b owns the rows whose work offset
// row_ptr[r] + r lies in [b units, (b+1) units), so a row of more than `units`
// entries is always the last row of its block (the next row's offset is past
// the block); its chunks sum it, and none of its entries is staged: R-MAT 2^21
// x 16 staged 2.55M products (7.9% of its entries) for nothing before
// (thirty-eighth session: 0.369 -> 0.349 ms). Otherwise the block stages at most
// units + 32 products; rows reaching past them are summed from global memory.
// It takes the short-rows end rather than the row bounds so that rows_kernel
// keeps no more values live than it needs (with the bounds, rows_kernel<DotOut>
// took 40 registers instead of 32: 27-point PCG 3% slower).
template <class Off = offset_t>
SAGA_HD inline Off spmv_block_staged_end(Off k0, Off short_end, int units) {
  const Off cap = k0 + units + 32;
  return short_end < cap ? short_end : cap;
}
// Whether a matrix's row blocks stage their products: with `stage` on, all but
// those of a matrix with rows split into chunks (long_rows > 0: power-law
// degrees; no stencil has any) whose rows average at least `unstaged_mean`
// entries (the binned option unstaged_mean; 0, the default: never unstaged).
// Staging coalesces A's loads; unstaged lanes overlap the gathers of x with
// them. Which wins on power-law matrices is not a matter of the mean row
// (H200, fifty-third session, one run, R-MAT 2^20-2^22 x16 / x32 and their
// Laplacians): unstaged from a mean of 24 won 3-10% on 4 of 9 (2^21 x32's
// Laplacian 1.001 against 1.110 ms) and lost 3-11% on 4 others (2^22 x16's
// Laplacian 1.276 against 1.143); the nine summed the same (7.86 / 7.85 ms).
// Below a mean of ~17 staging won by 7-17% (fifty-second session).
inline bool spmv_blocks_staged(bool stage, std::int64_t long_rows, std::int64_t nnz, std::int64_t rows,
                               int unstaged_mean) {
  if (!stage) return false;
  if (unstaged_mean <= 0 || long_rows == 0 || rows == 0) return true;
  return nnz < static_cast<std::int64_t>(unstaged_mean) * rows;  // mean row below unstaged_mean
}
// Whether a matrix's row blocks take whole waves rounded up (blocks of at most
// the base) rather than to the nearest count: a matrix with rows longer than
// the base (power-law degrees; no stencil has any) whose blocks are staged
// (its mean row under `unstaged_mean`, or unstaged_mean 0: spmv_blocks_staged).
// Its CTAs take unequal times, so a part wave costs less than a whole one;
// and a larger block asks a larger shared memory carveout (room for 6 CTAs'
// staging), leaving L1 less for the gathers of x. Nearest counts had grown
// the blocks of base 2304 to ~3250 units on R-MAT 2^21 x4 and 2^20 x4 / x8 /
// x16 (one or two waves of 24 CTAs an SM). Rounded up (H200, fifty-third
// session, the same units timed as other bases): 2^21 x4 0.135 -> 0.100 ms
// (cuSPARSE 0.123), 2^20 x16 0.195 -> 0.150 (0.157), 2^20 x8 0.109 -> 0.097,
// its Laplacian 0.179 -> 0.146, x4's 0.140 -> 0.101, 2^22 x8 0.320 -> 0.308,
// its Laplacian 0.599 -> 0.587, 2^21 x8's 0.296 -> 0.298; 11 of the 24 R-MAT
// matrices measured keep their units (those of mean rows >= 24 that change:
// within 3% of their neighbouring units). Unstaged blocks (unstaged_mean) ran
// 1-3% faster with larger blocks: nearest counts there.
inline bool spmv_blocks_round_up(std::int64_t max_row, int base, std::int64_t nnz, std::int64_t rows,
                                 int unstaged_mean) {
  // A row past the base is split into chunks (long_rows > 0) at any units the rule can give.
  return max_row > base && spmv_blocks_staged(true, 1, nnz, rows, unstaged_mean);
}
// The units a block of the binned SpMV's plan (make_plan, sparse/cuda/
// spmv_binned.cu) for a matrix of `nnz` entries, `rows` rows and a longest
// row of `max_row`, from the base `base` on `sms` multiprocessors; a matrix
// whose waves round up (spmv_blocks_round_up: power-law degrees) takes the
// base `power_law_units` instead (0: `base`; at least min_units). Smaller
// blocks for them, with a carveout of room for 7 CTAs' staging
// (power_law_ctas; 100 KB on the H200 for blocks of ~1050-1450 units), beat
// base 2304 with room for 6 by more than 1% on 12 of 24 R-MAT matrices (H200,
// fifty-fourth session, both in one run, ms): 2^20 x4 0.078 -> 0.063, 2^21 x8
// 0.185 -> 0.160, x4's Laplacian 0.190 -> 0.165, x32 0.581 -> 0.538, x16's
// Laplacian 0.567 -> 0.533; 7 within 1%; 5 slower: 2^21 x32's Laplacian 0.971
// -> 1.014, 2^22 x16's 1.071 -> 1.102, 2^21 x4 0.100 -> 0.102, 2^22 x4 and its
// Laplacian 1-2%. With room for 6, blocks cut to ~1100 units fell in the 64 KB
// step: 6 CTAs an SM, not 8 (2^21 x4 0.113 against 0.102).
inline int spmv_plan_units(std::int64_t nnz, std::int64_t rows, std::int64_t max_row, int base, int sms,
                           int unstaged_mean, int power_law_units) {
  const bool power_law = spmv_blocks_round_up(max_row, base, nnz, rows, unstaged_mean);
  const int power_law_base = std::max(power_law_units, SpmvRowBlocks::min_units);
  return spmv_row_block_units(nnz + rows, power_law && power_law_units > 0 ? power_law_base : base, sms, power_law);
}
// The shared memory carveout, in percent of the most an SM has (`per_sm`
// bytes), that holds `ctas` CTAs of `smem` bytes of staging each plus the
// `reserved` bytes the runtime keeps a CTA; what the carveout leaves is L1.
// -1 (the driver's choice) for 0 CTAs or no staging. The driver rounds up to
// a carveout it supports (H100/H200: 0, 8, 16, 32, 64, 100, 132, 164, 196 or
// 228 KB). Room for 6 staged CTAs of 2304 units (132 KB, a 124 KB L1) beat the
// driver's choice for 8 on R-MAT 2^21 x16 (0.293 -> 0.282 ms) and its
// Laplacian (0.587 -> 0.579): the gathers of x hit L1 more (fifty-second
// session, H200).
inline int spmv_carveout_percent(int ctas, std::int64_t smem, int reserved, int per_sm) {
  if (ctas <= 0 || smem <= 0 || per_sm <= 0) return -1;
  const std::int64_t need = static_cast<std::int64_t>(ctas) * (smem + reserved);
  return static_cast<int>(std::min<std::int64_t>(100, (need * 100 + per_sm - 1) / per_sm));
}
// Sliced rows (sparse/cuda/spmv_sliced.cuh; docs/spmv.md, forty-first
// session): rows of 9 to 64 entries in slices of 32, each slice's entries
// stored step by step (entry k of every row that has one, longest row first),
// one thread a row. On the H200 this beat the warp bin and the row blocks by
// 10-18% on 2D 9-pt, 3D 27-pt and the coarse operators of 3D 7-pt (level 1
// and R0: 150-220k rows of ~30), and lost on matrices of few rows (level 1 of
// 3D 27-pt N=101, 39k rows: 9 warps an SM leave each thread's chain of loads
// exposed) and to the thread bin (7-point rows).
struct SpmvSliced {
  static constexpr int max_row = 64;             // the longest row one thread loops over
  static constexpr int min_warps_per_sm = 20;    // fewer rows: the vector rows or the row blocks
  // Up to this many warps of rows an SM, 8 entries in flight a thread, else 4:
  // the 8-entry kernels take 40-48 registers (40 resident warps an SM at 48), so
  // only grids well within one wave of them gain (3D 27-pt N=64's fine level,
  // 62 warps an SM, lost 9% of its cycle at 8).
  static constexpr int wide_unroll_warps_per_sm = 32;
  static constexpr int wide_unroll_mean_row = 32;
  // The copy (columns and values in slice order, a slot a row) may take at
  // most this fraction of the device memory available when it is made.
  static constexpr int memory_share_divisor = 4;
};

// Whether the sliced rows take a matrix of `rows` rows whose longest row is
// max_row (thread_max_row: the thread bin's bound, which keeps its matrices).
inline bool spmv_sliced_fit(std::int64_t rows, std::int64_t max_row, int thread_max_row, int sms) {
  return max_row > thread_max_row && max_row <= SpmvSliced::max_row &&
         rows >= std::int64_t{32} * SpmvSliced::min_warps_per_sm * sms;
}

// Sorted slices (sparse/cuda/spmv_sorted.cuh; docs/spmv.md, fifty-seventh
// session): power-law matrices (a row past the row blocks' base units) whose
// rows of at most max_row entries are sorted by length, longest first, within
// windows of `window` rows, and read as slices of 32 sorted rows, one thread a
// row, from a copy stored step by step (the sliced rows' layout); rows of
// max_row + 1 .. chunk entries a warp each, longer ones in chunks of `chunk`
// entries (a CTA each, the last to finish adds them). In one launch. On the
// H200 this beat the row blocks by 1.03-1.23x on R-MAT matrices and their
// Laplacians (2^20-2^22 rows), where the row blocks' staging and barrier cost
// more instructions than the gathers of x leave room for.
struct SpmvSorted {
  static constexpr int window = 1024;  // rows sorted within windows of this many
  static constexpr int max_row = 64;   // the longest row one thread loops over
  // Rows past the chunk go in CTA chunks of that many entries, shorter ones
  // take a warp each (binned option sorted_chunk; 0: spmv_sorted_chunk).
  static constexpr int min_chunk = 2048;
  static constexpr int max_chunk = 8192;
  static constexpr int resident_warps_per_sm = 64;  // sm_90: 2048 threads an SM
  static constexpr int min_warps_per_sm = 20;  // fewer rows (sorted_slices: auto): the row blocks
  static constexpr int unroll = 8;     // entries a thread loads before it uses them
  static constexpr int warp_unroll = 8;  // a warp row's entries a lane loads before it uses them
};
// Whether the sorted slices take a matrix of `rows` rows whose plan is
// power-law (BinnedPlan::power_law); `any_size` (sorted_slices: on) drops the
// rows bound.
inline bool spmv_sorted_fit(std::int64_t rows, bool power_law, int sms, bool any_size = false) {
  return power_law && (any_size || rows >= std::int64_t{32} * SpmvSorted::min_warps_per_sm * sms);
}
// The sorted slices' chunk for a matrix of `nnz` entries on `sms` SMs: the
// least power of two at or above twice a resident warp's share of the
// product, 2 nnz / (64 sms), within [min_chunk, max_chunk]. A warp row is
// then at most about twice what a warp does in the whole launch, so the
// longest warp row does not outlast the rest, while rows of up to the chunk
// avoid the CTA chunks' barrier, counter and second sum. On the H200 (132
// SMs; fifty-eighth session, docs/spmv.md) the best fixed chunk rose with
// the matrix (2048-4096 at 4-9M entries, 8192 from 17M); 16384 won by at
// most 1% on the largest (128-255M) and lost up to 11% at 63-66M. Over 38
// timings of 24 R-MAT matrices and Laplacians in three jobs this rule was
// within 2.9% of the best of 1024 .. 65536 (geometric mean 0.5%); 2048, the
// fifty-seventh session's fixed chunk, was up to 10% slower.
inline int spmv_sorted_chunk(std::int64_t nnz, int sms) {
  const double share = 2.0 * static_cast<double>(nnz) / (double{SpmvSorted::resident_warps_per_sm} * (sms > 0 ? sms : 1));
  int chunk = SpmvSorted::min_chunk;
  while (chunk < SpmvSorted::max_chunk && share > chunk) chunk *= 2;
  return chunk;
}

// An upper bound of the sorted copy's bytes (what a prepare asks room for):
// the columns and values (value_bytes) of every entry, and per row its
// position's row and length, a slice start, a listed row and its chunk's sum
// and count, and per warp row (more than max_row entries) its start and length.
inline std::int64_t spmv_sorted_bytes(std::int64_t rows, std::int64_t nnz, int value_bytes,
                                      int chunk = SpmvSorted::min_chunk) {
  return nnz * (4 + value_bytes) + 24 * (rows + 32) + 2 * (nnz / chunk + 1) * 12 +
         12 * (nnz / (SpmvSorted::max_row + 1) + 1);
}

// Which kernel the binned SpMV gives a matrix, in the order it asks
// (sparse/cuda/spmv_binned.cu: takes_sliced, then run_bins): the dense rows,
// the sliced rows (where their copy is made: the model assumes it is), the
// thread bin, the warp bin, the vector rows, else the row blocks (and the long
// rows' chunks). A host function of the matrix's shape and the component's
// options, for tools and tests without a GPU (tools/gather_model.cpp).
enum class SpmvRoute { dense, sliced, thread, warp, vector, row_blocks };
// The binned component's options that choose the route, at its defaults (keep
// them in step with Binned::Params, sparse/cuda/spmv_binned.cu).
struct SpmvRouteOptions {
  int thread_max_row = 8;
  int warp_max_row = 16;
  bool small_vector = true;
  std::int64_t vector_max_units = SpmvRowBlocks::vector_max_units;
  bool dense_rows = true;
  enum class Sliced { off, automatic, on } sliced = Sliced::automatic;
};
// dense: every row holds every column (the binned plan checks the pattern;
// with sorted, distinct columns it is nnz == rows x cols).
inline SpmvRoute spmv_binned_route(std::int64_t rows, std::int64_t cols, std::int64_t nnz, std::int64_t max_row,
                                   int sms, const SpmvRouteOptions& o = {}) {
  const bool dense = o.dense_rows && spmv_dense_rows_fit(nnz, rows, cols);
  if (dense) return SpmvRoute::dense;
  if (o.sliced == SpmvRouteOptions::Sliced::on ? max_row <= SpmvSliced::max_row
      : o.sliced == SpmvRouteOptions::Sliced::automatic ? spmv_sliced_fit(rows, max_row, o.thread_max_row, sms)
                                                        : false)
    return SpmvRoute::sliced;
  const bool vector = o.small_vector && spmv_vector_rows_fit(nnz, rows, max_row, o.vector_max_units);
  if (vector && nnz + rows <= SpmvRowBlocks::vector_tiny_units) return SpmvRoute::vector;  // tiny: ahead of the bins
  if (max_row <= o.thread_max_row) return SpmvRoute::thread;
  // The warp bin only for matrices the vector rows do not take (past 2^22 units
  // with short rows: the 2D 9-pt fine matrix); below, its grids of one row a
  // lane ran coarse operators at 34-39% of copy (level 1 of 2D 5-pt N=1024,
  // 13.2 us a pass) where the vector rows spread a row over 4 lanes (H200,
  // forty-seventh session, V(1,1) cycles in a graph: 2D 9-pt N=1024 -6.4%,
  // 3D 7-pt N=64 -10.6%, 2D 5-pt -1.9%, none slower; docs/spmv.md).
  if (max_row <= o.warp_max_row && !vector) return SpmvRoute::warp;
  if (vector) return SpmvRoute::vector;
  return SpmvRoute::row_blocks;
}
inline const char* spmv_route_name(SpmvRoute r) {
  switch (r) {
    case SpmvRoute::dense: return "dense rows";
    case SpmvRoute::sliced: return "sliced rows";
    case SpmvRoute::thread: return "thread rows";
    case SpmvRoute::warp: return "warp rows";
    case SpmvRoute::vector: return "vector rows";
    case SpmvRoute::row_blocks: return "row blocks";
  }
  return "?";
}

// Entries a thread loads before it uses them: 8 where the slices make at most
// wide_unroll_warps_per_sm warps an SM (few threads: each needs more loads in
// flight; level 1 of 3D 7-pt N=101, 97618 rows, 0.024 -> 0.021 ms) or the mean
// row passes wide_unroll_mean_row entries (R0 of 3D 7-pt N=128, 33.5 a row:
// 0.049 -> 0.045 ms), else 4 (the fine 27-point matrix at N=101 0.107 -> 0.100).
inline int spmv_sliced_unroll(std::int64_t rows, std::int64_t nnz, int sms) {
  if (rows <= 0) return 4;
  const bool few = (rows + 31) / 32 <= std::int64_t{SpmvSliced::wide_unroll_warps_per_sm} * sms;
  return few || nnz > std::int64_t{SpmvSliced::wide_unroll_mean_row} * rows ? 8 : 4;
}

// Bytes of a matrix's sliced copy: its columns and values (value_bytes each)
// in slice order and a 4-byte slot a row.
inline std::int64_t spmv_sliced_bytes(std::int64_t rows, std::int64_t nnz, int value_bytes) {
  return nnz * (4 + value_bytes) + 4 * rows;
}
}  // namespace saga
