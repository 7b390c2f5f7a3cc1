// Blocked greedy MIS-2 (amg/blocked_mis2.hpp) and the `blocked` aggregation:
// the period and block size, the block schedule (hand case and the colouring
// property checked on node pairs), the member set against a sequential visit
// written here from the definition, and the fallback to MIS-2 rounds.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "amg/aggregation.hpp"
#include "amg/blocked_mis2.hpp"
#include "amg/lexicographic_mis2.hpp"
#include "amg/strength.hpp"
#include "problems/structured.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// Random symmetric graph whose edges join nodes at most `band` apart (a
// banded numbering, as grids and meshes in a local order have), with a diagonal.
CsrMatrix banded_graph(index_t n, index_t band, double p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<std::set<index_t>> adj(n);
  for (index_t i = 0; i < n; ++i) {
    adj[i].insert(i);
    for (index_t j = i + 1; j < std::min(n, i + band + 1); ++j)
      if (U(rng) < p) {
        adj[i].insert(j);
        adj[j].insert(i);
      }
  }
  return graph_from_adjacency(adj, rng);
}

std::vector<std::vector<index_t>> closed_rows(const CsrMatrix& S) {
  const HostCsr h = to_host_csr(S);
  std::vector<std::vector<index_t>> r(h.rows);
  for (index_t i = 0; i < h.rows; ++i) {
    r[i].push_back(i);
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) r[i].push_back(h.col[k]);
  }
  return r;
}

// From the definition: visit the nodes block by block in the schedule's
// order; a node whose closed neighbourhood holds no taken node is a member and
// takes its closed neighbourhood.
std::vector<std::int32_t> sequential_visit(const CsrMatrix& S, const amg::BlockSchedule& s) {
  const auto rows = closed_rows(S);
  std::vector<std::int32_t> member(S.rows(), 0);
  std::vector<bool> taken(S.rows(), false);
  for (index_t x : s.order)
    for (index_t i = x * s.block_size; i < std::min<index_t>(S.rows(), (x + 1) * s.block_size); ++i) {
      if (std::any_of(rows[i].begin(), rows[i].end(), [&](index_t j) { return taken[j]; })) continue;
      member[i] = 1;
      for (index_t j : rows[i]) taken[j] = true;
    }
  return member;
}

// Members at distance 2 or less of each other: none; a node with no member
// within distance 2: none (S symmetric).
void check_distance2_mis(const CsrMatrix& S, const std::vector<std::int32_t>& in) {
  const auto rows = closed_rows(S);
  for (index_t i = 0; i < S.rows(); ++i) {
    int near = 0;
    for (index_t j : rows[i])
      for (index_t k : rows[j]) near += k != i && in[k];
    if (in[i])
      REQUIRE(near == 0);
    else
      REQUIRE(near > 0);
  }
}

// Blocks of one colour never touch a common node: no node is in the closed
// neighbourhood of nodes of two blocks of one colour (the rule the GPU's
// blocks rely on, for symmetric and nonsymmetric S alike).
void check_colouring(const CsrMatrix& S, const amg::BlockSchedule& s) {
  std::vector<int> colour(s.blocks, -1);
  for (int c = 0; c < s.colours(); ++c)
    for (index_t k = s.colour_start[c]; k < s.colour_start[c + 1]; ++k) colour[s.order[k]] = c;
  for (int c : colour) REQUIRE(c >= 0);  // every block scheduled once
  const auto rows = closed_rows(S);
  std::vector<std::set<index_t>> touched_by(S.rows());
  for (index_t i = 0; i < S.rows(); ++i)
    for (index_t j : rows[i]) touched_by[j].insert(i / s.block_size);
  for (const std::set<index_t>& blocks : touched_by) {
    std::set<int> colours;
    for (index_t b : blocks) REQUIRE(colours.insert(colour[b]).second);
  }
}

}  // namespace

TEST_CASE("row period: a grid line in 2D, a plane in 3D; block sizes rounded to periods") {
  CHECK(amg::row_period(poisson(Stencil::fd2d_5pt, 20, Space::host)) == 20);
  CHECK(amg::row_period(poisson(Stencil::fe2d_9pt, 20, Space::host)) == 20);  // interior rows reach 21
  CHECK(amg::row_period(poisson(Stencil::fd3d_7pt, 6, Space::host)) == 36);
  CHECK(amg::row_period(poisson(Stencil::fe3d_27pt, 6, Space::host)) == 36);  // interior rows reach 43
  const CsrMatrix P = poisson(Stencil::fd2d_5pt, 20, Space::host);
  CHECK(amg::block_size_for(P, 100, 0, 1 << 20) == 100);
  CHECK(amg::block_size_for(P, 100, 1, 1 << 20) == 100);
  CHECK(amg::block_size_for(P, 100, 2, 1 << 20) == 120);
  CHECK(amg::block_size_for(P, 121, 2, 1 << 20) == 160);
  CHECK(amg::block_size_for(P, 121, 2, 150) == 150);
  CHECK(amg::block_size_for(P, 16, 2, 1 << 20) == 20);  // a period alone holds 16 nodes: one period
  CHECK(amg::block_size_for(P, 21, 2, 1 << 20) == 40);
}

TEST_CASE("star stencils: the line of a 3D 7-point grid; planes cut into blocks of whole lines") {
  CHECK(amg::star_line(poisson(Stencil::fd3d_7pt, 40, Space::host), 1600) == 40);
  CHECK(amg::star_line(poisson(Stencil::fe3d_27pt, 40, Space::host), 1600) == 0);  // 9 entries in the next plane
  CHECK(amg::star_line(poisson(Stencil::fd2d_5pt, 40, Space::host), 40) == 1);     // a line's "line" is a node
  const CsrMatrix P = poisson(Stencil::fd3d_7pt, 40, Space::host);                  // planes of 1600 nodes
  CHECK(amg::block_size_for(P, 1000, 2, 1 << 20) == 1600);                          // no star size: whole planes
  CHECK(amg::block_size_for(P, 1000, 2, 1 << 20, 300) == 320);                      // 8 lines
  CHECK(amg::block_size_for(P, 1000, 1, 1 << 20, 300) == 320);
  CHECK(amg::block_size_for(P, 2000, 2, 1 << 20, 300) == 3200);  // a plane holds fewer than 2000: 2 planes
  const CsrMatrix Q = poisson(Stencil::fe3d_27pt, 40, Space::host);
  CHECK(amg::block_size_for(Q, 1000, 2, 1 << 20, 300) == 1600);  // not a star: whole planes
  const CsrMatrix thin = poisson(Stencil::fd3d_7pt, 20, Space::host);  // lines of 20 < 32 nodes: whole planes
  CHECK(amg::block_size_for(thin, 100, 2, 1 << 20, 50) == 400);
}

TEST_CASE("block shapes: the line the GPU's wavefront walks a block by") {
  // The plane's line whatever the stencil (27-point: interior rows reach 41 within half a plane, the ends of a
  // line 40); the star line only for a star.
  CHECK(amg::plane_line(poisson(Stencil::fd3d_7pt, 40, Space::host), 1600) == 40);
  CHECK(amg::plane_line(poisson(Stencil::fe3d_27pt, 40, Space::host), 1600) == 40);
  const auto shape = [](const CsrMatrix& S, index_t min_size, int align, index_t star_size) {
    const amg::BlockShape s = amg::block_shape_for(S, min_size, align, 1 << 20, star_size);
    CHECK(s.size == amg::block_size_for(S, min_size, align, 1 << 20, star_size));
    return std::pair<index_t, index_t>(s.size, s.line);
  };
  const CsrMatrix P = poisson(Stencil::fd2d_5pt, 40, Space::host);
  CHECK(shape(P, 100, 2, 0) == std::pair<index_t, index_t>(160, 40));  // 2D: lines of the period
  CHECK(shape(P, 100, 0, 0) == std::pair<index_t, index_t>(100, 0));   // no rounding: no lines
  CHECK(shape(P, 30, 2, 0) == std::pair<index_t, index_t>(40, 0));     // one line a block
  CHECK(shape(poisson(Stencil::fd2d_5pt, 20, Space::host), 100, 2, 0) ==
        std::pair<index_t, index_t>(120, 0));  // lines shorter than a window of 32: none
  const CsrMatrix Q = poisson(Stencil::fd3d_7pt, 40, Space::host);
  CHECK(shape(Q, 1000, 2, 300) == std::pair<index_t, index_t>(320, 40));    // star: lines of a cut plane
  CHECK(shape(Q, 1000, 2, 0) == std::pair<index_t, index_t>(1600, 40));     // whole planes: their lines
  CHECK(shape(Q, 2000, 2, 300) == std::pair<index_t, index_t>(3200, 1600)); // two planes: lines of a plane
  CHECK(shape(poisson(Stencil::fe3d_27pt, 40, Space::host), 1000, 2, 300) == std::pair<index_t, index_t>(1600, 40));
}

TEST_CASE("block schedule of a 2D grid in blocks of two lines: three colours, first fit in block order") {
  // 8 x 8 five-point grid, blocks of 16 nodes: block k touches k - 1 and k + 1.
  const amg::BlockSchedule s = amg::block_schedule(poisson(Stencil::fd2d_5pt, 8, Space::host), 16, 64);
  REQUIRE(s.fits());
  CHECK(s.blocks == 4);
  CHECK(s.colours() == 3);
  CHECK(s.order == std::vector<index_t>{0, 3, 1, 2});
  CHECK(s.colour_start == std::vector<index_t>{0, 2, 3, 4});
  CHECK(s.span == 8);
  // A block whose flags and those its rows reach do not fit a CTA: incomplete.
  const CsrMatrix wide = poisson(Stencil::fd2d_5pt, 600, Space::host);
  CHECK(amg::block_schedule(wide, 1 << 20, 64).span == 600);
  CHECK_FALSE(amg::block_schedule(wide, 1 << 20, 64).fits());
  CHECK(amg::block_schedule(wide, 1 << 20, 64).unfit.find("flag bits") != std::string::npos);
  CHECK(amg::block_schedule(wide, (1 << 20) - 2000, 64).fits());
  // Too few colours allowed: incomplete.
  const amg::BlockSchedule few = amg::block_schedule(poisson(Stencil::fd2d_5pt, 8, Space::host), 16, 2);
  CHECK_FALSE(few.fits());
  CHECK(few.unfit == "4 blocks of 16 nodes need more than 2 colours");
}

TEST_CASE("block schedule from the block graph: blocks smaller than the span take fewer colours than intervals") {
  // 3D 7-point N = 8 in blocks of two lines (16 nodes, 4 a plane): block X's rows reach the blocks X - 4,
  // X + 4 (the planes) and X - 1, X + 1 (but at a plane's edge), so X conflicts with blocks at most 8 away,
  // not with all of them; its interval [X - 4, X + 4] conflicts with every block up to 8 away: 9 colours.
  const CsrMatrix S = poisson(Stencil::fd3d_7pt, 8, Space::host);
  const amg::BlockSchedule s = amg::block_schedule(S, 16, 64);
  REQUIRE(s.fits());
  CHECK(s.colours() == 6);
  check_colouring(S, s);
  // A row reaching more than 63 blocks away: the intervals decide (the schedule still fits and is checked).
  const amg::BlockSchedule far = amg::block_schedule(poisson(Stencil::fd3d_7pt, 12, Space::host), 2, 4096);
  REQUIRE(far.fits());
  check_colouring(poisson(Stencil::fd3d_7pt, 12, Space::host), far);
}

TEST_CASE("blocked MIS-2 is the sequential visit in schedule order, a distance-2 MIS; one block is greedy") {
  std::mt19937_64 rng(fresh_seed());
  std::vector<std::pair<CsrMatrix, bool>> graphs;  // the graph, whether it is symmetric
  graphs.emplace_back(banded_graph(700, 25, 0.15, rng), true);
  graphs.emplace_back(banded_graph(1000, 60, 0.05, rng), true);
  graphs.emplace_back(banded_nonsymmetric_graph(900, 40, 0.06, rng), false);
  graphs.emplace_back(poisson(Stencil::fd2d_5pt, 31, Space::host), true);
  graphs.emplace_back(poisson(Stencil::fe3d_27pt, 9, Space::host), true);
  for (const auto& graph : graphs) {  // (no structured binding: CAPTURE's lambda cannot name one in C++17)
    const CsrMatrix& S = graph.first;
    const bool symmetric = graph.second;
    CAPTURE(S.rows());
    for (index_t b : {32, 77, 200, 5000}) {
      CAPTURE(b);
      const amg::BlockSchedule s = amg::block_schedule(S, b, 4096);
      REQUIRE(s.fits());
      check_colouring(S, s);
      const std::vector<std::int32_t> in = amg::blocked_mis2(S, s).to_vector();
      CHECK(in == sequential_visit(S, s));
      if (symmetric) check_distance2_mis(S, in);
      if (symmetric && b >= S.rows()) CHECK(in == amg::lexicographic_mis2(S).to_vector());
    }
  }
}

TEST_CASE("blocked MIS-2 on the host's threads (colours of many entries): the sequential visit") {
  // A colour of at least 2^15 entries in several blocks is visited by the
  // host's threads, a block each (amg/blocked_mis2.cpp): the set must not
  // depend on it.
  std::mt19937_64 rng(fresh_seed());
  std::vector<CsrMatrix> graphs;
  graphs.push_back(banded_graph(60000, 40, 0.1, rng));
  graphs.push_back(poisson(Stencil::fd2d_5pt, 300, Space::host));
  graphs.push_back(poisson(Stencil::fe2d_9pt, 257, Space::host));
  for (const CsrMatrix& S : graphs) {
    CAPTURE(S.rows());
    for (index_t b : {600, 2048}) {
      CAPTURE(b);
      const amg::BlockSchedule s = amg::block_schedule(S, b, 4096);
      REQUIRE(s.fits());
      REQUIRE(s.colour_start[1] - s.colour_start[0] >= 4);  // several blocks in a colour
      const std::vector<std::int32_t> in = amg::blocked_mis2(S, s).to_vector();
      CHECK(in == sequential_visit(S, s));
      check_distance2_mis(S, in);
    }
  }
}

TEST_CASE("blocked aggregation: colours reported; MIS-2 rounds where the schedule does not fit, with the reason") {
  const CsrMatrix P = poisson(Stencil::fd2d_5pt, 64, Space::host);
  const amg::Aggregates a = amg::aggregate_blocked_greedy(P, 3, amg::BlockedGreedyParams{});
  CHECK(a.block_colours == 1);  // 4096 nodes: one block of 64 periods
  // Coarse levels take blocks of coarse_block_size (2048: 16 periods of 128 nodes): two blocks, two colours.
  CHECK(amg::aggregate_blocked_greedy(P, 3, amg::BlockedGreedyParams{}, {1, 1}).block_colours == 2);
  amg::BlockedGreedyParams coarse_wide;
  coarse_wide.coarse_block_size = 4096;
  CHECK(amg::aggregate_blocked_greedy(P, 3, coarse_wide, {1, 1}).block_colours == 1);
  // Coarse levels of at least large_level_rows rows take large_level_block_size instead.
  const amg::BlockedGreedyParams d;
  CHECK(d.min_block_size({0, 1}, 1 << 20) == 4096);
  CHECK(d.min_block_size({1, 1}, 65535) == 2048);
  CHECK(d.min_block_size({1, 1}, 65536) == 1024);
  CHECK(d.min_block_size({3, 1}, 1 << 20) == 1024);
  amg::BlockedGreedyParams off;
  off.large_level_block_size = 0;
  CHECK(off.min_block_size({1, 1}, 1 << 20) == 2048);
  const CsrMatrix L = poisson(Stencil::fd2d_5pt, 300, Space::host);  // 90,000 rows: a large level
  amg::BlockedGreedyParams same;  // the rule's blocks given as coarse_block_size, the rule off
  same.coarse_block_size = 1024;
  same.large_level_block_size = 0;
  const amg::Aggregates large = amg::aggregate_blocked_greedy(L, 3, d, {1, 1});
  CHECK(large.of_node.to_vector() == amg::aggregate_blocked_greedy(L, 3, same, {1, 1}).of_node.to_vector());
  CHECK(large.of_node.to_vector() != amg::aggregate_blocked_greedy(L, 3, off, {1, 1}).of_node.to_vector());
  // More near-nullspace columns than max_nullspace_columns (1): MIS-2 rounds.
  const amg::Aggregates six = amg::aggregate_blocked_greedy(P, 3, amg::BlockedGreedyParams{}, {0, 6});
  CHECK(six.block_colours == 0);
  CHECK(six.of_node.to_vector() == amg::aggregate_mis2(P, 3, amg::BlockedGreedyParams{}.mis2.options()).of_node.to_vector());
  amg::BlockedGreedyParams small;
  small.block_size = 128;
  small.align = 0;
  const amg::Aggregates b = amg::aggregate_blocked_greedy(P, 3, small);
  CHECK(b.block_colours == 3);
  // The GPU visit's estimate: colours x windows of 32 nodes x 3 us (rows of up to 22 entries).
  CHECK(amg::blocked_visit_seconds(P, amg::block_schedule(P, 128, 64)) == doctest::Approx(3 * 4 * 3e-6));
  // Lines and warps do not change it (the same decision on both backends).
  amg::BlockSchedule lined = amg::block_schedule(P, 128, 64);
  lined.line = 64;
  lined.line_warps = 8;
  CHECK(amg::blocked_visit_seconds(P, lined) == doctest::Approx(3 * 4 * 3e-6));
  const CsrMatrix dense = poisson(Stencil::fe3d_27pt, 6, Space::host);  // 216 nodes, rows of 8-27 entries
  const double mean_row = static_cast<double>(dense.nnz()) / dense.rows();
  CHECK(amg::blocked_visit_seconds(dense, amg::block_schedule(dense, 1000, 64)) ==
        doctest::Approx(7 * 3e-6 * std::max(1.0, mean_row / 22)));
  // Blocks so wide that the colours run most of the nodes in sequence: MIS-2 rounds.
  const CsrMatrix wide = poisson(Stencil::fd2d_5pt, 600, Space::host);  // 360000 nodes
  amg::BlockedGreedyParams big;
  big.block_size = 65536;
  CHECK(amg::block_schedule(wide, amg::block_size_for(wide, big.block_size, big.align, 1 << 20), 64).fits());
  const amg::BlockSchedule serial =
      amg::block_schedule(wide, amg::block_size_for(wide, big.block_size, big.align, 1 << 20), 64, 1 << 16);
  CHECK_FALSE(serial.fits());  // 3 colours x 66000 nodes in sequence
  CHECK(serial.unfit.find("in sequence") != std::string::npos);
  const amg::Aggregates fell = amg::aggregate_blocked_greedy(wide, 3, big);
  CHECK(fell.block_colours == 0);
  CHECK(fell.of_node.to_vector() == amg::aggregate_mis2(wide, 3, big.mis2.options()).of_node.to_vector());
  CHECK(amg::aggregate_blocked_greedy(wide, 3, amg::BlockedGreedyParams{}).block_colours > 0);
  small.max_colours = 2;
  const amg::Aggregates c = amg::aggregate_blocked_greedy(P, 3, small);
  CHECK(c.block_colours == 0);
  CHECK(c.of_node.to_vector() == amg::aggregate_mis2(P, 3, small.mis2.options()).of_node.to_vector());
}

TEST_CASE("blocked aggregation: a strength graph of chains (strong anisotropy) takes MIS-2 rounds") {
  // -eps u_xx - u_yy with eps = 1e-3: theta = 0.25 keeps the y-connections
  // only, 3 entries a row (the diagonal included).
  const CsrMatrix A = poisson(make_stencil_spec(Stencil::fd2d_5pt, {1e-3, 0.0}), 64, Space::host);
  const CsrMatrix S = amg::strength_measures().create(Component("symmetric"), Space::host)->strong(A, 0.25);
  REQUIRE(static_cast<double>(S.nnz()) / S.rows() < 3.0);
  const amg::Aggregates a = amg::aggregate_blocked_greedy(S, 3, amg::BlockedGreedyParams{});
  CHECK(a.block_colours == 0);
  CHECK(a.of_node.to_vector() == amg::aggregate_mis2(S, 3, amg::BlockedGreedyParams{}.mis2.options()).of_node.to_vector());
  // The visit (chain_entries 0; one block: the lexicographic order) roots
  // every third node of each 64-node chain, 0, 3, ..., 63: 22 aggregates of at
  // most 3 a chain. MIS-2's scattered roots make fewer, larger ones.
  amg::BlockedGreedyParams visit;
  visit.chain_entries = 0;
  const amg::Aggregates v = amg::aggregate_blocked_greedy(S, 3, visit);
  CHECK(v.block_colours > 0);
  CHECK(v.count == 64 * 22);
  CHECK(a.count < v.count);
  // A 2D grid graph (5 entries a row inside) is not a chain.
  const CsrMatrix P = poisson(Stencil::fd2d_5pt, 64, Space::host);
  CHECK(amg::aggregate_blocked_greedy(P, 3, amg::BlockedGreedyParams{}).block_colours == 1);
}
