// The CUDA backend builds the same hierarchy as the host (aggregates
// identical, matrices to 1e-12) and PCG takes the same iterations (±1).

#include <Eigen/Dense>
#include <fmt/format.h>

#include "amg/coarse_cholesky.hpp"
#include "amg/coarse_null_space.hpp"
#include "amg/coarse_solver.hpp"
#include "amg/spectral_radius.hpp"
#include "amg/aggregation.hpp"
#include "amg/lexicographic_mis2.hpp"
#include "amg/mis2.hpp"
#include "amg/nullspace.hpp"
#include "problems/elasticity.hpp"
#include "problems/mesh_generate.hpp"
#include "problems/rmat.hpp"
#include "amg/strength.hpp"
#include "amg/tentative.hpp"
#include "app/profile.hpp"
#include "app/run.hpp"
#include "core/device.hpp"
#include "api/saga.hpp"
#include "problems/structured.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/transpose.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv_diagonals.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/determinism.hpp"
#include "tests/floating_body.hpp"
#include "tests/helpers.hpp"
#include "tests/json_schema.hpp"

using namespace saga;
using namespace saga::test;

TEST_CASE("GPU csr_ops equal host") {
  std::mt19937_64 rng(fresh_seed());
  RandomSpec sp;
  sp.rows = sp.cols = 300;
  const HostCsr a = random_csr(sp, rng), b = random_csr(sp, rng);
  const CsrMatrix Ah = from_host_csr(a, Space::host), Bh = from_host_csr(b, Space::host);
  check_equal(to_host_csr(add(0.5, Ah.to(Space::device), -2.0, Bh.to(Space::device))),
              to_host_csr(add(0.5, Ah, -2.0, Bh)), 1e-15);
  CHECK(diagonal(Ah.to(Space::device), false).to_vector() == diagonal(Ah, false).to_vector());
  const CsrMatrix P = poisson(Stencil::fd2d_5pt, 9, Space::device);
  HostCsr bad = to_host_csr(P);
  bad.val[bad.row_ptr[40] + 2] = -1.0;  // diagonal of row 40
  CHECK_THROWS_WITH_AS(inverse_diagonal(from_host_csr(bad, Space::device)), doctest::Contains("row 40 is -1"),
                       InputError);
  // Row blocks, their column spans and their stacking.
  const CsrMatrix Ad = Ah.to(Space::device);
  for (auto [r0, r1] : {std::pair<index_t, index_t>{0, 300}, {17, 18}, {40, 211}, {5, 5}}) {
    CAPTURE(r0);
    CAPTURE(r1);
    const auto span = column_span(Ad, r0, r1);
    CHECK(span == column_span(Ah, r0, r1));
    if (span.second < span.first) continue;
    const index_t cols = span.second + 1 - span.first;
    check_equal(to_host_csr(row_block(Ad, r0, r1, span.first, cols)), to_host_csr(row_block(Ah, r0, r1, span.first, cols)),
                0.0);
    // ... and the blocks of the transpose made without it
    const auto rows = row_span_of_columns(Ad, r0, r1);
    CHECK(rows == row_span_of_columns(Ah, r0, r1));
    check_equal(to_host_csr(column_block(Ad, r0, r1)), to_host_csr(column_block(Ah, r0, r1)), 0.0);
  }
  for (int blocks : {2, 5, 64}) check_equal(to_host_csr(transpose_in_blocks(Ad, blocks)), to_host_csr(transpose(Ah)), 0.0);
  std::vector<CsrMatrix> blocks;
  for (auto [r0, r1] : {std::pair<index_t, index_t>{0, 100}, {100, 100}, {100, 250}, {250, 300}})
    blocks.push_back(row_block(Ad, r0, r1, 0, -1, r0 > 0));
  check_equal(to_host_csr(stack_rows(std::move(blocks))), a, 0.0);
}

TEST_CASE("GPU strength, MIS-2, aggregation and tentative equal host") {
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    const CsrMatrix Ah = poisson(s, stencil_dim(s) == 2 ? 50 : 14, Space::host);
    const CsrMatrix Ad = Ah.to(Space::device);
    for (double theta : {0.0, 0.25}) {
      const CsrMatrix Sh = amg::symmetric_strength(Ah, diagonal(Ah, true), theta);
      const CsrMatrix Sd = amg::symmetric_strength(Ad, diagonal(Ad, true), theta);
      check_equal(to_host_csr(Sd), to_host_csr(Sh), 0.0);
      CHECK(amg::mis2(Sd, 5).in_set.to_vector() == amg::mis2(Sh, 5).in_set.to_vector());
      const amg::Aggregates gh = amg::aggregate_mis2(Sh, 5), gd = amg::aggregate_mis2(Sd, 5);
      CHECK(gd.count == gh.count);
      CHECK(gd.of_node.to_vector() == gh.of_node.to_vector());
      const int k = 2;
      std::vector<double> B(Ah.rows() * k);
      for (index_t i = 0; i < Ah.rows(); ++i) B[i * k] = 1.0, B[i * k + 1] = i % 7;
      const amg::Tentative th = amg::tentative_prolongator(gh, Vector::from_vector(B, Space::host), k);
      const amg::Tentative td = amg::tentative_prolongator(gd, Vector::from_vector(B, Space::device), k);
      check_equal(to_host_csr(td.T), to_host_csr(th.T), 1e-12);
      CHECK(max_rel_diff(td.Bc.to_vector(), th.Bc.to_vector()) < 1e-12);
      // The constant near-nullspace's T from integer weights: the host's bit for bit.
      std::vector<index_t> w(Ah.rows());
      for (index_t i = 0; i < Ah.rows(); ++i) w[i] = 1 + i % 5;
      for (bool weighted : {false, true}) {
        const Array<index_t> wh = weighted ? Array<index_t>::from_vector(w, Space::host) : Array<index_t>();
        const Array<index_t> wd = weighted ? Array<index_t>::from_vector(w, Space::device) : Array<index_t>();
        const amg::Tentative ch = amg::constant_tentative_prolongator(gh, wh);
        const amg::Tentative cd = amg::constant_tentative_prolongator(gd, wd);
        check_equal(to_host_csr(cd.T), to_host_csr(ch.T), 0.0);
        CHECK(cd.Bc.to_vector() == ch.Bc.to_vector());
        CHECK(cd.coarse_weights.to_vector() == ch.coarse_weights.to_vector());
      }
    }
  }
}

TEST_CASE("GPU strength filter with a warp per row (rows of 30-300 entries) equals host") {
  std::mt19937_64 rng(fresh_seed());
  RandomSpec sp;
  sp.rows = sp.cols = 2000;
  sp.density = 0.05;  // ~100 entries a row, 4 ballots; long rows of ~1000
  const HostCsr r = random_csr(sp, rng);
  const CsrMatrix Ah = from_host_csr(r, Space::host);
  const CsrMatrix Ad = Ah.to(Space::device);
  std::vector<double> dv(sp.rows);
  std::uniform_real_distribution<double> U(0.5, 2.0);
  for (double& x : dv) x = U(rng);
  for (double theta : {0.05, 0.3, 1.0}) {
    const HostCsr sh = to_host_csr(amg::symmetric_strength(Ah, Vector::from_vector(dv, Space::host), theta));
    const HostCsr sd = to_host_csr(amg::symmetric_strength(Ad, Vector::from_vector(dv, Space::device), theta));
    check_equal(sd, sh, 0.0);
    CHECK(sh.col.size() < r.col.size());
  }
}

TEST_CASE("GPU lexicographic MIS-2 (dataflow kernel) and every aggregation method equal host") {
  std::vector<CsrMatrix> graphs;
  graphs.push_back(poisson(Stencil::fd2d_5pt, sized(300, 120), Space::host));  // 90k nodes: 700 tiles wait on each other
  graphs.push_back(poisson(Stencil::fe2d_9pt, sized(129, 40), Space::host));
  graphs.push_back(poisson(Stencil::fd3d_7pt, sized(41, 14), Space::host));
  graphs.push_back(poisson(Stencil::fe3d_27pt, sized(23, 10), Space::host));
  RmatParams rp;
  rp.scale = 13;
  rp.seed = fresh_seed();
  graphs.push_back(rmat_laplacian(rp, 1.0, Space::host));  // hubs and isolated vertices
  for (const CsrMatrix& Gh : graphs) {
    CAPTURE(Gh.rows());
    const CsrMatrix Gd = Gh.to(Space::device);
    const std::vector<std::int32_t> want = amg::lexicographic_mis2(Gh).to_vector();
    for (int run = 0; run < 3; ++run) CHECK(amg::lexicographic_mis2(Gd).to_vector() == want);
    CHECK(amg::nodes_without_neighbours(Gd) == amg::nodes_without_neighbours(Gh));  // R-MAT: isolated vertices
    for (const std::string& name : amg::aggregation_methods().names()) {
      CAPTURE(name);
      const auto mh = amg::aggregation_methods().create(Component(name), Space::host);
      const auto md = amg::aggregation_methods().create(Component(name), Space::device);
      const amg::Aggregates ah = mh->aggregate(Gh, 9, {}), ad = md->aggregate(Gd, 9, {});
      CHECK(ad.count == ah.count);
      CHECK(ad.of_node.to_vector() == ah.of_node.to_vector());
    }
  }
}

TEST_CASE("GPU hierarchy of an R-MAT Laplacian (isolated vertices left unaggregated) equals host") {
  RmatParams rp;
  rp.scale = 12;
  rp.seed = fresh_seed();
  for (double theta : {0.0, 0.08}) {
    AmgParams p;
    p.theta = theta;
    p.coarse_size = 500;  // the same on both backends (its default differs: coarse_size_for)
    const Hierarchy hh(rmat_laplacian(rp, 1.0, Space::host), p);
    const Hierarchy hd(rmat_laplacian(rp, 1.0, Space::device), p);
    REQUIRE(hd.levels().size() == hh.levels().size());
    for (std::size_t l = 0; l + 1 < hh.levels().size(); ++l) {
      CHECK(hd.levels()[l].aggregates.to_vector() == hh.levels()[l].aggregates.to_vector());
      check_equal(to_host_csr(hd.levels()[l].P), to_host_csr(hh.levels()[l].P), 1e-12);
    }
    const std::vector<index_t> a0 = hh.levels()[0].aggregates.to_vector();
    CHECK(std::count(a0.begin(), a0.end(), -1) > 0);
  }
}

TEST_CASE("GPU hierarchy equals the host hierarchy and PCG iterations agree") {
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    CAPTURE(stencil_name(s));
    const index_t N = stencil_dim(s) == 2 ? sized(200, 48) : sized(30, 12);
    AmgParams p;
    p.coarse_size = 500;  // the same on both backends (its default differs: coarse_size_for)
    const Hierarchy hh(poisson(s, N, Space::host), p);
    const Hierarchy hd(poisson(s, N, Space::device), p);
    REQUIRE(hd.levels().size() == hh.levels().size());
    for (std::size_t l = 0; l < hh.levels().size(); ++l) {
      const Level& a = hd.levels()[l];
      const Level& b = hh.levels()[l];
      CHECK(a.aggregates.to_vector() == b.aggregates.to_vector());
      check_equal(to_host_csr(a.A), to_host_csr(b.A), 1e-12);
      if (l + 1 < hh.levels().size()) {
        check_equal(to_host_csr(a.P), to_host_csr(b.P), 1e-12);
        check_equal(to_host_csr(a.R), to_host_csr(b.R), 1e-12);
        CHECK(std::abs(a.rho - b.rho) < 1e-10 * b.rho);
      }
    }
    RunConfig c;
    c.problem.type = Component("poisson", Options().set("stencil", stencil_name(s)).set("N", N));
    c.amg.coarse_size = 500;
    const RunResult rh = run_solve(c, Executor::host()), rd = run_solve(c, Executor::cuda());
    CHECK(rd.solve.converged);
    CHECK(std::abs(rd.solve.iterations - rh.solve.iterations) <= 1);
    CHECK(rd.hierarchy.operator_complexity == doctest::Approx(rh.hierarchy.operator_complexity));
    // Deterministic on the device too.
    const RunResult rd2 = run_solve(c, Executor::cuda());
    CHECK(rd2.solve.residual_history == rd.solve.residual_history);
  }
}

TEST_CASE("GPU coarse size auto: 800 rows with the device inverse, one level less, the same iterations") {
  // 3D 7-pt N = 64 coarsens 262144 -> 28744 -> 676 -> 12 rows with the
  // reference 500: with the device's 800, the 676-row level is the coarsest,
  // inverted on the GPU, and PCG takes the same iterations.
  RunConfig c;
  c.problem.type = Component("poisson", Options().set("stencil", "3d7").set("N", 64));
  const RunResult automatic = run_solve(c, Executor::cuda());
  c.amg.coarse_size = 500;
  const RunResult reference = run_solve(c, Executor::cuda());
  CHECK(automatic.hierarchy.coarse_size == 800);
  CHECK(reference.hierarchy.coarse_size == 500);
  REQUIRE(reference.hierarchy.levels.size() >= 2);
  CHECK(automatic.hierarchy.levels.size() + 1 == reference.hierarchy.levels.size());
  CHECK(automatic.hierarchy.levels.back().rows > 500);
  CHECK(automatic.hierarchy.levels.back().rows <= 800);
  CHECK(automatic.hierarchy.coarse_solver == "dense_cholesky");
  CHECK(!automatic.hierarchy.coarse_pseudo_inverse);
  CHECK(automatic.solve.converged);
  CHECK(std::abs(automatic.solve.iterations - reference.solve.iterations) <= 1);
}

TEST_CASE("GPU Galerkin product in blocks of R's rows: the same hierarchy as whole and as the host's, less memory") {
  for (Stencil s : {Stencil::fd3d_7pt, Stencil::fe3d_27pt, Stencil::fd2d_5pt}) {
    CAPTURE(stencil_name(s));
    const index_t N = stencil_dim(s) == 2 ? sized(600, 100) : sized(60, 16);
    AmgParams p;
    p.galerkin_slices = 1;
    const CsrMatrix A = poisson(s, N, Space::device);
    // Peaks beyond what is held before each setup (the whole hierarchy stays
    // alive while the sliced ones are built).
    std::size_t before = device::pool_usage().current;
    const Hierarchy whole(A.clone(), p);
    const std::size_t whole_peak = whole.stats().peak_bytes - before;
    const std::size_t whole_ptap = whole.stats().levels[0].peak_bytes.at("PtAP") - before;
    for (int slices : {3, 8}) {
      CAPTURE(slices);
      p.galerkin_slices = slices;
      before = device::pool_usage().current;
      const Hierarchy h(A.clone(), p);
      REQUIRE(h.levels().size() == whole.levels().size());
      for (std::size_t l = 0; l < h.levels().size(); ++l) {
        CAPTURE(l);
        check_equal(to_host_csr(h.levels()[l].A), to_host_csr(whole.levels()[l].A), 1e-12);
      }
      const LevelStats& s0 = h.stats().levels[0];
      CHECK(s0.galerkin_slices == slices);
      MESSAGE(stencil_name(s) << " N=" << N << ", " << slices << " slices: setup peak "
                              << (h.stats().peak_bytes - before) / 1048576.0 << " MiB (whole " << whole_peak / 1048576.0
                              << " MiB) at level " << h.stats().peak_level << " " << h.stats().peak_phase
                              << "; A P rows computed " << s0.galerkin_ap_rows << " of " << A.rows());
      CHECK(h.stats().levels[0].peak_bytes.at("PtAP") - before < whole_ptap);  // one block of A P at a time
    }
  }
  // The host's blocks equal the device's (and the host's whole product).
  AmgParams p;
  p.galerkin_slices = 4;
  p.coarse_size = 500;  // the same on both backends (its default differs: coarse_size_for)
  Hierarchy hh(poisson(Stencil::fd2d_5pt, sized(200, 48), Space::host), p);
  Hierarchy hd(poisson(Stencil::fd2d_5pt, sized(200, 48), Space::device), p);
  REQUIRE(hd.levels().size() == hh.levels().size());
  for (std::size_t l = 0; l < hh.levels().size(); ++l) check_equal(to_host_csr(hd.levels()[l].A), to_host_csr(hh.levels()[l].A), 1e-12);
  // A resetup recomputes the products in the same blocks, on both backends alike.
  CsrMatrix Ah = poisson(Stencil::fd2d_5pt, sized(200, 48), Space::host);
  scale(1.5, Ah.mutable_val());
  const CsrMatrix Ad = Ah.to(Space::device);
  ResetupOptions o;
  o.refresh_prolongator = true;
  hh.resetup(Ah.clone(), o);
  hd.resetup(Ad.clone(), o);
  for (std::size_t l = 0; l < hh.levels().size(); ++l) {
    CAPTURE(l);
    check_equal(to_host_csr(hd.levels()[l].A), to_host_csr(hh.levels()[l].A), 1e-12);
  }
  check_equal(to_host_csr(hd.levels()[1].A), to_host_csr(spgemm(hh.levels()[0].R, spgemm(Ah, hh.levels()[0].P))), 1e-12);
}

TEST_CASE("GPU rho(D^-1 A): the device-resident Lanczos equals the host one, breakdown included") {
  std::mt19937_64 rng(fresh_seed());
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe3d_27pt}) {
    const CsrMatrix Ah = poisson(s, stencil_dim(s) == 2 ? sized(90, 40) : sized(17, 10), Space::host);
    const CsrMatrix Ad = Ah.to(Space::device);
    const double rh = amg::spectral_radius_dinv_a(Ah, inverse_diagonal(Ah), 15);
    const double rd = amg::spectral_radius_dinv_a(Ad, inverse_diagonal(Ad), 15);
    CHECK(std::abs(rd - rh) <= 1e-11 * rh);
    CHECK(amg::spectral_radius_dinv_a(Ad, inverse_diagonal(Ad), 15) == rd);  // bitwise repeatable
  }
  HostCsr dg{300, 300, {0}, {}, {}};  // D^-1 A = I: breakdown after one step
  std::uniform_real_distribution<double> U(1.0, 5.0);
  for (index_t i = 0; i < 300; ++i) dg.col.push_back(i), dg.val.push_back(U(rng)), dg.row_ptr.push_back(i + 1);
  const CsrMatrix D = from_host_csr(dg, Space::device);
  CHECK(amg::spectral_radius_dinv_a(D, inverse_diagonal(D), 15) == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("GPU dense_cholesky coarse solver: the device inverse equals the host one; semi-definite falls back") {
  std::mt19937_64 rng(fresh_seed());
  for (index_t n : {1, 31, 32, 33, 300}) {  // the device inverts in blocks of 32 pivots: around a block's edges
    CAPTURE(n);
    RandomSpec sp;
    sp.rows = sp.cols = n;
    sp.density = n < 40 ? 0.2 : 0.03;
    sp.empty_cols = 0;
    sp.long_rows = 0;
    const EigenCsr R = to_eigen(random_csr(sp, rng));
    EigenCsr M = EigenCsr(R.transpose()) * R;
    for (int i = 0; i < M.rows(); ++i) M.coeffRef(i, i) += 0.5;
    M.makeCompressed();
    const CsrMatrix Ah = from_host_csr(from_eigen(M), Space::host);
    const amg::CoarseSolver h = amg::factorise_coarse(Ah), d = amg::factorise_coarse(Ah.to(Space::device));
    CHECK_FALSE(d.pseudo_inverse);
    CHECK(d.inverse.nnz() == static_cast<offset_t>(n) * n);
    check_equal(to_host_csr(d.inverse), to_host_csr(h.inverse), 1e-10);
    // A A^-1 = I on the device.
    const Eigen::MatrixXd I = Eigen::MatrixXd(M) * Eigen::MatrixXd(to_eigen(d.inverse));
    CHECK((I - Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff() < 1e-9);
    // The launched block steps (the fallback of the cooperative kernel): the same values.
    CsrMatrix launched;
    REQUIRE(amg::cuda::cholesky_inverse(Ah.to(Space::device), launched, /*cooperative=*/false).positive_definite);
    check_equal(to_host_csr(launched), to_host_csr(d.inverse), 1e-14);
  }
  // A singular Laplacian (1D, Neumann ends): not positive definite. Without a
  // near-nullspace the host eigen-decomposition gives the pseudo-inverse on
  // both backends; with the constants the device inverts the matrix shifted
  // along them (cooperative and launched steps), equal to the eigen one.
  HostCsr l{40, 40, {0}, {}, {}};
  for (index_t i = 0; i < 40; ++i) {
    if (i > 0) l.col.push_back(i - 1), l.val.push_back(-1.0);
    l.col.push_back(i), l.val.push_back(i == 0 || i == 39 ? 1.0 : 2.0);
    if (i < 39) l.col.push_back(i + 1), l.val.push_back(-1.0);
    l.row_ptr.push_back(static_cast<offset_t>(l.col.size()));
  }
  const CsrMatrix Lh = from_host_csr(l, Space::host);
  const amg::CoarseSolver lh = amg::factorise_coarse(Lh), ld = amg::factorise_coarse(Lh.to(Space::device));
  CHECK(lh.pseudo_inverse);
  CHECK(ld.pseudo_inverse);
  CHECK(ld.null_space_columns == 0);
  check_equal(to_host_csr(ld.inverse), to_host_csr(lh.inverse), 1e-12);
  const Vector one = ones(40, Space::device);
  const amg::CoarseSolver shifted = amg::factorise_coarse(Lh.to(Space::device), "dense_cholesky", &one, 1);
  CHECK(shifted.pseudo_inverse);
  CHECK(shifted.null_space_columns == 1);
  CHECK(shifted.inverse.space() == Space::device);
  check_equal(to_host_csr(shifted.inverse), to_host_csr(lh.inverse), 1e-9);
}

TEST_CASE("GPU dense_cholesky of semi-definite matrices: the shifted device inverse equals the host pseudo-inverse") {
  const std::uint64_t seed = fresh_seed();
  // Neumann Poisson matrices with a random coefficient (sizes around the
  // 32-pivot blocks and the auto coarse size; smaller under the sanitizers,
  // whose leak check counts the pinned staging ring of copies over 4 MB), the
  // constants as near-nullspace.
  for (auto [s, N] : {std::pair{Stencil::fd2d_5pt, sized(23, 14)}, std::pair{Stencil::fe2d_9pt, sized(28, 15)},
                      std::pair{Stencil::fd3d_7pt, sized(9, 6)}, std::pair{Stencil::fe3d_27pt, sized(8, 5)}}) {
    CAPTURE(stencil_name(s));
    CoefficientField kappa;
    kappa.kind = CoefficientField::Kind::random;
    kappa.contrast = 100;
    kappa.blocks = 3;
    kappa.seed = seed;
    const CsrMatrix Ah = poisson(make_stencil_spec(s, {}, kappa, /*neumann=*/true), N, Space::host);
    const CsrMatrix Ad = Ah.to(Space::device);
    const Vector oh = ones(Ah.rows(), Space::host), od = ones(Ah.rows(), Space::device);
    const amg::CoarseSolver h = amg::factorise_coarse(Ah, "dense_cholesky", &oh, 1);
    const amg::CoarseSolver d = amg::factorise_coarse(Ad, "dense_cholesky", &od, 1);
    const amg::CoarseSolver eigen = amg::factorise_coarse(Ah);
    CHECK(d.pseudo_inverse);
    CHECK(d.null_space_columns == 1);
    CHECK(h.null_space_columns == 1);
    check_equal(to_host_csr(d.inverse), to_host_csr(h.inverse), 1e-9);
    check_equal(to_host_csr(d.inverse), to_host_csr(eigen.inverse), 1e-8);
    // The launched block steps with the shift: the same values.
    CsrMatrix launched;
    const amg::CoarseNullSpace ns = amg::null_space_in(to_host_csr(Ah), oh.to_vector(), 1);
    REQUIRE(ns.columns() == 1);
    const Array<double> Z = Array<double>::from_vector(std::vector<double>(ns.Z.data(), ns.Z.data() + ns.Z.size()),
                                                       Space::device);
    const amg::cuda::DeviceInverse r =
        amg::cuda::cholesky_inverse(Ad, launched, /*cooperative=*/false, {Z.data(), 1, ns.alpha});
    REQUIRE(r.positive_definite);
    check_equal(to_host_csr(launched), to_host_csr(d.inverse), 1e-12);
    // New values with the same null space: the last factorisation's direction
    // reused (one shifted inverse), equal to the host's pseudo-inverse; a
    // nonsingular matrix of the same pattern (Dirichlet) gets its plain inverse.
    const CsrMatrix A2h = poisson(make_stencil_spec(s, {}, {}, /*neumann=*/true), N, Space::host);
    const amg::CoarseSolver again = amg::factorise_coarse(A2h.to(Space::device), "dense_cholesky", &od, 1, &d);
    CHECK(again.reused_null_space);
    CHECK(again.null_space_columns == 1);
    check_equal(to_host_csr(again.inverse), to_host_csr(amg::factorise_coarse(A2h).inverse), 1e-8);
    const CsrMatrix Dh = poisson(s, N, Space::host);
    const amg::CoarseSolver plain_again = amg::factorise_coarse(Dh.to(Space::device), "dense_cholesky", &od, 1, &d);
    CHECK_FALSE(plain_again.reused_null_space);
    CHECK_FALSE(plain_again.pseudo_inverse);
    check_equal(to_host_csr(plain_again.inverse), to_host_csr(amg::factorise_coarse(Dh).inverse), 1e-10);
    // Without the shift the pivots say the matrix is singular: one fails, or
    // the smallest is rounding.
    CsrMatrix plain;
    const amg::cuda::DeviceInverse p = amg::cuda::cholesky_inverse(Ad, plain);
    CHECK((!p.positive_definite || p.min_pivot_ratio < amg::kSuspectPivot));
  }
}

TEST_CASE("GPU pure Neumann Poisson: the device setup shifts the coarsest null space and matches the host") {
  for (const char* stencil : {"2d5", "3d7"}) {
    const std::string stencil_label = stencil;
    CAPTURE(stencil_label);
    RunConfig c;
    c.problem.type = Component("poisson", Options()
                                              .set("stencil", stencil)
                                              .set("N", std::string(stencil) == "2d5" ? 256 : 40)
                                              .set("boundary", "neumann"));
    c.amg.coarse_size = 500;  // the host's auto size (backend comparison)
    const RunResult d = run_solve(c, Executor::cuda()), h = run_solve(c, Executor::host());
    CHECK(d.solve.converged);
    CHECK(d.hierarchy.coarse_pseudo_inverse);
    CHECK(d.hierarchy.coarse_null_space_columns == 1);
    CHECK(d.hierarchy.levels.size() == h.hierarchy.levels.size());
    CHECK(d.solve.iterations == h.solve.iterations);
    REQUIRE(d.error.has_value());
    CHECK(*d.error < 1e-6);
    c.amg.coarse_size = 0;  // auto: 800 on the device
    const RunResult a = run_solve(c, Executor::cuda());
    CHECK(a.solve.converged);
    CHECK(a.hierarchy.coarse_null_space_columns == 1);
    MESSAGE(stencil_label << ": device coarse factorisation "
                    << d.hierarchy.phase_seconds.at("coarse_factorisation") * 1e3 << " ms (coarse size 500), "
                    << a.hierarchy.phase_seconds.at("coarse_factorisation") * 1e3 << " ms (auto), "
                    << d.solve.iterations << " iterations");
  }
}

TEST_CASE("GPU determinism: the same config twice gives bitwise the same hierarchy and residuals") {
  check_deterministic(determinism_configs(), Executor::cuda());
}

TEST_CASE("GPU elasticity with rigid-body modes: assembly, block hierarchy and PCG equal the host") {
  const std::uint64_t seed = fresh_seed();
  for (const char* mesh : {"bar", "plate"}) {
    CAPTURE(mesh);
    RunConfig c;
    c.problem.type = Component("elasticity", Options().set("mesh", mesh).set("cells", mesh == std::string("bar") ? 5 : 16));
    c.problem.seed = seed;
    c.amg.nullspace = Component("rigid_body");
    c.amg.coarse_size = 60;
    const Problem ph = build_problem(c.problem, Space::host), pd = build_problem(c.problem, Space::device);
    check_equal(to_host_csr(pd.A), to_host_csr(ph.A), 1e-12);
    CHECK(pd.coordinates == ph.coordinates);
    const Hierarchy hh(ph.A.clone(), c.amg, problem_nullspace(ph, c, Space::host));
    const Hierarchy hd(pd.A.clone(), c.amg, problem_nullspace(pd, c, Space::device));
    REQUIRE(hd.levels().size() == hh.levels().size());
    REQUIRE(hh.levels().size() >= 3);
    for (std::size_t l = 0; l + 1 < hh.levels().size(); ++l) {
      CAPTURE(l);
      CHECK(hd.stats().levels[l].nodes == hh.stats().levels[l].nodes);
      CHECK(hd.stats().levels[l].dropped_columns == hh.stats().levels[l].dropped_columns);
      CHECK(hd.levels()[l].aggregates.to_vector() == hh.levels()[l].aggregates.to_vector());
      check_equal(to_host_csr(hd.levels()[l].P), to_host_csr(hh.levels()[l].P), 1e-10);
    }
    const RunResult rh = run_solve(c, Executor::host()), rd = run_solve(c, Executor::cuda());
    CHECK(rd.solve.converged);
    CHECK(std::abs(rd.solve.iterations - rh.solve.iterations) <= 1);
    MESSAGE(mesh << ": " << rh.rows << " unknowns, PCG " << rh.solve.iterations << " (host) / " << rd.solve.iterations
                 << " (GPU) iterations with rigid-body modes");
  }
}

TEST_CASE("GPU setup given half the device memory it needs fails cleanly: names the phase, leaks nothing") {
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, 80, Space::device);
  const double matrix_bytes = 12.0 * A.nnz() + 4.0 * (A.rows() + 1);
  const AmgParams p;
  device::release_cached_memory();
  device::reset_peak_memory();
  const std::size_t before = device::pool_usage().current;
  std::size_t estimate = 0, phase_peak = 0;
  {
    CsrMatrix B = A.clone();
    const Hierarchy h(std::move(B), p);
    estimate = h.stats().estimated_bytes;
    // The per-phase peaks: every phase of every level that ran has one, the
    // largest is where the setup peaked, and marking them did not lose the
    // overall peak.
    const HierarchyStats& st = h.stats();
    REQUIRE(st.peak_level >= 0);
    phase_peak = st.peak_bytes;
    CHECK(st.levels[st.peak_level].peak_bytes.at(st.peak_phase) == st.peak_bytes);
    for (std::size_t l = 0; l + 1 < st.levels.size(); ++l)
      for (const char* phase : {"strength", "aggregation", "tentative", "spectral_radius", "AT", "AP", "PtAP"}) {
        CAPTURE(l);
        CAPTURE(phase);
        REQUIRE(st.levels[l].peak_bytes.count(phase) == 1);
        CHECK(st.levels[l].peak_bytes.at(phase) >= before + A.nnz() * 12);  // the matrix is in use throughout
        CHECK(st.levels[l].peak_bytes.at(phase) <= st.peak_bytes);
      }
    MESSAGE("setup of 3D 7-pt N=80 peaks in level " << st.peak_level << ", phase " << st.peak_phase << ": "
                                                    << st.peak_bytes / 1048576.0 << " MiB");
  }
  const std::size_t peak = device::pool_usage().peak - before;  // the copy of A included
  CHECK(device::pool_usage().peak == phase_peak);  // the phases cover every allocation of the setup
  MESSAGE("setup of 3D 7-pt N=80: peak " << peak / 1048576.0 << " MiB = " << (peak - matrix_bytes) / matrix_bytes
                                         << " x bytes(A) beyond A; estimate " << estimate / 1048576.0 << " MiB");
  CHECK(static_cast<double>(estimate) >= static_cast<double>(peak) - matrix_bytes);  // the model bounds the peak
  CHECK(static_cast<double>(estimate) <= 3.0 * peak);                                // and is not absurd
  CHECK(device::pool_usage().current == before);

  // Hold all but half of what the setup needs.
  device::release_cached_memory();
  std::vector<Array<char>> filler;
  for (std::size_t block : {std::size_t(256) << 20, std::size_t(16) << 20, std::size_t(1) << 20})
    while (device::available_memory() > peak / 2 + block) filler.emplace_back(block, Space::device, "test filler");
  MESSAGE("available for the setup: " << device::available_memory() / 1048576.0 << " MiB of the " << peak / 1048576.0
                                      << " MiB it needs");
  const std::size_t held = device::pool_usage().current;
  bool completed = false;
  std::string message;
  try {
    CsrMatrix B = A.clone();
    const Hierarchy h(std::move(B), p);
    completed = true;
  } catch (const DeviceError& e) {
    message = e.what();
  }
  MESSAGE("half memory: " << (completed ? "completed" : message));
  if (!completed) {
    CHECK(message.find("AMG setup, level ") != std::string::npos);
    CHECK(message.find("phase '") != std::string::npos);
    CHECK(message.find("GiB requested") != std::string::npos);
    CHECK(message.find("free of") != std::string::npos);
  }
  CHECK(device::pool_usage().current == held);  // every allocation of the failed setup was released
  filler.clear();
  device::release_cached_memory();
  // The device works afterwards, and `saga solve` reports its peak.
  RunConfig c;
  c.problem.type = Component("poisson", Options().set("N", sized(40, 12)));
  const RunResult r = run_solve(c, Executor::cuda());
  CHECK(r.solve.converged);
  CHECK(r.setup_peak_bytes > 0);
  CHECK(r.peak_bytes >= r.setup_peak_bytes);
  CHECK(format_summary(r).find("peak device memory") != std::string::npos);
}

TEST_CASE("GPU setup memory estimate bounds the measured peak on 2D, 27-pt and block problems") {
  struct Case {
    std::string name;
    RunConfig c;
  };
  std::vector<Case> cases;
  for (const auto& [stencil, N] : {std::pair{"2d5", sized(400, 64)}, std::pair{"2d9", sized(400, 64)},
                                   std::pair{"3d7", sized(48, 16)}, std::pair{"3d27", sized(40, 14)}}) {
    Case k{fmt::format("{} N={}", stencil, N), {}};
    k.c.problem.type = Component("poisson", Options().set("stencil", stencil).set("N", N));
    cases.push_back(k);
  }
  Case e{"elasticity bar, rigid-body modes", {}};
  e.c.problem.type = Component("elasticity", Options().set("mesh", "bar").set("cells", sized(12, 5)));
  e.c.amg.nullspace = Component("rigid_body");
  cases.push_back(e);
  for (const Case& k : cases) {
    CAPTURE(k.name);
    const Problem pd = build_problem(k.c.problem, Space::device);
    const double matrix_bytes = 12.0 * pd.A.nnz() + 4.0 * (pd.A.rows() + 1);
    NearNullspace ns = problem_nullspace(pd, k.c, Space::device);
    device::release_cached_memory();
    device::reset_peak_memory();
    const std::size_t before = device::pool_usage().current;
    std::size_t estimate = 0;
    double workspace = 0;
    {
      const Hierarchy h(pd.A.clone(), k.c.amg, std::move(ns));
      estimate = h.stats().estimated_bytes;
      workspace = static_cast<double>(h.stats().largest_spgemm_workspace());
    }
    const double beyond = static_cast<double>(device::pool_usage().peak - before) - matrix_bytes;
    // The global ESC's slice of rows too long for a CTA is outside the model:
    // its budget follows the free memory (a quarter of it at most).
    const double need = std::max(0.0, beyond - workspace);
    MESSAGE(k.name << ": " << pd.A.rows() << " rows, peak " << beyond / matrix_bytes << " x bytes(A) beyond A ("
                   << beyond / pd.A.rows() << " B/row), largest SpGEMM workspace " << workspace / 1048576.0
                   << " MiB, estimate " << estimate / matrix_bytes << " x");
    CHECK(static_cast<double>(estimate) >= need);            // the model bounds the need
    CHECK(static_cast<double>(estimate) <= 3.0 * need + 8e6);  // and is not absurd (8 MB: twice the fixed part)
  }
}

TEST_CASE("GPU resetup equals the host resetup (refreshed and kept prolongator), and PCG converges after it") {
  const std::uint64_t seed = fresh_seed();
  for (Stencil s : {Stencil::fd3d_7pt, Stencil::fe2d_9pt}) {
    CAPTURE(stencil_name(s));
    const CsrMatrix A1 = poisson(s, stencil_dim(s) == 2 ? sized(200, 48) : sized(30, 12), Space::host);
    HostCsr sym = to_host_csr(A1);  // new values, symmetric in (i, j), diagonally dominant
    for (index_t i = 0; i < sym.rows; ++i)
      for (offset_t k = sym.row_ptr[i]; k < sym.row_ptr[i + 1]; ++k)
        sym.val[k] *= 1.0 + 0.5 * std::sin(0.1 * (i + sym.col[k]));  // symmetric in (i, j), positive
    for (index_t i = 0; i < sym.rows; ++i)  // diagonally dominant again
      for (offset_t k = sym.row_ptr[i]; k < sym.row_ptr[i + 1]; ++k)
        if (sym.col[k] == i) sym.val[k] *= 1.6;
    const CsrMatrix A2 = from_host_csr(sym, Space::host);
    for (bool refresh : {true, false}) {
      CAPTURE(refresh);
      ResetupOptions o;
      o.refresh_prolongator = refresh;
      AmgParams same;  // the same coarse size on both backends (its default differs: coarse_size_for)
      same.coarse_size = 500;
      Hierarchy hh(A1.clone(), same), hd(A1.to(Space::device), same);
      REQUIRE(hh.levels().size() == hd.levels().size());
      hh.resetup(A2.clone(), o);
      const ResetupStats rs = hd.resetup(A2.to(Space::device), o);
      CHECK(rs.prolongator_refreshed == refresh);
      for (std::size_t l = 0; l < hh.levels().size(); ++l) {
        CAPTURE(l);
        check_equal(to_host_csr(hd.levels()[l].A), to_host_csr(hh.levels()[l].A), 1e-10);
      }
      if (!refresh) {  // again: A P's values into the structure the first resetup kept
        hh.resetup(A1.clone(), o);
        hd.resetup(A1.to(Space::device), o);
        const Hierarchy fresh(A1.to(Space::device), same);  // P kept = the P of A1's own setup
        for (std::size_t l = 0; l < hh.levels().size(); ++l) {
          CAPTURE(l);
          if (l + 1 < hh.levels().size()) CHECK(hd.levels()[l].AP.nnz() > 0);
          check_equal(to_host_csr(hd.levels()[l].A), to_host_csr(hh.levels()[l].A), 1e-10);
          check_equal(to_host_csr(hd.levels()[l].A), to_host_csr(fresh.levels()[l].A), 1e-10);
        }
      }
    }
    Solver solver(A1.to(Space::device), AmgParams{}, SolverParams{}, Executor::cuda());
    solver.resetup(A2.to(Space::device));
    const Vector b = random_vector(A1.rows(), seed, Space::device);
    Vector x = Vector::zeros(A1.rows(), Space::device);
    CHECK(solver.solve(b, x).converged);
  }
}

TEST_CASE("GPU reports name the memory peak of every setup phase and validate against their schemas") {
  const RunConfig c = parse_config("problem: {type: poisson, stencil: 3d7, N: 40}", "c.yaml");
  const RunResult r = run_solve(c, Executor::cuda());
  const nlohmann::json j = to_json(r);
  const auto errors = SchemaValidator(load_json(SAGA_SOURCE_DIR "/docs/report.schema.json")).validate(j);
  for (const auto& e : errors) MESSAGE(e);
  CHECK(errors.empty());
  REQUIRE(j["device_memory"].contains("setup_phase_peaks"));
  std::size_t top = 0;
  for (const auto& x : j["device_memory"]["setup_phase_peaks"]) top = std::max(top, x["bytes"].get<std::size_t>());
  CHECK(top <= r.setup_peak_bytes);  // the setup's peak, unless building the problem peaked higher
  CHECK(top >= r.setup_peak_bytes * 8 / 10);
  CHECK(format_summary(r).find("setup peak in level 0") != std::string::npos);
  CHECK(j["device_memory"]["spmv_copy_bytes"].get<std::size_t>() == r.spmv_copy_bytes);
  // Every product of this problem fits 32-bit offsets: the binned SpGEMM reads them so in either build.
  for (const auto& level : j["hierarchy"]["levels"])
    if (level.contains("spgemm"))
      for (const auto& [name, rec] : level["spgemm"].items()) {
        CAPTURE(name);
        CHECK(rec["offset_bits"].get<int>() == 32);
      }
  {  // A fine level past the diagonal copy's 20 warps of rows an SM: its copy (7 floats a row) is reported.
    const index_t N =
        cube_side_for(std::int64_t{32} * SpmvDiagonals::min_warps_per_sm * device::info().multiprocessors, 40);
    const RunResult big =
        run_solve(parse_config(fmt::format("problem: {{type: poisson, stencil: 3d7, N: {}}}", N), "c.yaml"),
                  Executor::cuda());
    CAPTURE(N);
    CHECK(big.spmv_copy_bytes >= static_cast<std::size_t>(big.rows) * 7 * 4);
    CHECK(big.spmv_copy_operators >= 1);
    CHECK(big.peak_bytes == big.setup_peak_bytes);  // the copies and the solve stayed under the setup's peak
    CHECK(format_summary(big).find("SpMV copies") != std::string::npos);
  }

  const SetupProfile p = profile_setup(c, Executor::cuda(), 2);
  const auto perrors = SchemaValidator(load_json(SAGA_SOURCE_DIR "/docs/profile.schema.json")).validate(to_json(p));
  for (const auto& e : perrors) MESSAGE(e);
  CHECK(perrors.empty());
  CHECK(to_json(p)["per_level"][0].contains("peak_bytes"));
  CHECK(format_profile(p).find("device memory at its peak") != std::string::npos);
}

TEST_CASE("GPU Galerkin product that runs out of memory is computed again in more blocks, with the same result") {
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, sized(80, 40), Space::device);
  AmgParams p;
  p.galerkin_slices = 0;  // left to the setup: the only case it retries
  device::release_cached_memory();
  device::reset_peak_memory();
  const std::size_t before = device::pool_usage().current;
  CsrMatrix whole_next;
  std::size_t product_peak = 0, other_peak = 0;
  {
    const Hierarchy h(A.clone(), p);
    const HierarchyStats& st = h.stats();
    REQUIRE(st.levels[0].galerkin_slices == 1);
    whole_next = h.levels()[1].A.clone();
    for (std::size_t l = 0; l < st.levels.size(); ++l)
      for (const auto& [phase, bytes] : st.levels[l].peak_bytes) {
        std::size_t& peak = l == 0 && (phase == "AP" || phase == "PtAP") ? product_peak : other_peak;
        peak = std::max(peak, bytes);
      }
  }
  // The same setup in 2 blocks: its peak, wherever it is.
  device::release_cached_memory();
  device::reset_peak_memory();
  std::size_t blocked_peak = 0;
  {
    AmgParams p2 = p;
    p2.galerkin_slices = 2;
    const Hierarchy h2(A.clone(), p2);
    blocked_peak = h2.stats().peak_bytes;
  }
  MESSAGE("level-0 product peaks at " << (product_peak - before) / 1048576.0 << " MiB, every other phase at "
                                      << (other_peak - before) / 1048576.0 << " MiB; in 2 blocks the setup peaks at "
                                      << (blocked_peak - before) / 1048576.0 << " MiB");
  REQUIRE(other_peak < product_peak);
  REQUIRE(blocked_peak < product_peak);
  // Room for the setup in 2 blocks, not for the whole product.
  const std::size_t room = (blocked_peak + product_peak) / 2 - before;
  device::release_cached_memory();
  std::vector<Array<char>> filler;
  for (std::size_t block : {std::size_t(256) << 20, std::size_t(16) << 20, std::size_t(1) << 20})
    while (device::available_memory() > room + block) filler.emplace_back(block, Space::device, "test filler");
  const Hierarchy h(A.clone(), p);
  const LevelStats& L0 = h.stats().levels[0];
  MESSAGE("with " << device::available_memory() / 1048576.0 << " MiB left: " << L0.galerkin_slices << " blocks after "
                  << L0.galerkin_retries << " retries");
  // 2 blocks fit where the whole product did not; where the pool is fragmented
  // by earlier tests, it may take a doubling more.
  CHECK(L0.galerkin_retries >= 1);
  CHECK(L0.galerkin_slices == (1 << L0.galerkin_retries));
  check_equal(to_host_csr(h.levels()[1].A), to_host_csr(whole_next), 1e-13);
  filler.clear();
  device::release_cached_memory();
}

TEST_CASE("GPU setup in blocks stays within the blocked memory model for each hierarchy precision") {
  // estimate_blocked_setup_bytes: the least a setup with the Galerkin product
  // in blocks needs beyond A, by hierarchy precision and prolongator; the setup
  // warns only when even that does not fit.
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, sized(96, 40), Space::device);
  const double matrix_bytes = static_cast<double>(A.bytes());
  for (int variant = 0; variant < 3; ++variant) {
    AmgParams p;
    p.galerkin_slices = 8;
    if (variant > 0) p.hierarchy_precision = "float";
    if (variant > 1) p.implicit_prolongator = true;
    CAPTURE(variant);
    device::release_cached_memory();
    device::reset_peak_memory();
    const std::size_t before = device::pool_usage().current;
    { const Hierarchy h(A.clone(), p); }
    const double beyond = static_cast<double>(device::pool_usage().peak - before) - matrix_bytes;
    const double blocked = static_cast<double>(estimate_blocked_setup_bytes(A.rows(), 1, p));
    MESSAGE("variant " << variant << ": peak " << beyond / A.rows() << " B/row beyond A, blocked model "
                       << blocked / A.rows() << " B/row");
    CHECK(beyond <= blocked);
    CHECK(blocked <= static_cast<double>(estimate_setup_bytes(A.rows(), A.nnz(), 1)));
  }
}

TEST_CASE("GPU fit_memory: with the device memory held down the setup stores the hierarchy in float, then P implicitly") {
  // 4M rows: the margins between the models and the measured peaks (20-40 B a
  // row) must dwarf the memory pool's granularity (at 0.5M rows they were 10-20
  // MB, and after the rest of the suite a fragmented pool ran out).
  const CsrMatrix A = poisson(Stencil::fd3d_7pt, sized(160, 40), Space::device);
  AmgParams d;
  AmgParams f = d;
  f.hierarchy_precision = "float";
  const double rows = A.rows();
  const double need_d = static_cast<double>(estimate_blocked_setup_bytes(A.rows(), 1, d));
  const double need_f = static_cast<double>(estimate_blocked_setup_bytes(A.rows(), 1, f));
  // Leave available memory (beyond A) between the float and the double estimate, then just below the float one.
  for (const double target : {(need_d + need_f) / 2, need_f - 5.0 * rows}) {
    CAPTURE(target / rows);
    CsrMatrix B = A.clone();  // the setup's matrix, made before the memory is held down
    device::release_cached_memory();
    std::vector<Array<char>> filler;
    for (std::size_t block : {std::size_t(256) << 20, std::size_t(16) << 20, std::size_t(1) << 20})
      while (static_cast<double>(device::available_memory()) > target + block)
        filler.emplace_back(block, Space::device, "test filler");
    MESSAGE("available " << device::available_memory() / rows << " B per row; estimates double " << need_d / rows
                         << ", float " << need_f / rows);
    AmgParams p;
    p.galerkin_slices = 8;  // the models are of the product in blocks
    const bool want_implicit = target < need_f;
    {
      const Hierarchy h(std::move(B), p);
      MESSAGE(h.stats().memory_fit);
      CHECK(h.stats().memory_fit.find("float") != std::string::npos);
      CHECK(h.stats().levels.front().single_precision);
      CHECK(h.stats().levels.front().implicit_prolongator == want_implicit);
      CHECK(h.params().hierarchy_precision == "float");
    }
    filler.clear();
    device::release_cached_memory();
  }
  // With room, or with fit_memory off, nothing is changed.
  const Hierarchy roomy(A.clone(), AmgParams());
  CHECK(roomy.stats().memory_fit.empty());
  CHECK_FALSE(roomy.stats().levels.front().single_precision);
}

TEST_CASE("GPU dense_cholesky of a floating elastic body: six rigid motions shifted on the device") {
  const std::uint64_t seed = fresh_seed();
  const ElasticSystem free = floating_box(4, 2, 2.0, seed);
  const NearNullspace rb = rigid_body_modes(free.coordinates, 3, Space::device);
  const amg::CoarseSolver d = amg::factorise_coarse(free.A.to(Space::device), "dense_cholesky", &rb.B, rb.columns);
  const amg::CoarseSolver eigen = amg::factorise_coarse(free.A);
  CHECK(d.pseudo_inverse);
  CHECK(d.null_space_columns == 6);
  CHECK(d.inverse.space() == Space::device);
  check_equal(to_host_csr(d.inverse), to_host_csr(eigen.inverse), 1e-8);
}
