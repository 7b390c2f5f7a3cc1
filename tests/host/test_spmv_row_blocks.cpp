// The binned SpMV's row-block rule (sparse/spmv_row_blocks.hpp): hand-computed
// plans of the benchmark's matrices on a 132-SM H100, and the rule's invariants
// over random sizes and GPUs. The GPU test checks that the device plan is this
// rule's.
#include <random>

#include "core/device.hpp"
#include "sparse/spmv.hpp"
#include "sparse/spmv_row_blocks.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
constexpr int kH100 = 132;
std::int64_t blocks_of(std::int64_t total, int units) { return total / units + 1; }
}  // namespace

TEST_CASE("SpMV row blocks: hand-computed plans on 132 SMs") {
  const int base = SpmvRowBlocks::default_units;
  struct Case {
    const char* name;
    std::int64_t nnz, rows;
    int units;
    std::int64_t blocks;
    bool one_small_wave;  // long rows finished by their chunks (spmv_blocks_in_one_small_wave)
  };
  // 24-CTA waves are 3168 blocks, 6-CTA waves 792.
  for (const Case& c : {
           // 49180 base blocks -> 16 waves of 3168: 113311352 / 50688 -> 2236 units
           Case{"3D 27-pt N=160", 109215352, 4096000, 2236, 50676, false},
           // 2896 base blocks -> 1 wave: 6674038 / 3168 -> 2107 units
           Case{"3D 7-pt N=128 level 1", 6451957, 222081, 2107, 3168, false},
           // 91 base blocks, below half a 24-CTA wave; 211474 >= 792 * 256: one 6-CTA wave
           // (the old halving to 4 blocks an SM gave 827 blocks of 256: two waves)
           Case{"3D 7-pt N=128 level 2", 207535, 3939, 268, 790, true},
           // below one 6-CTA wave of 256-unit blocks
           Case{"3D 7-pt N=128 level 3", 1976, 60, 256, 8, true},
           // 14980 base blocks -> 5 waves
           Case{"R-MAT 2^21 x16", 32417268, 2097152, 2179, 15840, false},
           // the dense inverse of 3D 7-pt N=64's 676-row coarsest level: one 6-CTA wave of
           // 578-unit blocks, every row (677 entries) split in 2 chunks that finish it
           Case{"3D 7-pt N=64 coarse inverse", 456976, 676, 578, 792, true},
       }) {
    CAPTURE(c.name);
    const std::int64_t total = c.nnz + c.rows;
    const int units = spmv_row_block_units(total, base, kH100);
    CHECK(units == c.units);
    CHECK(blocks_of(total, units) == c.blocks);
    CHECK(spmv_blocks_in_one_small_wave(total, units, kH100) == c.one_small_wave);
  }
}

TEST_CASE("SpMV row blocks: power-law matrices' waves rounded up (hand-computed, 132 SMs)") {
  const int base = SpmvRowBlocks::default_units, mean = 24;
  // Which matrices: rows longer than the base, and staged blocks (a mean row
  // under unstaged_mean, or unstaged_mean 0: the default, every power-law matrix).
  CHECK(SpmvRowBlocks::default_unstaged_mean == 0);
  CHECK(spmv_blocks_round_up(102939, base, 65633908, 2097152, SpmvRowBlocks::default_unstaged_mean));
  CHECK(spmv_blocks_round_up(20601, base, 8286533, 2097152, mean));     // R-MAT 2^21 x4
  CHECK_FALSE(spmv_blocks_round_up(base, base, 8286533, 2097152, mean)); // no row past the base
  CHECK_FALSE(spmv_blocks_round_up(427, base, 997346, 3939, mean));      // R1 of 3D 7-pt N=128
  CHECK_FALSE(spmv_blocks_round_up(102939, base, 65633908, 2097152, mean));  // x16's Laplacian, mean 31.3: unstaged
  CHECK(spmv_blocks_round_up(102939, base, 65633908, 2097152, 0));           // ... staged at unstaged_mean 0
  CHECK(spmv_blocks_round_up(5000, base, 23 * 1000 + 999, 1000, mean));      // mean 23.999
  CHECK_FALSE(spmv_blocks_round_up(5000, base, 24 * 1000, 1000, mean));      // mean 24
  struct Case {
    const char* name;
    std::int64_t nnz, rows;
    int nearest, rounded_up;  // units a block
  };
  for (const Case& c : {
           // 4506 base blocks: 1.42 waves of 3168 -> 1 (3278 units) or 2 (1639)
           Case{"R-MAT 2^21 x4", 8286533, 2097152, 3278, 1639},
           // 7437 base blocks: 2.35 waves -> 2 or 3
           Case{"R-MAT 2^20 x16", 16086088, 1048576, 2705, 1803},
           // 4003: 1.26 -> 1 or 2
           Case{"R-MAT 2^20 x8", 8175718, 1048576, 2912, 1456},
           // 8041: 2.54 -> 3 either way
           Case{"R-MAT 2^21 x8", 16429505, 2097152, 1950, 1950},
           // 14980: 4.73 -> 5 either way
           Case{"R-MAT 2^21 x16", 32417268, 2097152, 2179, 2179},
       }) {
    CAPTURE(c.name);
    const std::int64_t total = c.nnz + c.rows;
    CHECK(spmv_row_block_units(total, base, kH100) == c.nearest);
    CHECK(spmv_row_block_units(total, base, kH100, true) == c.rounded_up);
    CHECK(c.rounded_up <= base);
  }
}

TEST_CASE("SpMV row blocks: power-law matrices' own base and carveout (hand-computed, 132 SMs)") {
  const int base = SpmvRowBlocks::default_units, pl = SpmvRowBlocks::default_power_law_units;
  const int none = SpmvRowBlocks::default_unstaged_mean;
  CHECK(pl == 1450);
  CHECK(SpmvRowBlocks::default_power_law_ctas == 7);
  struct Case {
    const char* name;
    std::int64_t nnz, rows, max_row;
    int units;  // a block's, from base 1450, waves rounded up (the fifty-fourth session's sweep)
  };
  for (const Case& c : {
           Case{"R-MAT 2^21 x4", 8286533, 2097152, 20601, 1093},      // 7161 blocks: 2.26 waves -> 3
           Case{"R-MAT 2^21 x8", 16429505, 2097152, 40287, 1170},     // 12777: 4.03 -> 5
           Case{"R-MAT 2^21 x16", 32417268, 2097152, 62720, 1362},    // 23803: 7.51 -> 8
           Case{"R-MAT Laplacian 2^21 x16", 65633908, 2097152, 102939, 1426},
           Case{"R-MAT 2^20 x16", 16086088, 1048576, 30000, 1353},
       }) {
    CAPTURE(c.name);
    CHECK(spmv_plan_units(c.nnz, c.rows, c.max_row, base, kH100, none, pl) == c.units);
    CHECK(c.units <= pl);
    // power_law_units 0: the base, rounded up as before.
    CHECK(spmv_plan_units(c.nnz, c.rows, c.max_row, base, kH100, none, 0) ==
          spmv_row_block_units(c.nnz + c.rows, base, kH100, true));
  }
  // Matrices without a row past max_units keep max_units (stencils: 3D 27-pt N=160's rows).
  CHECK(spmv_plan_units(110592000, 4096000, 27, base, kH100, none, pl) ==
        spmv_row_block_units(110592000 + 4096000, base, kH100));
  // Nor does a matrix with rows past 1450 but not past max_units change.
  CHECK(spmv_plan_units(8286533, 2097152, 2000, base, kH100, none, pl) ==
        spmv_row_block_units(8286533 + 2097152, base, kH100));
  // power_law_units under min_units acts as min_units.
  CHECK(spmv_plan_units(8286533, 2097152, 20601, base, kH100, none, 1) ==
        spmv_plan_units(8286533, 2097152, 20601, base, kH100, none, SpmvRowBlocks::min_units));
  // Room for 7 CTAs of 1050-1450 units' staging (the sweep's blocks: 8 bytes
  // an entry, 32 more, 1 KB reserved a CTA) asks past the H200's 64 KB
  // carveout step and within its 100 KB one (228 KB an SM); room for 6 falls
  // to 64 KB below ~1240 units (6 CTAs resident, not 8).
  const int per_sm = 228 * 1024, reserved = 1024;
  const auto asked_kb = [&](int ctas, int units) {
    return spmv_carveout_percent(ctas, 8 * (units + 32), reserved, per_sm) * 228.0 / 100.0;
  };
  for (int units = 1050; units <= 1450; units += 50) {
    CAPTURE(units);
    CHECK(asked_kb(7, units) > 64.0);
    CHECK(asked_kb(7, units) <= 100.0);
  }
  CHECK(asked_kb(6, 1093) <= 64.0);
}

TEST_CASE("SpMV row blocks: bounds and whole waves over random sizes and GPUs") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_total(0.0, 34.0);  // 1 .. 2^34 work units
  std::uniform_int_distribution<int> base_of(SpmvRowBlocks::min_units, SpmvRowBlocks::max_units);
  const int sms_list[] = {1, 16, 108, 114, 132, 144};
  for (int trial = 0; trial < 20000; ++trial) {
    const auto total = static_cast<std::int64_t>(std::exp2(log_total(rng)));
    const int sms = sms_list[trial % 6];
    const int base = trial % 2 ? SpmvRowBlocks::default_units : base_of(rng);
    CAPTURE(total);
    CAPTURE(sms);
    CAPTURE(base);
    const int units = spmv_row_block_units(total, base, sms);
    // Every block fits the staging and holds at least min_units.
    REQUIRE(units >= SpmvRowBlocks::min_units);
    REQUIRE(units <= SpmvRowBlocks::max_units);
    const std::int64_t blocks = blocks_of(total, units);
    const std::int64_t wave = std::int64_t{SpmvRowBlocks::wave_ctas_per_sm} * sms;
    const std::int64_t small_wave = std::int64_t{SpmvRowBlocks::small_wave_ctas_per_sm} * sms;
    // Whole waves: the units are total spread evenly over k waves of w blocks
    // for some k >= 1 (units = ceil(total / (k w)); k lies between
    // total / (units w) and total / ((units - 1) w)).
    const auto whole_waves = [&](std::int64_t w, std::int64_t u) {
      const std::int64_t k_lo = std::max<std::int64_t>(1, (total + u * w - 1) / (u * w));
      const std::int64_t k_hi = u > 1 ? (total - 1) / ((u - 1) * w) : k_lo;
      for (std::int64_t k = k_lo; k <= k_hi + 1; ++k)
        if ((total + k * w - 1) / (k * w) == u) return true;
      return false;
    };
    if (total / base >= wave / 2 && total >= wave * SpmvRowBlocks::min_units) {
      CHECK(whole_waves(wave, units));
      // About the base: between 1/2 (half a wave rounded up to one) and 3/2 of
      // it; near min_units, fewer waves keep min_units (below 2 min_units).
      CHECK(2 * units >= std::min(base, 2 * SpmvRowBlocks::min_units) - 2);
      CHECK(2 * units <= std::max(3 * base, 4 * SpmvRowBlocks::min_units) + 2);
    } else if (total >= small_wave * SpmvRowBlocks::min_units) {
      CHECK(whole_waves(small_wave, units));
    } else {
      CHECK(units == SpmvRowBlocks::min_units);
      CHECK(blocks <= small_wave);  // less than one small wave of work
    }
    // Waves rounded up (power-law matrices): whole waves of the same kind, no
    // larger than the nearest count's blocks, nor than the base (where blocks
    // of min_units do not cap the wave count).
    const int up = spmv_row_block_units(total, base, sms, true);
    REQUIRE(up >= SpmvRowBlocks::min_units);
    CHECK(up <= units);
    CHECK(up <= std::max(base, 2 * SpmvRowBlocks::min_units));
    if (total / base >= wave / 2 && total >= wave * SpmvRowBlocks::min_units)
      CHECK(whole_waves(wave, up));
    else if (total >= small_wave * SpmvRowBlocks::min_units)
      CHECK(whole_waves(small_wave, up));
  }
  MESSAGE("seed " << seed);
}

// A block's staged end from its bounds (k0, its last row's start, k1), as rows_kernel derives it.
static offset_t staged_end(offset_t k0, offset_t last_start, offset_t k1, int units) {
  return spmv_block_staged_end(k0, spmv_block_short_rows_end(last_start, k1, units), units);
}

TEST_CASE("SpMV row blocks: the staged products of a block (hand-computed)") {
  // Short rows inside the block: every product staged.
  CHECK(staged_end(100, 190, 200, 256) == 200);
  // Short rows reaching past units + 32 products: staging stops there (the
  // rest is summed from global memory).
  CHECK(staged_end(100, 300, 400, 256) == 388);
  // The last row is long (300 > 256 entries): staging stops at its start.
  CHECK(staged_end(100, 180, 480, 256) == 180);
  // The block is one long row: nothing staged.
  CHECK(staged_end(100, 100, 1000, 256) == 100);
  // A last row of exactly `units` entries is not long: staged up to the cap.
  CHECK(staged_end(0, 20, 276, 256) == 276);
  CHECK(staged_end(0, 40, 296, 256) == 288);
}

TEST_CASE("SpMV row blocks: the small matrices' lanes per row (hand-computed)") {
  // The smallest power of two from 2 to 32 at least the mean row length.
  CHECK(spmv_vector_lanes(0, 10) == 2);
  CHECK(spmv_vector_lanes(20, 10) == 2);     // mean 2
  CHECK(spmv_vector_lanes(21, 10) == 4);     // mean 2.1
  CHECK(spmv_vector_lanes(160, 10) == 16);   // mean 16
  CHECK(spmv_vector_lanes(161, 10) == 32);   // mean 16.1
  CHECK(spmv_vector_lanes(207535, 3939) == 32);  // level 2 of 3D 7-pt N=128 (mean 53)
  CHECK(spmv_vector_lanes(7, 1) == 8);
  // Which matrices take them: level 2 of 3D 7-pt N=128 (max row 82), level 3
  // (60 rows, 1976 entries, max 57) and level 1 of 3D 7-pt N=64 (28744 rows,
  // 811882 entries; in the row blocks until the forty-sixth session) do.
  CHECK(spmv_vector_rows_fit(207535, 3939, 82));
  CHECK(spmv_vector_rows_fit(1976, 60, 57));
  CHECK(spmv_vector_rows_fit(811882, 28744, 40));
  // The bound on work units: 2^22 exactly (rows of a mean below 64).
  CHECK(spmv_vector_rows_fit(4194304 - 100000, 100000, 100));
  CHECK_FALSE(spmv_vector_rows_fit(4194305 - 100000, 100000, 100));
  // A skewed small matrix: mean 3 (V = 4 lanes), so rows up to 32 entries fit
  // and a row of 33 sends the matrix to the row blocks.
  CHECK(spmv_vector_rows_fit(3000, 1000, 32));
  CHECK_FALSE(spmv_vector_rows_fit(3000, 1000, 33));
  // The bound is the component's option where it is given: level 1 of 3D
  // 7-pt N=64 fits 2^20 units.
  CHECK(spmv_vector_rows_fit(811882, 28744, 40, std::int64_t{1} << 20));
  CHECK_FALSE(spmv_vector_rows_fit(811882, 28744, 40, std::int64_t{1} << 19));
  // Rows all about as long as the longest stay past 8 V, longer than a small
  // matrix's row blocks (units from 256) too: a restriction of mean 220 a row
  // (V = 32) with a row of 400, a dense 300 x 300 block.
  CHECK(spmv_vector_rows_fit(676 * 220, 676, 400));
  CHECK(spmv_vector_rows_fit(300 * 300, 300, 300));
  CHECK_FALSE(spmv_vector_rows_fit(676 * 220, 676, 8 * 220 + 1));
  // A mean row of 64 entries or more takes them at any size: R0 of 3D 27-pt
  // N=128 (79507 rows, 9528128 entries, max 125), a dense 676 x 676 block
  // (past 2^18 units; the dense rows come first where they are on), whatever
  // the option's bound (0 below). A mean of 63 past 2^22 units does not.
  CHECK(spmv_vector_rows_fit(9528128, 79507, 125));
  CHECK(spmv_vector_rows_fit(9528128, 79507, 125, 0));
  CHECK(spmv_vector_rows_fit(676 * 676, 676, 676));
  CHECK(spmv_vector_rows_fit(64 * 10000, 10000, 100));
  CHECK_FALSE(spmv_vector_rows_fit(63 * 100000, 100000, 100));
  CHECK_FALSE(spmv_vector_rows_fit(9528128, 79507, 8 * 120 + 1));
  // No row longer than 1024 entries (32 a lane), however even: one row of
  // 70000, 200 rows of 1025.
  CHECK(spmv_vector_rows_fit(200 * 1024, 200, 1024));
  CHECK_FALSE(spmv_vector_rows_fit(200 * 1025, 200, 1025));
  CHECK_FALSE(spmv_vector_rows_fit(70000, 1, 70000));
  // And no rows at all: nothing to take.
  CHECK_FALSE(spmv_vector_rows_fit(0, 0, 0));
}

TEST_CASE("SpMV row blocks: the vector rows' lanes past 32 (hand-computed)") {
  // A mean of at most 8 entries (the thread bin's rows): 2 lanes past 2^16 work
  // units (rows plus entries); at most that, a lane an entry (spmv_vector_lanes).
  CHECK(spmv_vector_rows_lanes(3000, 1000, 132) == 4);
  CHECK(spmv_vector_rows_lanes(8000, 1000, 132) == 8);
  CHECK(spmv_vector_rows_lanes(4902 * 7, 4902, 132) == 8);        // a coarse tail's prolongator (2 lanes in the 48th-49th sessions)
  CHECK(spmv_vector_rows_lanes(65536 - 8192, 8192, 132) == 8);    // 2^16 units exactly: still a lane an entry
  CHECK(spmv_vector_rows_lanes(65537 - 8192, 8192, 132) == 2);    // one past
  CHECK(spmv_vector_rows_lanes(300000, 100000, 132) == 2);
  CHECK(spmv_vector_rows_lanes(176868, 39304, 132) == 2);     // P1 of 27-pt N=101, mean 4.5 (8 lanes before)
  CHECK(spmv_vector_rows_lanes(1810432, 262144, 132) == 2);   // the 3D 7-pt N=64 fine matrix, mean 6.9
  // Up to a mean of 32 entries: V, as spmv_vector_lanes.
  CHECK(spmv_vector_rows_lanes(8001, 1000, 132) == 16);
  CHECK(spmv_vector_rows_lanes(12000, 1000, 132) == 16);
  CHECK(spmv_vector_rows_lanes(207535, 3939, 132) == 32);  // mean 53: 64 lanes would leave 0.8 a lane
  // Above: doubled while each lane keeps 2 entries of the mean row and the rows
  // fit one wave (132 SMs: 270336 threads).
  CHECK(spmv_vector_rows_lanes(676 * 180, 676, 132) == 64);     // R1 of 3D 7-pt N=64: 2.8 a lane
  CHECK(spmv_vector_rows_lanes(40 * 1000, 40, 132) == 256);     // R3 of 27-pt N=101: 3.9 a lane
  CHECK(spmv_vector_rows_lanes(848 * 250, 848, 132) == 64);     // 128 lanes would leave 1.95 a lane
  CHECK(spmv_vector_rows_lanes(8000 * 1000, 8000, 132) == 32);  // 8000 x 64 lanes would pass one wave
  CHECK(spmv_vector_rows_lanes(0, 0, 132) == 2);
  // Past 2^18 work units with a mean under 64: about 4 entries a lane (the
  // smallest power of two at least a quarter of the mean row).
  CHECK(spmv_vector_rows_lanes(811882, 28744, 132) == 8);    // level 1 of 3D 7-pt N=64, mean 28.2
  CHECK(spmv_vector_rows_lanes(2048383, 79507, 132) == 8);   // level 1 of 27-pt N=128, mean 25.8
  CHECK(spmv_vector_rows_lanes(900000, 100000, 132) == 4);   // mean 9
  CHECK(spmv_vector_rows_lanes(3300000, 100000, 132) == 16); // mean 33
  CHECK(spmv_vector_rows_lanes(250000, 10000, 132) == 32);   // 260000 units: V = 32 of the mean 25
  CHECK(spmv_vector_rows_lanes(6400000, 100000, 132) == 32); // mean 64: V = 32, wide lanes as before
}

TEST_CASE("SpMV row blocks: lanes a row are what the kernels are compiled for (random shapes)") {
  // The binned SpMV compiles its vector and dense rows for 2, 4, ..., 256 lanes
  // a row (with_lanes, sparse/cuda/spmv_binned.cu) and the dense rows for 32
  // and up; any other count would be an error at run time.
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const auto power_of_two_in = [](int g, int lo, int hi) { return g >= lo && g <= hi && (g & (g - 1)) == 0; };
  for (int trial = 0; trial < 20000; ++trial) {
    const std::int64_t rows = std::uniform_int_distribution<std::int64_t>(0, 1 << 22)(rng) >> (rng() % 20);
    const std::int64_t mean = std::uniform_int_distribution<std::int64_t>(0, 4096)(rng) >> (rng() % 12);
    const int sms = std::uniform_int_distribution<int>(1, 264)(rng);
    CAPTURE(rows);
    CAPTURE(mean);
    CAPTURE(sms);
    CHECK(power_of_two_in(spmv_vector_rows_lanes(rows * mean, rows, sms), 2, 256));
    CHECK(power_of_two_in(spmv_dense_lanes(rows, mean, sms), 32, 256));
  }
}

TEST_CASE("SpMV row blocks: dense rows and their lanes (hand-computed)") {
  // Every row holds every column, 32 to 4096 of them.
  CHECK(spmv_dense_rows_fit(676 * 676, 676, 676));
  CHECK(spmv_dense_rows_fit(40 * 3000, 40, 3000));
  CHECK(spmv_dense_rows_fit(32, 1, 32));
  CHECK(spmv_dense_rows_fit(4096, 1, 4096));
  CHECK_FALSE(spmv_dense_rows_fit(676 * 676 - 1, 676, 676));  // one entry missing
  CHECK_FALSE(spmv_dense_rows_fit(31 * 60, 60, 31));          // rows too short: the thread or warp bins
  CHECK_FALSE(spmv_dense_rows_fit(4097, 1, 4097));            // rows too long: chunks over many CTAs
  CHECK_FALSE(spmv_dense_rows_fit(70000, 70000, 1));
  CHECK_FALSE(spmv_dense_rows_fit(0, 0, 100));
  // Lanes: doubled from 32 while each keeps 4 entries and the rows fit one
  // wave of 2048 threads an SM (132 SMs: 270336 threads).
  CHECK(spmv_dense_lanes(676, 676, 132) == 128);   // 5.3 entries a lane, 86528 threads
  CHECK(spmv_dense_lanes(60, 60, 132) == 32);      // fewer than 4 entries a lane at 64
  CHECK(spmv_dense_lanes(40, 3000, 132) == 256);   // a CTA a row
  CHECK(spmv_dense_lanes(4000, 4000, 132) == 64);  // 4000 x 128 lanes would pass one wave
  CHECK(spmv_dense_lanes(676, 511, 132) == 32 * 2);  // 128 lanes would leave 3.99 entries a lane
  CHECK(spmv_dense_lanes(676, 512, 132) == 128);
}

TEST_CASE("SpMV sliced rows: which matrices take them, their unroll and their copy's bytes (hand-computed)") {
  // 132 SMs: at least 16 x 32 x 132 = 67584 rows; rows past the thread bin
  // (8 entries) and at most 64 entries.
  CHECK(spmv_sliced_fit(222081, 42, 8, 132));    // level 1 of 3D 7-pt N=128 (rows of 15-42)
  CHECK(spmv_sliced_fit(1030301, 27, 8, 132));   // 3D 27-pt N=101
  CHECK(spmv_sliced_fit(1048576, 9, 8, 132));    // 2D 9-pt N=1024
  CHECK(spmv_sliced_fit(84480, 64, 8, 132));
  CHECK_FALSE(spmv_sliced_fit(84479, 64, 8, 132));   // too few rows: the vector rows or row blocks (level 1 of 27-pt N=101: 39304)
  CHECK_FALSE(spmv_sliced_fit(79507, 27, 8, 132));   // level 1 of 27-pt N=128: 8-lane vector rows
  CHECK_FALSE(spmv_sliced_fit(39304, 27, 8, 132));
  CHECK_FALSE(spmv_sliced_fit(2097152, 7, 8, 132));  // the thread bin's (3D 7-pt)
  CHECK_FALSE(spmv_sliced_fit(2097152, 8, 8, 132));
  CHECK_FALSE(spmv_sliced_fit(1030301, 65, 8, 132));  // a row past 64 entries
  CHECK(spmv_sliced_fit(2097152, 7, 0, 132));         // with the thread bin off
  // 8 entries in flight a thread up to 32 warps of rows an SM (135168 rows on
  // 132 SMs) or past a mean of 32 entries a row, else 4.
  CHECK(spmv_sliced_unroll(97618, 2792802, 132) == 8);    // level 1 of 3D 7-pt N=101
  CHECK(spmv_sliced_unroll(135168, 135168 * 9, 132) == 8);
  CHECK(spmv_sliced_unroll(135169, 135169 * 9, 132) == 4);
  CHECK(spmv_sliced_unroll(222081, 6451957, 132) == 4);   // level 1 of 3D 7-pt N=128 (29.1 a row)
  CHECK(spmv_sliced_unroll(222081, 7436431, 132) == 8);   // its R0 (33.5 a row)
  CHECK(spmv_sliced_unroll(200000, 6400000, 132) == 4);   // a mean of 32 exactly
  CHECK(spmv_sliced_unroll(200000, 6400001, 132) == 8);
  CHECK(spmv_sliced_unroll(262144, 6859000, 132) == 4);   // 3D 27-pt N=64
  CHECK(spmv_sliced_unroll(0, 0, 132) == 4);
  // Columns (4 B) and values (4 or 8 B) an entry, a 4-byte slot a row.
  CHECK(spmv_sliced_bytes(222081, 6451957, 8) == 6451957LL * 12 + 4 * 222081);
  CHECK(spmv_sliced_bytes(1030301, 27270901, 4) == 27270901LL * 8 + 4 * 1030301);
}

TEST_CASE("SpMV row blocks: a long row is its block's last, and none of its entries is staged") {
  // The blocks of block_rows_kernel (sparse/cuda/spmv_binned.cu): block b owns
  // the rows whose work offset row_ptr[r] + r lies in [b units, (b+1) units).
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::int64_t long_rows = 0;
  for (int trial = 0; trial < 200; ++trial) {
    // Power-law row lengths (0 .. ~10^4 entries), the case long rows exist for.
    const int n = std::uniform_int_distribution<int>(1, 3000)(rng);
    const int units = std::uniform_int_distribution<int>(SpmvRowBlocks::min_units, 2304)(rng);
    std::exponential_distribution<double> e(1.0);
    std::vector<offset_t> rp(n + 1, 0);
    for (int r = 0; r < n; ++r) rp[r + 1] = rp[r] + static_cast<offset_t>(std::min(2e4, std::exp(2.2 * e(rng))) - 1);
    const std::int64_t total = std::int64_t{rp[n]} + n;
    const std::int64_t blocks = total / units + 1;
    std::vector<int> block_row(blocks + 1, n);  // block_row[b] = min{r : rp[r] + r >= b units}, at most n
    int r = 0;
    for (std::int64_t b = 0; b < blocks; ++b) {
      while (r < n && std::int64_t{rp[r]} + r < b * units) ++r;
      block_row[b] = r;
    }
    CAPTURE(trial);
    CAPTURE(n);
    CAPTURE(units);
    std::int64_t covered = 0;
    for (std::int64_t b = 0; b < blocks; ++b) {
      const int r0 = block_row[b], r1 = block_row[b + 1];
      if (r0 >= r1) continue;
      const offset_t k0 = rp[r0], k1 = rp[r1];
      const offset_t end = staged_end(k0, rp[r1 - 1], k1, units);
      REQUIRE(end >= k0);
      REQUIRE(end - k0 <= units + 32);  // fits the staging buffer
      for (int q = r0; q < r1; ++q) {
        if (rp[q + 1] - rp[q] > units) {
          ++long_rows;
          CHECK(q == r1 - 1);     // a long row is only ever the last
          CHECK(end <= rp[q]);    // and none of its entries is staged
        } else if (rp[q + 1] <= k0 + units + 32) {
          CHECK(rp[q + 1] <= end);  // a short row within the cap: staged whole
        }
      }
      covered += r1 - r0;
    }
    CHECK(covered == n);  // every row in exactly one block
  }
  CHECK(long_rows > 1000);  // the case was met (about 3% of the rows pass 2304 entries)
  MESSAGE("seed " << seed);
}

TEST_CASE("SpMV routes: which kernel the binned SpMV gives the seed matrices (hand-computed, 132 SMs)") {
  const auto route = [](std::int64_t rows, std::int64_t cols, std::int64_t nnz, std::int64_t max_row,
                        const SpmvRouteOptions& o = {}) { return spmv_binned_route(rows, cols, nnz, max_row, 132, o); };
  // 3D 7-pt N=128's hierarchy: the fine matrix and P0 in the thread rows, level 1 and R0 sliced, level 2, level 3
  // and R1 (mean 253) in the vector rows, the 60 x 60 coarse inverse in the dense rows.
  CHECK(route(2097152, 2097152, 14581760, 7) == SpmvRoute::thread);
  CHECK(route(2097152, 222081, 7436431, 6) == SpmvRoute::thread);
  CHECK(route(222081, 222081, 6451957, 42) == SpmvRoute::sliced);
  CHECK(route(222081, 2097152, 7436431, 52) == SpmvRoute::sliced);
  CHECK(route(3939, 3939, 207535, 82) == SpmvRoute::vector);
  CHECK(route(3939, 222081, 997346, 427) == SpmvRoute::vector);
  CHECK(route(60, 60, 1976, 57) == SpmvRoute::vector);
  CHECK(route(60, 60, 3600, 60) == SpmvRoute::dense);
  // Level 1 of 27-pt N=101 (39304 rows of ~26): the vector rows since the forty-sixth session, the row blocks
  // under the old bound of 2^18 work units.
  CHECK(route(39304, 39304, 1021904, 27) == SpmvRoute::vector);
  SpmvRouteOptions old_bound;
  old_bound.vector_max_units = std::int64_t{1} << 18;
  CHECK(route(39304, 39304, 1021904, 27, old_bound) == SpmvRoute::row_blocks);
  // 2D: 5-pt in the thread rows, 9-pt sliced (the warp rows with the sliced rows off).
  CHECK(route(1048576, 1048576, 5238784, 5) == SpmvRoute::thread);
  CHECK(route(1048576, 1048576, 9424900, 9) == SpmvRoute::sliced);
  SpmvRouteOptions sliced_off;
  sliced_off.sliced = SpmvRouteOptions::Sliced::off;
  CHECK(route(1048576, 1048576, 9424900, 9, sliced_off) == SpmvRoute::warp);
  // sliced: on takes any matrix of rows up to 64 entries, the thread bin's too; not the dense rows.
  SpmvRouteOptions sliced_on;
  sliced_on.sliced = SpmvRouteOptions::Sliced::on;
  CHECK(route(2097152, 2097152, 14581760, 7, sliced_on) == SpmvRoute::sliced);
  CHECK(route(60, 60, 3600, 60, sliced_on) == SpmvRoute::dense);
  // Without the dense rows a full 60 x 60 block is a small matrix of the vector rows.
  SpmvRouteOptions no_dense;
  no_dense.dense_rows = false;
  CHECK(route(60, 60, 3600, 60, no_dense) == SpmvRoute::vector);
  SpmvRouteOptions no_small_vector;
  no_small_vector.small_vector = false;
  // Tiny matrices (at most 2^21 work units, rows plus entries) take the vector rows ahead of the thread and warp
  // bins: a coarse P of 10000 rows of 5 (60000 units), the 3D 7-pt N=64 fine matrix (2072576 units) and one at the
  // bound; one entry past it, the thread rows (as the 3D 7-pt N=128 fine matrix and P0, above).
  CHECK(route(10000, 2000, 50000, 5) == SpmvRoute::vector);
  CHECK(route(262144, 262144, 1810432, 7) == SpmvRoute::vector);
  CHECK(route(300000, 60000, 1797152, 7) == SpmvRoute::vector);
  CHECK(route(300000, 60000, 1797153, 7) == SpmvRoute::thread);
  // Rows of 9-16 entries (the warp bin's) take the vector rows wherever those fit, at any size up to 2^22 units:
  // level 1 of 2D 5-pt N=1024 (174849 rows of 9, max 10); the 2D 9-pt fine matrix (past 2^22, mean 9) keeps the
  // warp rows (with the sliced rows off, above).
  CHECK(route(4000, 4000, 52000, 14) == SpmvRoute::vector);
  CHECK(route(4000, 4000, 62000, 14) == SpmvRoute::vector);
  CHECK(route(174849, 174849, 1569541, 10, sliced_off) == SpmvRoute::vector);
  CHECK(route(174849, 174849, 1569541, 10, no_small_vector) == SpmvRoute::sliced);
  SpmvRouteOptions neither = no_small_vector;
  neither.sliced = SpmvRouteOptions::Sliced::off;
  CHECK(route(174849, 174849, 1569541, 10, neither) == SpmvRoute::warp);
  CHECK(route(10000, 2000, 50000, 5, no_small_vector) == SpmvRoute::thread);
  CHECK(route(262144, 262144, 1810432, 7, no_small_vector) == SpmvRoute::thread);
  // A power-law matrix (R-MAT 2^21 x 16, a row of 62720): the row blocks and their long rows' chunks.
  CHECK(route(2097152, 2097152, 30000000, 62720) == SpmvRoute::row_blocks);
  CHECK(std::string(spmv_route_name(SpmvRoute::row_blocks)) == "row blocks");
}

TEST_CASE("SpMV routes: the route options' defaults are the binned component's") {
  // SpmvRouteOptions{} models the binned SpMV at its defaults (saga-gather-model's kernel column): its fields must
  // equal the registered component's parameters, read here without a GPU.
  if (!device::compiled()) return;  // no binned component in a build without CUDA
  const auto& entry = spmv_registry().entry(Component("binned"), Space::device);
  std::map<std::string, std::string> v;
  for (const ParamEntry& p : entry.values(Options(), "amg.spmv")) v[p.key] = to_string(p.value);
  const SpmvRouteOptions o;
  CHECK(v.at("thread_max_row") == std::to_string(o.thread_max_row));
  CHECK(v.at("warp_max_row") == std::to_string(o.warp_max_row));
  CHECK(v.at("vector_max_units") == std::to_string(o.vector_max_units));
  CHECK(v.at("small_vector") == (o.small_vector ? "true" : "false"));
  CHECK(v.at("dense_rows") == (o.dense_rows ? "true" : "false"));
  CHECK(v.at("sliced") == "auto");
  CHECK(o.sliced == SpmvRouteOptions::Sliced::automatic);
}

TEST_CASE("SpMV row blocks: the shared memory carveout for N staged CTAs an SM (hand-computed)") {
  // H100/H200: 233472 bytes an SM (228 KB), 1024 reserved a CTA; 2304 units
  // stage 2336 doubles = 18688 bytes.
  const int per_sm = 233472, reserved = 1024;
  // 6 CTAs: 6 * 19712 = 118272 bytes = 50.66% -> 51% (116.3 KB; the driver
  // rounds up to its 132 KB carveout).
  CHECK(spmv_carveout_percent(6, 18688, reserved, per_sm) == 51);
  CHECK(51 * per_sm / 100 >= 6 * (18688 + reserved));
  // 8 CTAs: 157696 bytes = 67.54% -> 68%.
  CHECK(spmv_carveout_percent(8, 18688, reserved, per_sm) == 68);
  // Exactly a whole percent: no rounding up past it.
  CHECK(spmv_carveout_percent(1, per_sm / 100 - reserved, reserved, per_sm) == 1);
  // More than an SM holds: all of it.
  CHECK(spmv_carveout_percent(32, 65792, reserved, per_sm) == 100);
  // No CTAs asked for, or no staging (unstaged blocks): the driver's choice.
  CHECK(spmv_carveout_percent(0, 18688, reserved, per_sm) == -1);
  CHECK(spmv_carveout_percent(6, 0, reserved, per_sm) == -1);
}

TEST_CASE("SpMV row blocks: which matrices' blocks stage their products (hand-computed)") {
  // stage off: never, whatever the rest.
  CHECK_FALSE(spmv_blocks_staged(false, 0, 100, 10, 0));
  CHECK_FALSE(spmv_blocks_staged(false, 3, 100, 10, 24));
  // unstaged_mean 0 (off): staged, split rows or not.
  CHECK(spmv_blocks_staged(true, 5, 60 * 1000, 1000, 0));
  // No split rows (every stencil): staged at any mean.
  CHECK(spmv_blocks_staged(true, 0, 60 * 1000, 1000, 24));
  // Split rows: unstaged from a mean of unstaged_mean entries, inclusive.
  CHECK(spmv_blocks_staged(true, 1, 23 * 1000 + 999, 1000, 24));  // mean 23.999
  CHECK_FALSE(spmv_blocks_staged(true, 1, 24 * 1000, 1000, 24));  // mean 24
  CHECK_FALSE(spmv_blocks_staged(true, 7, 65633908, 2097152, 24));  // R-MAT x16's Laplacian, mean 31.3
  CHECK(spmv_blocks_staged(true, 7, 32417268, 2097152, 24));        // R-MAT x16, mean 15.5
  // No rows: staged (nothing to decide).
  CHECK(spmv_blocks_staged(true, 0, 0, 0, 24));
}

TEST_CASE("SpMV sorted slices: which matrices take them and the room asked for (hand-computed, 132 SMs)") {
  // 20 warps of rows an SM on 132 SMs: 84480 rows; only power-law plans.
  CHECK(spmv_sorted_fit(84480, true, 132));
  CHECK_FALSE(spmv_sorted_fit(84479, true, 132));
  CHECK(spmv_sorted_fit(84479, true, 132, true));  // sorted_slices: on, any size
  CHECK_FALSE(spmv_sorted_fit(1 << 22, false, 132));
  CHECK_FALSE(spmv_sorted_fit(1 << 22, false, 132, true));
  // R-MAT 2^21 x8's Laplacian: 2097152 rows, 34513954 entries, double values:
  // 12 B an entry, 24 B a row and 32 positions more, a chunk's 12 B twice
  // over, and 12 B for each of at most nnz / 65 + 1 warp rows.
  const std::int64_t rows = 2097152, nnz = 34513954;
  CHECK(spmv_sorted_bytes(rows, nnz, 8) ==
        nnz * 12 + 24 * (rows + 32) + 2 * (nnz / 2048 + 1) * 12 + 12 * (nnz / 65 + 1));
  CHECK(spmv_sorted_bytes(rows, nnz, 8) == 471276144);
  CHECK(spmv_sorted_bytes(rows, nnz, 4) == 471276144 - 4 * nnz);
  // The chunk: the least power of two at or above 2 nnz / (64 x 132) =
  // nnz / 4224, from 2048 to 8192 (R-MAT matrices and Laplacians of the
  // fifty-eighth session's table).
  CHECK(spmv_sorted_chunk(4131116, 132) == 2048);    // 978: below the least
  CHECK(spmv_sorted_chunk(8650752, 132) == 2048);    // 2048 exactly
  CHECK(spmv_sorted_chunk(8650753, 132) == 4096);    // just past it
  CHECK(spmv_sorted_chunk(9224018, 132) == 4096);    // 2184
  CHECK(spmv_sorted_chunk(18526364, 132) == 8192);   // 4386
  CHECK(spmv_sorted_chunk(nnz, 132) == 8192);        // 8171
  CHECK(spmv_sorted_chunk(65243624, 132) == 8192);   // 15446: the most
  CHECK(spmv_sorted_chunk(254619210, 132) == 8192);
  CHECK(spmv_sorted_chunk(9224018, 66) == 8192);     // half the SMs: twice the share, 4368
  CHECK(spmv_sorted_chunk(0, 132) == 2048);
  CHECK(spmv_sorted_chunk(4131116, 0) == 8192);  // no SM count: treated as one
  // A power-law plan is one whose longest row passes the base (spmv_blocks_round_up).
  CHECK(spmv_blocks_round_up(36565, SpmvRowBlocks::default_units, nnz, rows, SpmvRowBlocks::default_unstaged_mean));
  CHECK_FALSE(spmv_blocks_round_up(64, SpmvRowBlocks::default_units, nnz, rows, SpmvRowBlocks::default_unstaged_mean));
}
