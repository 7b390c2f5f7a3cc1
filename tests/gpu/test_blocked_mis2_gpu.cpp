// Blocked greedy MIS-2 on the GPU (amg/cuda/blocked_mis2_cuda.cu) against the
// host: the row period, the star stencil's line, the block schedule made from the device's block
// intervals, and the member set (one warp a block, and the wavefront of warps
// over lines of any length), for blocks of one warp's width to blocks
// whose flags need more than the default 48 KB of shared memory (and blocks
// too wide for a CTA, refused alike); on grids, a nonsymmetric pattern, an
// R-MAT graph (hubs; a colour per block) and one node. Small levels visited on
// the host by the GPU backend (BlockedGreedyParams::host_visit) give the same aggregates.
#include "amg/aggregation.hpp"
#include "amg/blocked_mis2.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("GPU blocked MIS-2: period, schedule and members equal the host's, run after run") {
  std::mt19937_64 rng(fresh_seed());
  std::vector<std::pair<std::string, CsrMatrix>> graphs;
  graphs.emplace_back("2D 5-pt", poisson(Stencil::fd2d_5pt, sized(300, 60), Space::host));
  graphs.emplace_back("2D 9-pt", poisson(Stencil::fe2d_9pt, sized(129, 40), Space::host));
  graphs.emplace_back("3D 7-pt", poisson(Stencil::fd3d_7pt, sized(41, 14), Space::host));
  graphs.emplace_back("3D 27-pt", poisson(Stencil::fe3d_27pt, sized(23, 10), Space::host));
  graphs.emplace_back("nonsymmetric", random_nonsymmetric_graph(sized(200000, 5000), 3, rng));
  graphs.emplace_back("nonsymmetric banded", banded_nonsymmetric_graph(sized(60000, 3000), 300, 0.01, rng));
  RmatParams rp;
  rp.scale = sized(13, 10);
  rp.seed = rng();
  graphs.emplace_back("R-MAT", rmat_laplacian(rp, 1.0, Space::host));
  graphs.emplace_back("one node", random_nonsymmetric_graph(1, 0, rng));
  for (const auto& graph : graphs) {  // (no structured binding: CAPTURE's lambda cannot name one in C++17)
    const std::string& name = graph.first;
    const CsrMatrix& Sh = graph.second;
    CAPTURE(name);
    const CsrMatrix Sd = Sh.to(Space::device);
    const index_t period = amg::row_period(Sh);
    CHECK(amg::row_period(Sd) == period);
    CHECK(amg::star_line(Sd, period) == amg::star_line(Sh, period));
    CHECK(amg::star_line(Sd, 2 * period + 7) == amg::star_line(Sh, 2 * period + 7));
    CHECK(amg::plane_line(Sd, period) == amg::plane_line(Sh, period));
    CHECK(amg::plane_line(Sd, 2 * period + 7) == amg::plane_line(Sh, 2 * period + 7));
    for (index_t min_size : {32, 600, 4096})  // the shape and schedule with one read of the device
      for (index_t star : {0, 2048}) {
        const amg::ShapedSchedule h = amg::shaped_block_schedule(Sh, min_size, 2, 1 << 20, star, 4096);
        const amg::ShapedSchedule d = amg::shaped_block_schedule(Sd, min_size, 2, 1 << 20, star, 4096);
        CHECK(d.shape.size == h.shape.size);
        CHECK(d.shape.line == h.shape.line);
        CHECK(d.schedule.span == h.schedule.span);
        CHECK(d.schedule.unfit == h.schedule.unfit);
        CHECK(d.schedule.order == h.schedule.order);
        CHECK(d.schedule.colour_start == h.schedule.colour_start);
      }
    for (index_t b : {32, 100, 4096, 40000, 300000, 1 << 20}) {  // 300000: past the default 48 KB of shared memory
      CAPTURE(b);
      const amg::BlockSchedule sh = amg::block_schedule(Sh, b, 4096), sd = amg::block_schedule(Sd, b, 4096);
      CHECK(sd.span == sh.span);
      REQUIRE(sd.fits() == sh.fits());  // blocks of 2^20 with the span do not fit, but for the one node
      if (!sh.fits()) continue;
      CHECK(sd.order == sh.order);
      CHECK(sd.colour_start == sh.colour_start);
      const std::vector<std::int32_t> want = amg::blocked_mis2(Sh, sh).to_vector();
      for (int run = 0; run < 3; ++run) CHECK(amg::blocked_mis2(Sd, sd).to_vector() == want);
    }
  }
}

TEST_CASE("GPU blocked MIS-2: the wavefront of warps over a block's lines gives the sequential visit's set") {
  std::mt19937_64 rng(fresh_seed());
  struct Case {
    std::string name;
    CsrMatrix S;
    std::vector<index_t> lines;  // line lengths to try besides the shape's own
  };
  std::vector<Case> cases;
  cases.push_back({"2D 5-pt", poisson(Stencil::fd2d_5pt, sized(512, 64), Space::host), {7, 33, 200}});
  cases.push_back({"2D 9-pt", poisson(Stencil::fe2d_9pt, sized(300, 50), Space::host), {31, 64}});
  cases.push_back({"3D 7-pt", poisson(Stencil::fd3d_7pt, sized(48, 20), Space::host), {5, 100}});
  cases.push_back({"3D 27-pt", poisson(Stencil::fe3d_27pt, sized(40, 14), Space::host), {13, 90}});
  cases.push_back({"nonsymmetric banded", banded_nonsymmetric_graph(sized(60000, 4000), 150, 0.02, rng), {37, 150}});
  cases.push_back({"nonsymmetric", random_nonsymmetric_graph(sized(100000, 5000), 3, rng), {40, 64}});
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const CsrMatrix Sd = c.S.to(Space::device);
    for (index_t min_size : {256, 2048, 4096}) {
      const amg::BlockShape shape = amg::block_shape_for(c.S, min_size, 2, 1 << 20, 1024);
      CHECK(amg::block_shape_for(Sd, min_size, 2, 1 << 20, 1024).size == shape.size);
      CHECK(amg::block_shape_for(Sd, min_size, 2, 1 << 20, 1024).line == shape.line);
      // The shape and the schedule decided on the device with one read: the host's.
      for (index_t star : {0, 1024})
        for (int align : {1, 2, 3}) {
          CAPTURE(star);
          CAPTURE(align);
          const amg::ShapedSchedule h = amg::shaped_block_schedule(c.S, min_size, align, 1 << 20, star, 4096);
          const amg::ShapedSchedule d = amg::shaped_block_schedule(Sd, min_size, align, 1 << 20, star, 4096);
          CHECK(d.shape.size == h.shape.size);
          CHECK(d.shape.line == h.shape.line);
          CHECK(d.schedule.span == h.schedule.span);
          REQUIRE(d.schedule.fits() == h.schedule.fits());
          CHECK(d.schedule.unfit == h.schedule.unfit);
          CHECK(d.schedule.order == h.schedule.order);
          CHECK(d.schedule.colour_start == h.schedule.colour_start);
        }
      CAPTURE(shape.size);
      amg::BlockSchedule sh = amg::block_schedule(c.S, shape.size, 4096), sd = amg::block_schedule(Sd, shape.size, 4096);
      REQUIRE(sh.fits());
      const std::vector<std::int32_t> want = amg::blocked_mis2(c.S, sh).to_vector();
      std::vector<index_t> lines = c.lines;
      lines.push_back(shape.line);
      lines.push_back(32);  // more lines than kMaxWaveLines in the larger blocks: one warp
      for (index_t line : lines)
        for (int warps : {2, 3, amg::kMaxLineWarps}) {
          CAPTURE(line);
          CAPTURE(warps);
          sd.line = line;
          sd.line_warps = warps;
          for (int run = 0; run < 2; ++run) CHECK(amg::blocked_mis2(Sd, sd).to_vector() == want);
        }
    }
  }
}

TEST_CASE("GPU blocked aggregation: levels visited on the host give the GPU visit's and the host backend's aggregates") {
  std::mt19937_64 rng(fresh_seed());
  std::vector<std::pair<std::string, CsrMatrix>> graphs;
  graphs.emplace_back("2D 5-pt", poisson(Stencil::fd2d_5pt, sized(300, 60), Space::host));
  graphs.emplace_back("2D 5-pt tiny", poisson(Stencil::fd2d_5pt, 50, Space::host));    // tiny: all on the host
  graphs.emplace_back("3D 27-pt tiny", poisson(Stencil::fe3d_27pt, 12, Space::host));  // tiny: all on the host
  graphs.emplace_back("2D 5-pt middle", poisson(Stencil::fd2d_5pt, 150, Space::host));  // level 0: visited there
  graphs.emplace_back("2D 9-pt", poisson(Stencil::fe2d_9pt, sized(200, 40), Space::host));
  graphs.emplace_back("3D 7-pt", poisson(Stencil::fd3d_7pt, sized(40, 14), Space::host));
  graphs.emplace_back("3D 27-pt", poisson(Stencil::fe3d_27pt, sized(30, 10), Space::host));
  graphs.emplace_back("nonsymmetric banded", banded_nonsymmetric_graph(sized(60000, 3000), 200, 0.02, rng));
  // A colour per block: the schedule does not fit, MIS-2 rounds on the device either way.
  graphs.emplace_back("nonsymmetric", random_nonsymmetric_graph(sized(50000, 3000), 3, rng));
  int tiny = 0, on_host = 0, on_gpu = 0;
  for (const auto& graph : graphs) {  // (no structured binding: CAPTURE's lambda cannot name one in C++17)
    const std::string& name = graph.first;
    const CsrMatrix& Sh = graph.second;
    CAPTURE(name);
    const CsrMatrix Sd = Sh.to(Space::device);
    for (int level : {0, 1}) {
      CAPTURE(level);
      amg::BlockedGreedyParams p;
      p.block_size = 1024;
      p.coarse_block_size = 512;
      const amg::BlockShape shape = amg::block_shape_for(Sh, p.min_block_size({level, 1}, Sh.rows()), p.align,
                                                         amg::BlockedGreedyParams::kMaxBlockSize, p.star_block_size);
      const amg::BlockSchedule schedule = amg::block_schedule(Sh, shape.size, p.max_colours);
      if (amg::BlockedGreedyParams::tiny_level(Sh))
        ++tiny;
      else if (schedule.fits())
        ++(amg::host_visit_seconds(Sh) < amg::blocked_visit_seconds(Sh, schedule) ? on_host : on_gpu);
      const amg::Aggregates want = amg::aggregate_blocked_greedy(Sh, 7, p, {level, 1});
      const amg::Aggregates chosen = amg::aggregate_blocked_greedy(Sd, 7, p, {level, 1});
      p.host_visit = false;  // every visit on the GPU
      const amg::Aggregates gpu = amg::aggregate_blocked_greedy(Sd, 7, p, {level, 1});
      REQUIRE(chosen.of_node.space() == Space::device);
      CHECK(gpu.count == want.count);
      CHECK(chosen.count == want.count);
      CHECK(gpu.block_colours == want.block_colours);
      CHECK(chosen.block_colours == want.block_colours);
      CHECK(gpu.of_node.to_vector() == want.of_node.to_vector());
      CHECK(chosen.of_node.to_vector() == want.of_node.to_vector());
    }
  }
  // Every way was taken: tiny levels wholly on the host, the visit on the host by the estimates, on the GPU.
  CHECK(tiny >= 2);
  CHECK(on_host >= 1);
  CHECK(on_gpu >= 1);
}
