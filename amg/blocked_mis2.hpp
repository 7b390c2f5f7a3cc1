#pragma once
// Blocked greedy MIS-2: the greedy (lexicographic) distance-2 independent set
// made parallel by visiting the nodes in blocks of consecutive indices whose
// block graph is distance-2 coloured (docs/aggregation.md "Blocked greedy").
//
// Nodes are visited in the order (colour, block, index); node i joins the set
// iff no node of its closed neighbourhood N[i] = {i} + row i of S is
// "covered" yet, and a member covers its closed neighbourhood. Two blocks of
// one colour are never within distance 2 of each other in the block graph, so
// none reads a flag the other writes: the blocks of a colour run at once (a
// warp each on the GPU), and the set is the one of the sequential visit, on
// either backend, whatever the timing. With one block it is exactly the
// lexicographic MIS-2 (amg/lexicographic_mis2.hpp). Within a block the visit
// is the lexicographic one, which gives structured grids greedy's regular
// pattern of roots; blocks must hold several grid lines for that to carry.
//
// Block size: blocks that start mid-way along a grid line or plane break the
// pattern at their boundaries (3D 27-point N = 101, PCG iterations: blocks of
// 4096 nodes 12, of whole planes 9 = greedy). With `align`, the block size is
// rounded up to a multiple of the matrix's period (below: a grid line in 2D, a
// plane in 3D), so that blocks hold whole lines or planes of a naturally
// numbered grid: to one period where a period alone holds the minimum size (a
// plane), else to a multiple of `align` periods (2D 5-point N = 1000 with
// blocks of 5 lines: 18 iterations, of 4 or 6 lines: 13 — greedy's 5-point
// pattern repeats every 2 lines). The
// reach of a row is its last column minus the row; the period is the least
// reach among the rows that reach more than half the largest reach: a grid
// line for 2D 5- and 9-point stencils (the 9-point's interior rows reach one
// node further, its rows at the end of a line do not), a plane in 3D (the
// top plane's rows, which reach less, are not counted).
//
// Colours (first fit, in block order): two blocks whose rows reach a common
// block get different colours (so a nonsymmetric S is safe), from each
// block's ReachMask where every row stays within kReach blocks; else by
// intervals: block X is taken to touch every block between the lowest and
// the highest block its rows reach, and every block whose rows' interval
// holds X, and two blocks whose intervals meet get different colours. Banded numberings (grids, their coarse levels, meshes in a
// local order) give a few colours; a graph numbered at random gives one block
// per colour, which is no faster than the dataflow greedy: the schedule then
// reports it does not fit (`fits()`, with the reason), and the caller
// aggregates otherwise.
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/hd.hpp"
#include "sparse/csr.hpp"

namespace saga::amg {

// The GPU keeps the covered flags of a block and of every node its rows reach
// (block_size + 2 span nodes) as bits in a CTA's shared memory: at most this many.
constexpr std::int64_t kMaxBlockFlagBits = (std::int64_t(1) << 20) + 1024;  // 128 KB and a little

// The blocks a block's rows reach, as a mask of offsets -kReach .. kReach
// (bit d + kReach + 1 of kReachWords words; bit 0 unused).
constexpr int kReach = 63;
constexpr int kReachWords = 4;
using ReachMask = std::array<std::uint32_t, kReachWords>;

// The GPU's wavefront (BlockSchedule::line): at most this many warps a block,
// and blocks of more lines than kMaxWaveLines are walked by one warp.
constexpr int kMaxLineWarps = 8;
constexpr int kMaxWaveLines = 512;

struct BlockSchedule {
  index_t block_size = 0;
  // The GPU visits a block line by line, a warp a line, each line's windows
  // once the earlier lines have decided every node they depend on (a
  // wavefront: the same set as the sequential visit, sooner). line: nodes of
  // a line (0: the block is one line); line_warps: warps a block (1: one warp
  // walks the block). Neither changes the set.
  index_t line = 0;
  int line_warps = 1;
  index_t blocks = 0;
  index_t span = 0;                   // the largest |column - row| of S
  std::vector<index_t> order;         // block numbers, colour by colour, each colour in block order
  std::vector<index_t> colour_start;  // colours + 1 offsets into order
  std::string unfit;  // why it does not fit (empty: it does; else order and colour_start are partial)
  int colours() const { return static_cast<int>(colour_start.size()) - 1; }
  bool fits() const { return unfit.empty(); }
};

// The period above (0 for an empty or lower triangular pattern).
index_t row_period(const CsrMatrix& S);
// The line of a star stencil: where every row of S has at most one entry
// more than half a period ahead and one more than half a period behind (3D
// 7-point: the neighbours in the next and previous plane), the least of the
// rows' largest forward reach within half a period, among the rows reaching
// more than half the largest such reach (a grid line); else 0.
index_t star_line(const CsrMatrix& S, index_t period);
// The line of a plane whatever the stencil: the least of the rows' largest
// forward reach within half a period, among the rows reaching more than half
// the largest such reach (3D 7- and 27-point: a grid line; 0 where no row
// reaches forward within half a period).
index_t plane_line(const CsrMatrix& S, index_t period);

// The block size for at least min_size nodes a block: min_size itself, or
// with align > 0 the smallest multiple of S's period (if the period is at
// least min_size) or of align periods at or above it; at most max_size.
// With star_size > 0, a period of at least min_size nodes whose rows form a
// star stencil with lines of at least 32 nodes (star_line) is cut into
// blocks of whole lines instead: the smallest multiple of align lines at or
// above star_size (3D 7-point: the same iterations, and the blocks of a
// plane run at once).
index_t block_size_for(const CsrMatrix& S, index_t min_size, int align, index_t max_size, index_t star_size = 0);
// The block size above and the line the GPU's wavefront walks a block by:
// the unit the size was rounded to (a grid line: the period of a 2D grid, the
// star line of a cut plane, plane_line of a whole plane); 0 without align,
// where a block is one line, or where a line is shorter than a window of 32.
struct BlockShape {
  index_t size = 0;
  index_t line = 0;
};
BlockShape block_shape_for(const CsrMatrix& S, index_t min_size, int align, index_t max_size, index_t star_size = 0);

// The rule of block_shape_for from S's period (row_period) and, where the
// period holds min_size nodes, its star and plane lines (star_line,
// plane_line; else 0): shared by the host and the GPU, which decides the
// shape without a read (shaped_block_schedule).
SAGA_HD inline BlockShape block_shape_of(std::int64_t period, std::int64_t star, std::int64_t plane, index_t min_size,
                                         int align, index_t max_size, index_t star_size) {
  BlockShape shape{min_size, 0};
  if (align > 0) {
    std::int64_t unit = 0, line = 0;
    if (period >= min_size) {  // a plane: whole lines where the stencil is a star, else whole planes
      line = plane;
      if (star_size > 0 && star >= 32 && 2 * std::int64_t(align) * star <= period) {
        unit = std::int64_t(align) * star;
        line = star;
        min_size = star_size;
      }
    }
    // Else one period where it alone holds min_size nodes (a plane in 3D); else
    // a multiple of `align` periods (several grid lines in 2D).
    if (unit == 0) {
      unit = period >= min_size ? period : std::int64_t(align) * period;
      if (period < min_size) line = period;
    }
    if (unit > 0) {
      const std::int64_t rounded = (min_size + unit - 1) / unit * unit;
      shape.size = static_cast<index_t>(rounded < max_size ? rounded : max_size);
      shape.line = static_cast<index_t>(line);
    }
  }
  if (shape.size > max_size) shape.size = max_size;
  if (shape.line >= shape.size || shape.line < 32) shape.line = 0;  // lines of a window at least
  return shape;
}

// The schedule of S's blocks of block_size nodes. It does not fit where a
// block and the nodes its rows reach exceed kMaxBlockFlagBits, where more
// than max_colours colours would be needed, or where the colours would decide
// more than max_serial nodes in sequence (colours x block size: the blocks of
// a colour run at once, the colours one after another).
BlockSchedule block_schedule(const CsrMatrix& S, index_t block_size, int max_colours,
                             std::int64_t max_serial = std::numeric_limits<std::int64_t>::max());

// block_shape_for and block_schedule (with its shape's size) at once: on the
// GPU with align > 0, the period, the lines, the shape and the block
// intervals are made there and read once (two or three reads of the device
// otherwise, each a round trip that leaves the GPU idle: ~30 us a level on
// the H100); the same shape and schedule as the two calls.
struct ShapedSchedule {
  BlockShape shape;
  BlockSchedule schedule;
};
ShapedSchedule shaped_block_schedule(const CsrMatrix& S, index_t min_size, int align, index_t max_size,
                                     index_t star_size, int max_colours);

// 1 for members, 0 otherwise, by the visit the complete schedule gives.
Array<std::int32_t> blocked_mis2(const CsrMatrix& S, const BlockSchedule& schedule);
// The same into `in` (S.rows() entries in S's space).
void blocked_mis2(const CsrMatrix& S, const BlockSchedule& schedule, Array<std::int32_t>& in);

namespace cuda {
index_t row_period(const CsrMatrix& S);
// {star line, plane line} (star_line and plane_line above) in one pass pair.
std::array<index_t, 2> plane_lines(const CsrMatrix& S, index_t period);
// One array (BlockIntervalWords, read back with one copy): span[0], the
// largest |column - row|; span[1], 1 where a row reaches more than kReach
// blocks away (the masks are then incomplete); lo[X] / hi[X], the lowest /
// highest block that block X's rows reach (X itself included; the host closes
// them under the reverse direction); reach, kReachWords words a block, the
// masks above.
struct BlockIntervalWords {
  static std::size_t size(index_t blocks) { return 2 + static_cast<std::size_t>(blocks) * (2 + kReachWords); }
  static std::size_t lo(index_t) { return 2; }
  static std::size_t hi(index_t blocks) { return 2 + static_cast<std::size_t>(blocks); }
  static std::size_t reach(index_t blocks) { return 2 + 2 * static_cast<std::size_t>(blocks); }
};
void block_intervals(const CsrMatrix& S, index_t block_size, index_t blocks, Array<std::uint32_t>& words);
// shaped_block_schedule's device part, in one array read back at once:
// words [0, 3) the period rule over the rows' reach (row_period = [1] - [2]),
// [3, 6) the one over the reach within half a period (where the period holds
// min_size nodes: star line = [3] ? 0 : [4] - [5], plane line = [4] - [5];
// else zeros), [6] the shape's size and [7] its line, then from kHead on
// BlockIntervalWords for max_blocks blocks (blocks past the shape's count
// untouched: lo = hi = 0, no reach).
struct ShapeWords {
  static constexpr std::size_t kHead = 8;
  static std::size_t size(index_t max_blocks) { return kHead + BlockIntervalWords::size(max_blocks); }
};
// block_shape_of from the two period rules at w[0, 6) of those words, for S
// of n rows: the GPU's shape kernel and the host's check of what it wrote.
SAGA_HD inline BlockShape shape_of_rules(const index_t* w, index_t n, index_t min_size, int align, index_t max_size,
                                         index_t star_size) {
  const std::int64_t period = n > 0 ? static_cast<std::int64_t>(w[1]) - w[2] : 0;
  const bool lines = period >= min_size && period >= 2;
  const std::int64_t plane = lines ? static_cast<std::int64_t>(w[4]) - w[5] : 0;
  return block_shape_of(period, lines && w[3] == 0 ? plane : 0, plane, min_size, align, max_size, star_size);
}
void shape_and_intervals(const CsrMatrix& S, index_t min_size, int align, index_t max_size, index_t star_size,
                         index_t max_blocks, Array<std::uint32_t>& words);
void blocked_mis2(const CsrMatrix& S, const BlockSchedule& schedule, Array<std::int32_t>& in_set);
}  // namespace cuda

}  // namespace saga::amg
