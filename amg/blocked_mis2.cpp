#include "amg/blocked_mis2.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/dispatch.hpp"

namespace saga::amg {

namespace {
index_t block_count(index_t n, index_t block_size) { return n == 0 ? 0 : (n - 1) / block_size + 1; }

// The block of column c for a row of block bi: a step or two from bi for the
// rows of a banded graph, where a division per column would cost more than
// the walk through the row.
inline index_t block_near(index_t c, index_t bi, index_t b) {
  std::int64_t d = static_cast<std::int64_t>(c) - static_cast<std::int64_t>(bi) * b;
  if (d < -4 * std::int64_t(b) || d >= 4 * std::int64_t(b)) return c / b;
  index_t k = bi;
  for (; d < 0; d += b) --k;
  for (; d >= b; d -= b) ++k;
  return k;
}

// The out-hulls: the lowest and highest block that block X's rows reach (X
// included); rows are sorted, so their first and last columns say it.
index_t host_out_hulls(const CsrMatrix& S, index_t b, std::vector<std::int32_t>& lo, std::vector<std::int32_t>& hi) {
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  index_t span = 0;
  for (index_t bi = 0, i0 = 0; i0 < S.rows(); ++bi, i0 += b) {
    const index_t i1 = std::min<std::int64_t>(S.rows(), std::int64_t(i0) + b);
    index_t first = i0, last = i0;  // the block's own first node: X is in its hull
    for (index_t i = i0; i < i1; ++i) {
      if (rp[i + 1] == rp[i]) continue;
      const index_t f = ci[rp[i]], l = ci[rp[i + 1] - 1];
      span = std::max({span, i - f, l - i});
      first = std::min(first, f);
      last = std::max(last, l);
    }
    lo[bi] = std::min<std::int32_t>(lo[bi], block_near(first, bi, b));
    hi[bi] = std::max<std::int32_t>(hi[bi], block_near(last, bi, b));
  }
  return span;
}

// The blocks that each block's rows reach, as offsets -kReach .. kReach from
// it; false where some row reaches further.
bool host_reach_masks(const CsrMatrix& S, index_t b, std::vector<ReachMask>& out) {
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  for (index_t i = 0, bi = 0; i < S.rows(); ++i) {
    if (i - static_cast<std::int64_t>(bi) * b >= b) ++bi;  // row i of block bi
    ReachMask& m = out[bi];
    const auto mark = [&](index_t d) {
      const int k = d + kReach + 1;
      m[k / 32] |= 1u << (k % 32);
    };
    mark(0);  // a block reaches itself (its nodes cover themselves)
    if (rp[i + 1] == rp[i]) continue;
    // Sorted columns: the first and the last say the farthest blocks; a block
    // between them is reached where the row has a column inside it.
    const index_t* first = ci + rp[i];
    const index_t* last = ci + rp[i + 1];
    const index_t lo = block_near(*first, bi, b) - bi, hi = block_near(*(last - 1), bi, b) - bi;
    if (lo < -kReach || hi > kReach) return false;
    mark(lo);
    mark(hi);
    for (index_t d = lo + 1; d < hi; ++d) {
      const index_t start = (bi + d) * b;
      const index_t* at = std::lower_bound(first, last, start);
      if (*at < start + b) mark(d);
      first = at;
    }
  }
  return true;
}

// The hulls closed under the reverse direction: X's hull also takes every
// block Z whose out-hull holds X (a superset of the blocks with an entry into
// X: safe, and the same on both backends). The least and the greatest such Z
// for every X, by sweeping the out-hulls in block order and against it with
// a "next unassigned block" pointer per block (path-halving): O(blocks).
void close_hulls(std::vector<std::int32_t>& lo, std::vector<std::int32_t>& hi) {
  const std::int32_t nb = static_cast<std::int32_t>(lo.size());
  const std::vector<std::int32_t> olo = lo, ohi = hi;
  std::vector<std::int32_t> next(nb + 1);
  const auto find = [&](std::int32_t y) {
    while (next[y] != y) y = next[y] = next[next[y]];
    return y;
  };
  // Ascending: the first Z (least) to cover Y; Y's own out-hull covers it, so Z <= Y.
  for (std::int32_t y = 0; y <= nb; ++y) next[y] = y;
  for (std::int32_t z = 0; z < nb; ++z)
    for (std::int32_t y = find(olo[z]); y <= ohi[z]; y = find(y + 1)) {
      lo[y] = std::min(lo[y], z);
      next[y] = y + 1;
    }
  // Descending: the first Z (greatest) to cover Y.
  for (std::int32_t y = 0; y <= nb; ++y) next[y] = y;
  for (std::int32_t z = nb - 1; z >= 0; --z)
    for (std::int32_t y = find(olo[z]); y <= ohi[z]; y = find(y + 1)) {
      hi[y] = std::max(hi[y], z);
      next[y] = y + 1;
    }
}

// The schedule of blocks coloured colour_of[x] (0 .. colours - 1): the
// blocks colour by colour, each colour in block order.
BlockSchedule schedule_of(const std::vector<std::int32_t>& colour_of, int colours, index_t n, index_t block_size,
                          index_t span, std::int64_t max_serial) {
  BlockSchedule s;
  s.block_size = block_size;
  s.blocks = static_cast<index_t>(colour_of.size());
  s.span = span;
  const std::int64_t serial = static_cast<std::int64_t>(colours) * std::min(block_size, n);
  if (serial > max_serial) {
    s.unfit = fmt::format("{} blocks of {} nodes in {} colours would decide {} of {} nodes in sequence (more than {})",
                          s.blocks, block_size, colours, serial, n, max_serial);
    return s;
  }
  s.colour_start.assign(static_cast<std::size_t>(colours) + 1, 0);
  for (std::int32_t c : colour_of) ++s.colour_start[c + 1];
  for (int c = 0; c < colours; ++c) s.colour_start[c + 1] += s.colour_start[c];
  s.order.resize(colour_of.size());
  std::vector<index_t> next(s.colour_start.begin(), s.colour_start.end() - 1);
  for (std::size_t x = 0; x < colour_of.size(); ++x) s.order[next[colour_of[x]]++] = static_cast<index_t>(x);
  return s;
}

// First fit in block order over the intervals. Block Y < X lies in its own
// interval, so the intervals of Y and X meet iff hi[Y] >= lo[X]: a colour is
// free for X iff the highest hi among its blocks is below lo[X]. False where
// more than max_colours colours would be needed.
bool colour_intervals(const std::vector<std::int32_t>& lo, const std::vector<std::int32_t>& hi,
                             int max_colours, std::vector<std::int32_t>& colour_of, int& colours) {
  std::vector<std::int32_t> highest;
  colour_of.resize(lo.size());
  for (std::size_t x = 0; x < lo.size(); ++x) {
    std::size_t c = 0;
    while (c < highest.size() && highest[c] >= lo[x]) ++c;
    if (c == highest.size()) {
      if (static_cast<int>(c) == max_colours) return false;
      highest.push_back(hi[x]);
    }
    highest[c] = std::max(highest[c], hi[x]);
    colour_of[x] = static_cast<std::int32_t>(c);
  }
  colours = static_cast<int>(highest.size());
  return true;
}

template <class F>
void for_each_offset(const ReachMask& m, F f) {
  for (int w = 0; w < kReachWords; ++w)
    for (std::uint32_t bits = m[w]; bits; bits &= bits - 1)
      f(32 * w + __builtin_ctz(bits) - kReach - 1);
}

// First fit in block order over the block graph itself: blocks X and Y
// conflict iff their rows reach a common block Z (out[X] and out[Y] meet),
// i.e. Y reaches some Z that X reaches. in[Z] (the blocks reaching Z) is
// out's transpose, so the blocks before X that conflict with it are
// { Z + e : Z = X + d, d in out[X], e in in[Z] }. False where more than
// max_colours colours would be needed.
bool colour_block_graph(const std::vector<ReachMask>& out, int max_colours,
                               std::vector<std::int32_t>& colour_of, int& colours) {
  const std::int64_t nb = static_cast<std::int64_t>(out.size());
  std::vector<ReachMask> in(out.size(), ReachMask{});
  for (std::int64_t x = 0; x < nb; ++x)
    for_each_offset(out[x], [&](int d) {
      const int k = -d + kReach + 1;
      in[x + d][k / 32] |= 1u << (k % 32);
    });
  colour_of.assign(out.size(), 0);
  colours = 0;
  std::vector<std::int64_t> seen;  // seen[c] == x: colour c is taken by a block conflicting with x
  for (std::int64_t x = 0; x < nb; ++x) {
    for_each_offset(out[x], [&](int d) {
      for_each_offset(in[x + d], [&](int e) {
        const std::int64_t y = x + d + e;
        if (y < x) seen[colour_of[y]] = x;
      });
    });
    int c = 0;
    while (c < colours && seen[c] == x) ++c;
    if (c == colours) {
      if (colours == max_colours) return false;
      ++colours;
      seen.push_back(-1);
    }
    colour_of[x] = c;
  }
  return true;
}

// The period rule over one value per row (row_period: the reach; star_line:
// the reach within half a period): the least of the values above half the
// largest; -1 where some value is negative (the row disqualifies S).
template <class Value>
index_t least_above_half_of_largest(index_t n, Value value) {
  std::vector<index_t> v(static_cast<std::size_t>(n));  // each row's value once (a row walk for the lines)
  index_t most = 0;
  for (index_t i = 0; i < n; ++i) {
    v[i] = value(i);
    if (v[i] < 0) return -1;
    most = std::max(most, v[i]);
  }
  index_t least = most;
  for (index_t i = 0; i < n; ++i)
    if (2 * static_cast<std::int64_t>(v[i]) > most) least = std::min(least, v[i]);
  return least;
}

// The blocks of a colour on the host's threads where the colours' mean share
// of the entries is at least this many (fewer: one thread, no fork). Two
// blocks of a colour touch disjoint flags (the colouring), so the set is the
// sequential one whatever the threads do. A device level visited on the host
// (2D 5-pt N = 1024's level 2: 175k entries, 3 blocks a colour) waited 160 us
// on one thread of the H100 machine.
constexpr std::int64_t kParallelColourEntries = 1 << 15;

void host_visit(const CsrMatrix& S, const BlockSchedule& sched, Array<std::int32_t>& in) {
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  const index_t n = S.rows();
  std::int32_t* member = in.data();
  std::vector<unsigned char> covered_flags(static_cast<std::size_t>(n), 0);
  unsigned char* covered = covered_flags.data();
  std::fill(member, member + n, 0);
  const auto visit_block = [&](index_t x) {
    const index_t end = std::min<std::int64_t>(n, static_cast<std::int64_t>(x + 1) * sched.block_size);
    for (index_t i = x * sched.block_size; i < end; ++i) {
      bool free = !covered[i];
      for (offset_t a = rp[i]; a < rp[i + 1] && free; ++a) free = !covered[ci[a]];
      if (!free) continue;
      member[i] = 1;
      covered[i] = 1;
      for (offset_t a = rp[i]; a < rp[i + 1]; ++a) covered[ci[a]] = 1;
    }
  };
  // One team for all colours (each fork wakes the threads), a barrier
  // between colours.
  index_t widest = 0;  // the most blocks in a colour
  for (int c = 0; c < sched.colours(); ++c)
    widest = std::max(widest, sched.colour_start[c + 1] - sched.colour_start[c]);
  const int team = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(omp_get_max_threads(), widest)));
  const bool threaded = team > 1 && sched.colours() > 0 && S.nnz() / sched.colours() >= kParallelColourEntries;
#pragma omp parallel num_threads(team) if (threaded)
  for (int c = 0; c < sched.colours(); ++c) {
#pragma omp for schedule(static, 1)
    for (index_t k = sched.colour_start[c]; k < sched.colour_start[c + 1]; ++k) visit_block(sched.order[k]);
  }
}
}  // namespace

index_t row_period(const CsrMatrix& S) {
  if (S.space() != Space::host) {
    index_t r = 0;
    SAGA_DEVICE_CALL(r = cuda::row_period(S));
    return r;
  }
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  return least_above_half_of_largest(S.rows(), [&](index_t i) {  // reaches below 0 (lower rows) count as 0
    return rp[i + 1] > rp[i] ? std::max<index_t>(0, ci[rp[i + 1] - 1] - i) : 0;  // sorted rows
  });
}

namespace {
// {star line, plane line}: the period rule over the rows' largest forward
// reach within half a period; the star line only where every row has at most
// one entry beyond half a period ahead and one behind.
std::array<index_t, 2> host_plane_lines(const CsrMatrix& S, index_t period) {
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  const index_t half = period / 2;
  bool star = true;
  const auto within = [&](index_t i) {
    int ahead = 0, behind = 0;
    index_t reach = 0;
    for (offset_t a = rp[i]; a < rp[i + 1]; ++a) {
      const index_t d = ci[a] - i;
      if (d > half)
        ++ahead;
      else if (d < -half)
        ++behind;
      else
        reach = std::max(reach, d);
    }
    star = star && ahead <= 1 && behind <= 1;
    return reach;
  };
  const index_t line = std::max<index_t>(0, least_above_half_of_largest(S.rows(), within));
  return {star ? line : 0, line};
}

std::array<index_t, 2> plane_lines(const CsrMatrix& S, index_t period) {
  if (S.rows() == 0 || period < 2) return {0, 0};
  if (S.space() != Space::host) {
    std::array<index_t, 2> r{};
    SAGA_DEVICE_CALL(r = cuda::plane_lines(S, period));
    return r;
  }
  return host_plane_lines(S, period);
}
}  // namespace

index_t star_line(const CsrMatrix& S, index_t period) { return plane_lines(S, period)[0]; }
index_t plane_line(const CsrMatrix& S, index_t period) { return plane_lines(S, period)[1]; }

BlockShape block_shape_for(const CsrMatrix& S, index_t min_size, int align, index_t max_size, index_t star_size) {
  std::int64_t period = 0;
  std::array<index_t, 2> lines{0, 0};
  if (align > 0) {
    period = row_period(S);
    if (period >= min_size) lines = plane_lines(S, static_cast<index_t>(period));
  }
  return block_shape_of(period, lines[0], lines[1], min_size, align, max_size, star_size);
}

index_t block_size_for(const CsrMatrix& S, index_t min_size, int align, index_t max_size, index_t star_size) {
  return block_shape_for(S, min_size, align, max_size, star_size).size;
}

namespace {
// The schedule from the blocks' intervals (lo, hi) and, with `masks`, their
// reach masks: what block_schedule does once it has them.
BlockSchedule schedule_from_intervals(index_t n, index_t block_size, index_t blocks, index_t span, bool masks,
                                      std::vector<std::int32_t>& lo, std::vector<std::int32_t>& hi,
                                      const std::vector<ReachMask>& reach, int max_colours, std::int64_t max_serial) {
  const auto unfit = [&](std::string why) {
    BlockSchedule s;
    s.block_size = block_size;
    s.blocks = blocks;
    s.span = span;
    s.unfit = std::move(why);
    return s;
  };
  if (block_size + 2 * std::int64_t(span) + 64 > kMaxBlockFlagBits)
    return unfit(fmt::format("a block of {} nodes and the span {} on both sides need more than the {} flag bits a "
                             "CTA holds",
                             block_size, span, kMaxBlockFlagBits));
  std::vector<std::int32_t> colour_of;
  int colours = 0;
  bool coloured = false;
  if (masks) {
    coloured = colour_block_graph(reach, max_colours, colour_of, colours);
  } else {
    close_hulls(lo, hi);
    coloured = colour_intervals(lo, hi, max_colours, colour_of, colours);
  }
  if (!coloured)
    return unfit(fmt::format("{} blocks of {} nodes need more than {} colours", blocks, block_size, max_colours));
  return schedule_of(colour_of, colours, n, block_size, span, max_serial);
}
}  // namespace

BlockSchedule block_schedule(const CsrMatrix& S, index_t block_size, int max_colours, std::int64_t max_serial) {
  SAGA_REQUIRE(S.rows() == S.cols(), "MIS-2 of a non-square {}x{} graph", S.rows(), S.cols());
  SAGA_REQUIRE(block_size > 0, "block size {} of the blocked MIS-2 must be positive", block_size);
  const index_t blocks = block_count(S.rows(), block_size);
  std::vector<std::int32_t> lo(blocks), hi(blocks);
  for (index_t x = 0; x < blocks; ++x) lo[x] = hi[x] = static_cast<std::int32_t>(x);
  std::vector<ReachMask> reach(blocks, ReachMask{});
  index_t span = 0;
  bool masks = false;
  if (S.space() == Space::host) {
    span = host_out_hulls(S, block_size, lo, hi);
    masks = host_reach_masks(S, block_size, reach);
  } else {  // one read for all of it (each read waits for the GPU)
    using W = cuda::BlockIntervalWords;
    Array<std::uint32_t> words(W::size(blocks), Space::device, "block intervals, span and reach");
    SAGA_DEVICE_CALL(cuda::block_intervals(S, block_size, blocks, words));
    const std::vector<std::uint32_t> h = words.to_vector();
    span = static_cast<index_t>(h[0]);
    masks = h[1] == 0;
    std::memcpy(lo.data(), h.data() + W::lo(blocks), sizeof(std::int32_t) * blocks);
    std::memcpy(hi.data(), h.data() + W::hi(blocks), sizeof(std::int32_t) * blocks);
    if (masks && blocks > 0)
      std::memcpy(reach.data(), h.data() + W::reach(blocks), sizeof(std::uint32_t) * blocks * kReachWords);
  }
  return schedule_from_intervals(S.rows(), block_size, blocks, span, masks, lo, hi, reach, max_colours, max_serial);
}

ShapedSchedule shaped_block_schedule(const CsrMatrix& S, index_t min_size, int align, index_t max_size,
                                     index_t star_size, int max_colours) {
  if (S.space() == Space::host || align <= 0) {
    ShapedSchedule r;
    r.shape = block_shape_for(S, min_size, align, max_size, star_size);
    r.schedule = block_schedule(S, r.shape.size, max_colours);
    return r;
  }
  SAGA_REQUIRE(S.rows() == S.cols(), "MIS-2 of a non-square {}x{} graph", S.rows(), S.cols());
  // The shape's size is at least the least of min_size, star_size (a star's
  // blocks) and max_size: room for that many blocks' intervals.
  const index_t least = std::max<index_t>(1, std::min({min_size, star_size > 0 ? star_size : min_size, max_size}));
  const index_t max_blocks = block_count(S.rows(), least);
  using W = cuda::BlockIntervalWords;
  Array<std::uint32_t> words(cuda::ShapeWords::size(max_blocks), Space::device, "block shape, intervals and reach");
  SAGA_DEVICE_CALL(cuda::shape_and_intervals(S, min_size, align, max_size, star_size, max_blocks, words));
  const std::vector<std::uint32_t> all = words.to_vector();  // the one read
  const auto* w = reinterpret_cast<const index_t*>(all.data());
  ShapedSchedule r;
  r.shape = cuda::shape_of_rules(w, S.rows(), min_size, align, max_size, star_size);
  SAGA_REQUIRE(w[6] == r.shape.size && w[7] == r.shape.line,
               "blocked MIS-2: the GPU's block shape ({} nodes, lines of {}) is not the host's rule's ({}, {})", w[6],
               w[7], r.shape.size, r.shape.line);
  const index_t blocks = block_count(S.rows(), r.shape.size);
  const std::uint32_t* h = all.data() + cuda::ShapeWords::kHead;
  const index_t span = static_cast<index_t>(h[0]);
  const bool masks = h[1] == 0;
  std::vector<std::int32_t> lo(blocks), hi(blocks);
  std::vector<ReachMask> reach(blocks, ReachMask{});
  std::memcpy(lo.data(), h + W::lo(max_blocks), sizeof(std::int32_t) * blocks);
  std::memcpy(hi.data(), h + W::hi(max_blocks), sizeof(std::int32_t) * blocks);
  if (masks && blocks > 0)
    std::memcpy(reach.data(), h + W::reach(max_blocks), sizeof(std::uint32_t) * blocks * kReachWords);
  r.schedule = schedule_from_intervals(S.rows(), r.shape.size, blocks, span, masks, lo, hi, reach, max_colours,
                                       std::numeric_limits<std::int64_t>::max());
  return r;
}

void blocked_mis2(const CsrMatrix& S, const BlockSchedule& schedule, Array<std::int32_t>& in) {
  SAGA_REQUIRE(schedule.fits() && schedule.blocks == block_count(S.rows(), schedule.block_size),
               "blocked MIS-2 given a schedule of {} blocks of {} for {} nodes{}{}", schedule.blocks,
               schedule.block_size, S.rows(), schedule.fits() ? "" : " that does not fit: ", schedule.unfit);
  SAGA_REQUIRE(in.size() == static_cast<std::size_t>(S.rows()) && in.space() == S.space(),
               "blocked MIS-2 of {} nodes given {} member flags, or flags in another space", S.rows(), in.size());
  if (S.space() == Space::host)
    host_visit(S, schedule, in);
  else
    SAGA_DEVICE_CALL(cuda::blocked_mis2(S, schedule, in));
}

Array<std::int32_t> blocked_mis2(const CsrMatrix& S, const BlockSchedule& schedule) {
  Array<std::int32_t> in(S.rows(), S.space(), "MIS-2 members");
  blocked_mis2(S, schedule, in);
  return in;
}

}  // namespace saga::amg
