// AMG setup stages against their defining properties, and the solver end to end.
#include <algorithm>
#include <numeric>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include "amg/aggregation.hpp"
#include "amg/lexicographic_mis2.hpp"
#include "amg/mis2.hpp"
#include "amg/spectral_radius.hpp"
#include "amg/strength.hpp"
#include "amg/tentative.hpp"
#include "app/run.hpp"
#include "core/device.hpp"
#include "api/saga.hpp"
#include "problems/rhs.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/transpose.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/determinism.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// Random symmetric graph with isolated nodes, as a CSR with a diagonal.
CsrMatrix random_graph(index_t n, double p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<std::set<index_t>> adj(n);
  for (index_t i = 0; i < n; ++i) {
    adj[i].insert(i);
    if (i % 17 == 0) continue;  // isolated
    for (index_t j = i + 1; j < n; ++j)
      if (j % 17 != 0 && U(rng) < p) {
        adj[i].insert(j);
        adj[j].insert(i);
      }
  }
  return graph_from_adjacency(adj, rng);
}

std::vector<std::set<index_t>> neighbours(const CsrMatrix& S) {
  const HostCsr h = to_host_csr(S);
  std::vector<std::set<index_t>> nb(h.rows);
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k)
      if (h.col[k] != i) nb[i].insert(h.col[k]);
  return nb;
}

void check_mis2(const CsrMatrix& S, const std::vector<std::int32_t>& in) {
  const auto nb = neighbours(S);
  const index_t n = S.rows();
  std::vector<int> dist(n);
  for (index_t i = 0; i < n; ++i) {
    // Distance-2 ball of i.
    std::set<index_t> ball(nb[i].begin(), nb[i].end());
    for (index_t j : nb[i]) ball.insert(nb[j].begin(), nb[j].end());
    ball.erase(i);
    bool member_near = false;
    for (index_t j : ball) member_near |= in[j] == 1;
    if (in[i]) {
      REQUIRE_FALSE(member_near);  // independence at distance 2
    } else {
      REQUIRE(member_near);  // maximality
    }
  }
}
}  // namespace

TEST_CASE("strength of connection keeps the diagonal and strong entries (hand case)") {
  // Row 0: |a01| = 1 >= 0.25*sqrt(4*4) = 1 (kept), |a02| = 0.1 (dropped).
  HostCsr h{3, 3, {0, 3, 5, 7}, {0, 1, 2, 0, 1, 0, 2}, {4, -1, -0.1, -1, 4, -0.1, 4}};
  const CsrMatrix A = from_host_csr(h, Space::host);
  const Vector d = diagonal(A, true);
  const HostCsr s = to_host_csr(amg::symmetric_strength(A, d, 0.25));
  CHECK(s.row_ptr == std::vector<offset_t>{0, 2, 4, 5});
  CHECK(s.col == std::vector<index_t>{0, 1, 0, 1, 2});
  CHECK(to_host_csr(amg::symmetric_strength(A, d, 0.0)).col.size() == 7);
  CHECK_THROWS_AS(amg::symmetric_strength(A, d, 1.5), InputError);
  // The measure's theta = 0 shortcut (A itself) is exactly the filter's result.
  const auto measure = amg::strength_measures().create(Component("symmetric"), Space::host);
  const HostCsr fast = to_host_csr(measure->strong(A, 0.0)), filtered = to_host_csr(amg::symmetric_strength(A, d, 0.0));
  CHECK(fast.row_ptr == filtered.row_ptr);
  CHECK(fast.col == filtered.col);
  CHECK(fast.val == filtered.val);
  // Every entry strong: S is a view of A's arrays (no copy); one entry weak: S has arrays of its own.
  for (double theta : {0.0, 0.25}) {
    CAPTURE(theta);
    const CsrMatrix S = amg::symmetric_strength(A, d, theta), M = measure->strong(A, theta);
    CHECK((S.col().data() == A.col().data()) == (theta == 0.0));
    CHECK((M.col().data() == A.col().data()) == (theta == 0.0));
  }
  const CsrMatrix P = poisson(Stencil::fd3d_7pt, 6, Space::host);  // all strong at the default theta
  const CsrMatrix SP = amg::symmetric_strength(P, diagonal(P, true), 0.08);
  CHECK(SP.val().data() == P.val().data());
  CHECK(SP.row_ptr().data() == P.row_ptr().data());
  CHECK(SP.nnz() == P.nnz());
}

TEST_CASE("MIS-2 is independent at distance 2 and maximal, deterministically") {
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 3; ++t) {
    const CsrMatrix G = random_graph(300 + 100 * t, 0.01, rng);
    const auto r1 = amg::mis2(G, 7);
    check_mis2(G, r1.in_set.to_vector());
    CHECK(amg::mis2(G, 7).in_set.to_vector() == r1.in_set.to_vector());
    CHECK(amg::mis2(G, 8).in_set.to_vector() != r1.in_set.to_vector());
  }
  const CsrMatrix P = poisson(Stencil::fd2d_5pt, 30, Space::host);
  check_mis2(P, amg::mis2(P, 0).in_set.to_vector());
}

// PyAMG's standard aggregation, pass 1, written from its definition: in node
// order, a node whose closed neighbourhood is unaggregated founds an aggregate.
std::vector<std::int32_t> greedy_roots(const CsrMatrix& S) {
  const auto nb = neighbours(S);
  std::vector<std::int32_t> root(S.rows(), 0);
  std::vector<bool> taken(S.rows(), false);
  for (index_t i = 0; i < S.rows(); ++i) {
    bool free = !taken[i];
    for (index_t j : nb[i]) free = free && !taken[j];
    if (!free || nb[i].empty()) continue;  // no strong neighbour: left unaggregated
    root[i] = 1;
    taken[i] = true;
    for (index_t j : nb[i]) taken[j] = true;
  }
  return root;
}

TEST_CASE("lexicographic MIS-2 is greedy aggregation's root set: independent, maximal, first in node order") {
  std::mt19937_64 rng(fresh_seed());
  for (int t = 0; t < 3; ++t) {
    const CsrMatrix G = random_graph(300 + 150 * t, 0.012, rng);
    std::vector<std::int32_t> in = amg::lexicographic_mis2(G).to_vector();
    check_mis2(G, in);
    const auto nb = neighbours(G);
    for (index_t i = 0; i < G.rows(); ++i) in[i] = in[i] && !nb[i].empty();  // isolated: no aggregate
    CHECK(in == greedy_roots(G));
  }
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fe2d_9pt, Stencil::fd3d_7pt, Stencil::fe3d_27pt}) {
    const CsrMatrix P = poisson(s, stencil_dim(s) == 2 ? 23 : 7, Space::host);
    const std::vector<std::int32_t> in = amg::lexicographic_mis2(P).to_vector();
    check_mis2(P, in);
    CHECK(in == greedy_roots(P));
  }
}

TEST_CASE("every aggregation method: each node in one aggregate, aggregates connected, same result twice") {
  std::mt19937_64 rng(fresh_seed());
  const std::vector<CsrMatrix> graphs = [&] {
    std::vector<CsrMatrix> g;
    g.push_back(random_graph(600, 0.01, rng));
    g.push_back(poisson(Stencil::fd2d_5pt, 40, Space::host));
    g.push_back(poisson(Stencil::fe3d_27pt, 10, Space::host));
    return g;
  }();
  for (const std::string& name : amg::aggregation_methods().names()) {
    CAPTURE(name);
    const auto method = amg::aggregation_methods().create(Component(name), Space::host);
    for (const CsrMatrix& G : graphs) {
      const amg::Aggregates ag = method->aggregate(G, 11, {});
      const std::vector<index_t> a = ag.of_node.to_vector();
      CHECK(method->aggregate(G, 11, {}).of_node.to_vector() == a);
      REQUIRE(ag.count > 0);
      std::vector<std::vector<index_t>> members(ag.count);
      const auto nb = neighbours(G);
      index_t left_out = 0;
      for (index_t i = 0; i < G.rows(); ++i) {
        // Nodes without strong neighbours, and only they, stay unaggregated.
        REQUIRE((a[i] == -1) == nb[i].empty());
        if (a[i] < 0) {
          ++left_out;
          continue;
        }
        REQUIRE(a[i] < ag.count);
        members[a[i]].push_back(i);
      }
      CHECK(ag.unaggregated == left_out);
      // Connected: a search from the first member inside the aggregate reaches all.
      for (index_t k = 0; k < ag.count; ++k) {
        REQUIRE_FALSE(members[k].empty());
        std::set<index_t> seen{members[k][0]};
        std::vector<index_t> stack{members[k][0]};
        while (!stack.empty()) {
          const index_t i = stack.back();
          stack.pop_back();
          for (index_t j : nb[i])
            if (a[j] == k && seen.insert(j).second) stack.push_back(j);
        }
        CHECK(seen.size() == members[k].size());
      }
    }
  }
}

TEST_CASE("greedy aggregation: hand cases (a chain of 7, the 3x3 five-point grid)") {
  // Chain 0-1-...-6: roots 0, 3, 6; node 2 is next to root 3, node 5 to root 6.
  HostCsr c{7, 7, {0}, {}, {}};
  for (index_t i = 0; i < 7; ++i) {
    for (index_t j = std::max<index_t>(0, i - 1); j <= std::min<index_t>(6, i + 1); ++j) {
      c.col.push_back(j);
      c.val.push_back(i == j ? 2.0 : -1.0);
    }
    c.row_ptr.push_back(static_cast<offset_t>(c.col.size()));
  }
  const amg::Aggregates a = amg::aggregate_greedy(from_host_csr(c, Space::host));
  CHECK(a.count == 3);
  CHECK(a.of_node.to_vector() == std::vector<index_t>{0, 0, 1, 1, 1, 2, 2});
  // 3x3 grid, nodes numbered by rows: roots 0 and 5 (at distance 3); 1, 3 join
  // root 0 and 2, 4, 8 root 5 (pass 1); 6 joins 3's aggregate, 7 the one of 4
  // and 8 (pass 2).
  const amg::Aggregates g = amg::aggregate_greedy(poisson(Stencil::fd2d_5pt, 3, Space::host));
  CHECK(g.count == 2);
  CHECK(g.of_node.to_vector() == std::vector<index_t>{0, 0, 1, 0, 1, 1, 0, 1, 1});
}

TEST_CASE("aggregation covers every node exactly once; aggregates are connected to their root") {
  std::mt19937_64 rng(fresh_seed());
  for (const CsrMatrix& G : {random_graph(500, 0.008, rng), poisson(Stencil::fe3d_27pt, 9, Space::host)}) {
    const amg::Aggregates ag = amg::aggregate_mis2(G, 3);
    const std::vector<index_t> a = ag.of_node.to_vector();
    const std::vector<std::int32_t> roots = amg::mis2(G, 3).in_set.to_vector();
    const std::vector<std::int32_t> greedy = greedy_roots(G);
    CHECK(amg::aggregate_greedy(G).count == std::count(greedy.begin(), greedy.end(), 1));
    std::vector<int> size(ag.count, 0), root_count(ag.count, 0);
    const auto nb = neighbours(G);
    for (index_t i = 0; i < G.rows(); ++i) {
      if (nb[i].empty()) {  // isolated nodes (every 17th of the random graph, at least) stay unaggregated
        CHECK(a[i] == -1);
        continue;
      }
      REQUIRE(a[i] >= 0);
      REQUIRE(a[i] < ag.count);
      ++size[a[i]];
      root_count[a[i]] += roots[i];
    }
    for (index_t k = 0; k < ag.count; ++k) {
      CHECK(size[k] >= 1);
      CHECK(root_count[k] == 1);  // one root per aggregate
    }
  }
}

TEST_CASE("tentative prolongator: orthonormal columns and T Bc = B, for 1 and 3 near-nullspace columns") {
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 20, Space::host);
  const amg::Aggregates ag = amg::aggregate_mis2(A, 1);
  std::mt19937_64 rng(fresh_seed());
  for (int k : {1, 3}) {
    // Columns: constant, x, y (rigid-body-like) with a random perturbation.
    std::uniform_real_distribution<double> U(-0.01, 0.01);
    std::vector<double> B(A.rows() * k);
    for (index_t i = 0; i < A.rows(); ++i)
      for (int c = 0; c < k; ++c) B[i * k + c] = (c == 0 ? 1.0 : c == 1 ? i % 20 : i / 20) + U(rng);
    const amg::Tentative t = amg::tentative_prolongator(ag, Vector::from_vector(B, Space::host), k);
    t.T.validate();
    const EigenCsr T = to_eigen(t.T);
    CHECK(T.cols() == ag.count * k);
    const Eigen::MatrixXd TtT = Eigen::MatrixXd(T.transpose() * T);
    // Aggregates with fewer than k nodes get zero columns; all others are orthonormal.
    for (index_t c = 0; c < TtT.cols(); ++c)
      for (index_t r = 0; r < TtT.rows(); ++r) {
        const double want = r == c && TtT(c, c) > 0.5 ? 1.0 : 0.0;
        CHECK(std::abs(TtT(r, c) - want) < 1e-12);
      }
    const std::vector<double> bc = t.Bc.to_vector();
    Eigen::MatrixXd Bcm(ag.count * k, k), Bm(A.rows(), k);
    for (index_t r = 0; r < ag.count * k; ++r)
      for (int c = 0; c < k; ++c) Bcm(r, c) = bc[r * k + c];
    for (index_t r = 0; r < A.rows(); ++r)
      for (int c = 0; c < k; ++c) Bm(r, c) = B[r * k + c];
    CHECK((T * Bcm - Bm).cwiseAbs().maxCoeff() < 1e-12 * Bm.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("constant tentative prolongator: hand-computed weights, and the QR's T and Bc") {
  // Nodes 0, 1 in aggregate 0; 2, 4, 5 in aggregate 1; node 3 left out.
  amg::Aggregates ag;
  ag.of_node = Array<index_t>::from_vector({0, 0, 1, -1, 1, 1}, Space::host);
  ag.count = 2;
  ag.unaggregated = 1;
  const Array<index_t> w = Array<index_t>::from_vector({1, 2, 3, 4, 5, 6}, Space::host);
  const amg::Tentative t = amg::constant_tentative_prolongator(ag, w);
  t.T.validate();
  CHECK(t.T.row_ptr().to_vector() == std::vector<offset_t>{0, 1, 2, 3, 3, 4, 5});
  CHECK(t.T.col().to_vector() == std::vector<index_t>{0, 0, 1, 1, 1});
  const std::vector<double> want = {std::sqrt(1.0 / 3), std::sqrt(2.0 / 3), std::sqrt(3.0 / 14), std::sqrt(5.0 / 14),
                                    std::sqrt(6.0 / 14)};
  CHECK(max_rel_diff(t.T.val().to_vector(), want) < 1e-15);
  CHECK(t.coarse_weights.to_vector() == std::vector<index_t>{3, 14});
  CHECK(max_rel_diff(t.Bc.to_vector(), {std::sqrt(3.0), std::sqrt(14.0)}) < 1e-15);
  CHECK(t.dropped == 0);

  // Random aggregates (some nodes left out): without weights (the fine level)
  // T and Bc are the QR's of B = 1 bit for bit; with weights, those of
  // B = sqrt(w) to rounding (the QR sums rounded squares).
  std::mt19937_64 rng(fresh_seed());  // the seed is printed
  const index_t n = 5000, count = 700;
  std::vector<index_t> of(n), weights(n);
  std::uniform_int_distribution<index_t> pick(0, count - 1), weight(1, 40);
  for (index_t i = 0; i < n; ++i) of[i] = i < count ? i : (rng() % 23 == 0 ? -1 : pick(rng));
  std::shuffle(of.begin(), of.end(), rng);
  for (auto& x : weights) x = weight(rng);
  amg::Aggregates r;
  r.of_node = Array<index_t>::from_vector(of, Space::host);
  r.count = count;
  r.unaggregated = amg::count_unaggregated(r.of_node);
  REQUIRE(r.unaggregated > 0);
  const amg::Tentative fine = amg::constant_tentative_prolongator(r, Array<index_t>());
  const amg::Tentative qr = amg::tentative_prolongator(r, ones(n, Space::host), 1);
  check_equal(to_host_csr(fine.T), to_host_csr(qr.T), 0.0);
  CHECK(fine.Bc.to_vector() == qr.Bc.to_vector());
  std::vector<double> sq(n);
  for (index_t i = 0; i < n; ++i) sq[i] = std::sqrt(static_cast<double>(weights[i]));
  const amg::Tentative coarse =
      amg::constant_tentative_prolongator(r, Array<index_t>::from_vector(weights, Space::host));
  const amg::Tentative qr_w = amg::tentative_prolongator(r, Vector::from_vector(sq, Space::host), 1);
  check_equal(to_host_csr(coarse.T), to_host_csr(qr_w.T), 1e-15);
  CHECK(max_rel_diff(coarse.Bc.to_vector(), qr_w.Bc.to_vector()) < 1e-15);
  std::vector<index_t> sums(count, 0);
  for (index_t i = 0; i < n; ++i)
    if (of[i] >= 0) sums[of[i]] += weights[i];
  CHECK(coarse.coarse_weights.to_vector() == sums);
}

TEST_CASE("Galerkin coarse matrix is symmetric and equals dense P^T A P") {
  for (Stencil s : {Stencil::fd2d_5pt, Stencil::fd3d_7pt}) {
    const CsrMatrix A = poisson(s, s == Stencil::fd2d_5pt ? 24 : 9, Space::host);
    AmgParams p;
    p.coarse_size = 10;
    const Hierarchy h(A.clone(), p);
    REQUIRE(h.levels().size() >= 2);
    for (std::size_t l = 0; l + 1 < h.levels().size(); ++l) {
      const Eigen::MatrixXd Ad = Eigen::MatrixXd(to_eigen(h.levels()[l].A));
      const Eigen::MatrixXd Pd = Eigen::MatrixXd(to_eigen(h.levels()[l].P));
      const Eigen::MatrixXd Rd = Eigen::MatrixXd(to_eigen(h.levels()[l].R));
      const Eigen::MatrixXd Ac = Eigen::MatrixXd(to_eigen(h.levels()[l + 1].A));
      CHECK((Rd - Pd.transpose()).cwiseAbs().maxCoeff() == 0.0);
      CHECK((Ac - Ac.transpose()).cwiseAbs().maxCoeff() < 1e-12 * Ac.cwiseAbs().maxCoeff());
      CHECK((Ac - Pd.transpose() * Ad * Pd).cwiseAbs().maxCoeff() < 1e-12 * Ac.cwiseAbs().maxCoeff());
    }
    // Statistics are consistent with the levels.
    double rows = 0;
    for (const auto& L : h.stats().levels) rows += L.rows;
    CHECK(h.stats().grid_complexity == doctest::Approx(rows / A.rows()));
    CHECK(h.stats().spgemm_seconds() > 0);
    CHECK(h.stats().levels.back().rows <= p.coarse_size);
  }
}

namespace {
SolveResult solve_poisson(Stencil s, index_t N, const std::string& rhs = "random_solution") {
  RunConfig c;
  c.problem.type = Component("poisson", Options().set("stencil", stencil_name(s)).set("N", N));
  c.problem.rhs = rhs;
  return run_solve(c, Executor::host()).solve;
}
}  // namespace

TEST_CASE("PCG reaches 1e-8 on all four problems with flat iteration counts as N doubles") {
  struct C {
    Stencil s;
    index_t n1;
  };
  for (C c : {C{Stencil::fd2d_5pt, 128}, C{Stencil::fe2d_9pt, 128}, C{Stencil::fd3d_7pt, 20},
              C{Stencil::fe3d_27pt, 20}}) {
    CAPTURE(stencil_name(c.s));
    const SolveResult a = solve_poisson(c.s, c.n1), b = solve_poisson(c.s, 2 * c.n1);
    CHECK(a.converged);
    CHECK(b.converged);
    CHECK(b.relative_residual <= 1e-8);
    CHECK(b.iterations <= 1.2 * a.iterations + 0.5);
    CHECK(b.iterations <= 30);
    MESSAGE(stencil_name(c.s) << " iterations " << a.iterations << " -> " << b.iterations);
  }
}

TEST_CASE("the same config gives the same iterates twice (deterministic)") {
  const SolveResult a = solve_poisson(Stencil::fd3d_7pt, 24), b = solve_poisson(Stencil::fd3d_7pt, 24);
  CHECK(a.residual_history == b.residual_history);
  const SolveResult c = solve_poisson(Stencil::fd2d_5pt, 64, "ones");
  CHECK(c.converged);
}

TEST_CASE("stand-alone AMG, W-cycle and the solution error") {
  RunConfig c;
  c.problem.type = Component("poisson", Options().set("stencil", "2d5").set("N", 64));
  c.solver.type = "amg";
  c.solver.max_iterations = 200;
  const RunResult r = run_solve(c, Executor::host());
  CHECK(r.solve.converged);
  CHECK(r.solve.convergence_factor < 0.8);
  REQUIRE(r.error.has_value());
  CHECK(*r.error < 1e-6);
  c.amg.cycle = "W";
  c.solver.type = "pcg";
  const RunResult w = run_solve(c, Executor::host());
  CHECK(w.solve.converged);
}

TEST_CASE("non-convergence is reported, not hidden") {
  RunConfig c;
  c.problem.type = Component("poisson", Options().set("stencil", "2d5").set("N", 64));
  c.solver.max_iterations = 2;
  const RunResult r = run_solve(c, Executor::host());
  CHECK_FALSE(r.solve.converged);
  CHECK(r.solve.iterations == 2);
  CHECK(r.solve.message.find("did NOT converge") != std::string::npos);
  CHECK(r.solve.residual_history.size() == 3);
}

TEST_CASE("bad matrices are clear errors") {
  HostCsr zero_diag{2, 2, {0, 1, 2}, {0, 1}, {1.0, 0.0}};
  CHECK_THROWS_WITH_AS(AmgPreconditioner(from_host_csr(zero_diag, Space::host)),
                       doctest::Contains("diagonal entry of row 1 is 0"), InputError);
  HostCsr neg{2, 2, {0, 1, 2}, {0, 1}, {1.0, -2.0}};
  CHECK_THROWS_WITH_AS(AmgPreconditioner(from_host_csr(neg, Space::host)), doctest::Contains("row 1 is -2"),
                       InputError);
  HostCsr nan{2, 2, {0, 1, 2}, {0, 1}, {1.0, std::nan("")}};
  CHECK_THROWS_WITH_AS(AmgPreconditioner(from_host_csr(nan, Space::host)), doctest::Contains("non-finite entry: a(1, 1) = nan"), InputError);
  HostCsr rect{1, 2, {0, 1}, {0}, {1.0}};
  CHECK_THROWS_WITH_AS(AmgPreconditioner(from_host_csr(rect, Space::host)), doctest::Contains("square"), InputError);
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 8, Space::host);
  Solver s(A);
  Vector b = ones(A.rows(), Space::host), x = Vector::zeros(A.rows() + 1, Space::host);
  CHECK_THROWS_WITH_AS(s.solve(b, x), doctest::Contains("x has 65 entries"), InputError);
  Vector x2 = Vector::zeros(A.rows(), Space::host);
  b[3] = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(s.solve(b, x2), doctest::Contains("right-hand side has NaN or Inf"), InputError);
}

TEST_CASE("zero right-hand side gives x = 0 at iteration 0 for every solver type") {
  const CsrMatrix A = poisson(Stencil::fd2d_5pt, 16, Space::host);
  for (const std::string type : {"pcg", "amg", "cg"}) {
    SolverParams sp;
    sp.type = type;
    Solver s(A, AmgParams{}, sp);
    Vector b = Vector::zeros(A.rows(), Space::host), x = ones(A.rows(), Space::host);
    const SolveResult r = s.solve(b, x);
    CHECK(r.converged);
    CHECK(r.iterations == 0);
    CHECK(norm2(x) == 0.0);
  }
}

TEST_CASE("nodes without strong neighbours: isolated ones stay out of the coarse space, weak ones are singletons") {
  // Tentative prolongator with a node left out: an empty row, the others as usual.
  amg::Aggregates ag;
  ag.of_node = Array<index_t>::from_vector({0, -1, 0, 1}, Space::host);
  ag.count = 2;
  const amg::Tentative t = amg::tentative_prolongator(ag, Vector::from_vector({1, 1, 1, 1}, Space::host), 1);
  const HostCsr T = to_host_csr(t.T);
  CHECK(T.row_ptr == std::vector<offset_t>{0, 1, 1, 2, 3});
  CHECK(T.col == std::vector<index_t>{0, 0, 1});
  CHECK(std::abs(T.val[0] - std::sqrt(0.5)) < 1e-15);
  CHECK(T.val[2] == 1.0);
  // A: node 2 is isolated (diagonal only), node 3 has one weak connection (to
  // node 0, 0.01 of the diagonal), nodes 0 and 1 are strongly coupled.
  HostCsr h{4, 4, {0, 3, 5, 6, 8}, {0, 1, 3, 0, 1, 2, 0, 3}, {4, -2, -0.04, -2, 4, 4, -0.04, 4}};
  const CsrMatrix A = from_host_csr(h, Space::host);
  const CsrMatrix S = amg::symmetric_strength(A, diagonal(A, true), 0.08);
  for (const std::string& name : amg::aggregation_methods().names()) {
    CAPTURE(name);
    amg::Aggregates a = amg::aggregation_methods().create(Component(name), Space::host)->aggregate(S, 1, {});
    CHECK(a.of_node.to_vector() == std::vector<index_t>{0, 0, -1, -1});
    CHECK(a.unaggregated == 2);
    amg::singletons_for_weak_nodes(A, a);
    CHECK(a.of_node.to_vector() == std::vector<index_t>{0, 0, -1, 1});
    CHECK(a.count == 2);
    CHECK(a.unaggregated == 1);
  }
  // An R-MAT graph Laplacian has many isolated vertices: as singleton
  // aggregates they used to pass down to a large diagonal coarsest level.
  RmatParams rp;
  rp.scale = 13;
  rp.seed = 1;
  AmgParams p;
  p.theta = 0.0;
  const Hierarchy hr(rmat_laplacian(rp, 1.0, Space::host), p);
  CHECK(hr.stats().levels.back().rows <= hr.stats().coarse_size);
  const std::vector<index_t> agg0 = hr.levels()[0].aggregates.to_vector();
  const HostCsr P0 = to_host_csr(hr.levels()[0].P);
  const HostCsr A0 = to_host_csr(hr.levels()[0].A);
  int isolated = 0;
  for (index_t i = 0; i < A0.rows; ++i)
    if (A0.row_ptr[i + 1] - A0.row_ptr[i] == 1) {  // a vertex without edges: its row of P is empty
      ++isolated;
      CHECK(agg0[i] == -1);
      CHECK(P0.row_ptr[i + 1] == P0.row_ptr[i]);
    }
  CHECK(isolated > 100);
  RunConfig c;
  c.problem.type = Component("rmat_laplacian", Options().set("scale", 13));
  c.amg.theta = 0.0;
  const RunResult r = run_solve(c, Executor::host());
  CHECK(r.solve.converged);
  CHECK(r.solve.iterations <= 15);
}

TEST_CASE("theta > 0 that would stop coarsening falls back to theta = 0 on that level") {
  // On the 2D 5-point grid the Galerkin coarse operators have every
  // off-diagonal below 0.25 of the diagonal: without the fallback level 1
  // would not coarsen and become a ~1000-row dense "coarsest" level.
  AmgParams p;
  p.theta = 0.25;
  p.coarse_size = 50;
  const Hierarchy h(poisson(Stencil::fd2d_5pt, 96, Space::host), p);
  const auto& L = h.stats().levels;
  REQUIRE(L.size() >= 3);
  CHECK(L.back().rows <= 50);
  CHECK(L[0].theta == 0.25);
  CHECK(L[1].theta == 0.0);
  // Every node of level 1 is without strong neighbours at 0.25: the fallback is decided before aggregating,
  // and the level's aggregates are those of its theta = 0 strength graph.
  CHECK(L[1].theta_fallback.find("rows without strong neighbours") != std::string::npos);
  const CsrMatrix& A1 = h.levels()[1].A;
  CHECK(amg::nodes_without_neighbours(amg::symmetric_strength(A1, diagonal(A1, true), 0.25)) == A1.rows());
  const CsrMatrix S1 = amg::symmetric_strength(A1, diagonal(A1, true), 0.0);
  CHECK(amg::nodes_without_neighbours(S1) == 0);
  const amg::Aggregates a1 =
      amg::aggregation_methods().create(Component(p.aggregation.name), Space::host)->aggregate(S1, p.seed + 1, {1, 1});
  CHECK(h.levels()[1].aggregates.to_vector() == a1.of_node.to_vector());
}

TEST_CASE("coarse size: 0 (auto) is 500 rows on the host and where the coarse inverse is not made on the GPU") {
  SetupParams p;
  CHECK(p.coarse_size == 0);
  CHECK(coarse_size_for(p, Space::host) == 500);
  if (device::compiled()) CHECK(coarse_size_for(p, Space::device) == 800);
  p.coarse_solver = "dense_lu";  // inverted on the host on either backend
  CHECK(coarse_size_for(p, Space::device) == 500);
  p.coarse_size = 123;
  CHECK(coarse_size_for(p, Space::host) == 123);
  CHECK(coarse_size_for(p, Space::device) == 123);
  // A host setup stops at 500 rows and reports it: 2D 5-pt N = 64 coarsens
  // 4096 -> 704 -> ~100 rows, and its 704-row level (the coarsest under 800)
  // is set up as a level, not inverted.
  const Hierarchy h(poisson(Stencil::fd2d_5pt, 64, Space::host), AmgParams{});
  CHECK(h.stats().coarse_size == 500);
  REQUIRE(h.levels().size() >= 3);
  CHECK(h.levels()[1].A.rows() > 500);
  CHECK(h.levels()[1].A.rows() <= 800);
  CHECK(h.levels().back().A.rows() <= 500);
  for (std::size_t l = 0; l + 1 < h.levels().size(); ++l) CHECK(h.levels()[l].A.rows() > 500);
}

TEST_CASE("rho(D^-1 A) by Lanczos: Eigen's largest eigenvalue, closed forms, breakdowns") {
  std::mt19937_64 rng(fresh_seed());
  // Random SPD matrices: within 2% below the exact value after 15 steps, never above it.
  for (int t = 0; t < 4; ++t) {
    RandomSpec sp;
    sp.rows = sp.cols = 60 + 40 * t;
    sp.density = 0.06;
    const HostCsr r = random_csr(sp, rng);
    EigenCsr R = to_eigen(r);
    EigenCsr M = EigenCsr(R.transpose()) * R;
    for (int i = 0; i < M.rows(); ++i) M.coeffRef(i, i) += 1.0;  // SPD
    M.makeCompressed();
    const CsrMatrix A = from_host_csr(from_eigen(M), Space::host);
    const Vector dinv = inverse_diagonal(A);
    Eigen::VectorXd ds(M.rows());
    for (int i = 0; i < M.rows(); ++i) ds(i) = 1.0 / std::sqrt(M.coeff(i, i));
    const Eigen::MatrixXd S = ds.asDiagonal() * Eigen::MatrixXd(M) * ds.asDiagonal();
    const double exact = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S).eigenvalues().maxCoeff();
    const double est = amg::spectral_radius_dinv_a(A, dinv, 15);
    CHECK(est <= exact * (1 + 1e-12));
    CHECK(est >= 0.98 * exact);
    CHECK(amg::spectral_radius_dinv_a(A, dinv, 15) == est);  // deterministic
  }
  // The default number of steps: 5-8% below rho on grid Laplacians (rho = 1 +
  // cos(pi / (N + 1)) for the 5- and 7-point stencils): far inside what the
  // smoothers need (omega = 4 / (3 rho) diverges only when the estimate is a
  // third below), and the larger omega of the underestimate smooths grids
  // better (docs/profiling.md, twenty-fifth session).
  const int steps = SetupParams{}.rho_iterations;
  for (const auto& [s, N] : {std::pair{Stencil::fd2d_5pt, 64}, std::pair{Stencil::fd3d_7pt, 20}}) {
    const CsrMatrix P = poisson(s, N, Space::host);
    const double exact = 1.0 + std::cos(M_PI / (N + 1));
    const double est = amg::spectral_radius_dinv_a(P, inverse_diagonal(P), steps);
    CHECK(est <= exact * (1 + 1e-12));
    CHECK(est >= 0.9 * exact);
  }
  // 1D Laplacian, n = 10 < 15 steps: Lanczos is exact, rho = 1 + cos(pi / 11).
  const CsrMatrix L = poisson(Stencil::fd2d_5pt, 1, Space::host);  // 1 x 1 grid: a 1 x 1 matrix
  CHECK(amg::spectral_radius_dinv_a(L, inverse_diagonal(L), 15) == doctest::Approx(1.0));
  HostCsr h{10, 10, {0}, {}, {}};
  for (index_t i = 0; i < 10; ++i) {
    if (i > 0) h.col.push_back(i - 1), h.val.push_back(-1.0);
    h.col.push_back(i), h.val.push_back(2.0);
    if (i < 9) h.col.push_back(i + 1), h.val.push_back(-1.0);
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  const CsrMatrix T = from_host_csr(h, Space::host);
  CHECK(amg::spectral_radius_dinv_a(T, inverse_diagonal(T), 15) ==
        doctest::Approx(1.0 + std::cos(std::acos(-1.0) / 11)).epsilon(1e-12));
  // A diagonal matrix: D^-1 A = I, Lanczos breaks down after one step and rho = 1.
  HostCsr dg{50, 50, {0}, {}, {}};
  for (index_t i = 0; i < 50; ++i) dg.col.push_back(i), dg.val.push_back(1.0 + i), dg.row_ptr.push_back(i + 1);
  const CsrMatrix Dg = from_host_csr(dg, Space::host);
  CHECK(amg::spectral_radius_dinv_a(Dg, inverse_diagonal(Dg), 15) == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("determinism: the same config twice gives bitwise the same hierarchy and residuals (host)") {
  check_deterministic(determinism_configs(), Executor::host());
}

TEST_CASE("galerkin_slices auto: blocks for the device memory and for the build's offsets") {
  const double MiB = 1048576.0, GiB = 1024 * MiB, limit32 = 2147483647.0;
  // Small products stay whole on either side.
  CHECK(galerkin_auto_blocks(1e6, 3e5, -1.0, limit32) == 1);
  CHECK(galerkin_auto_blocks(1e6, 3e5, 1 * GiB, limit32) == 1);
  // Memory: 12 B a product within 3/4 of what is free; the host has no bound.
  CHECK(galerkin_auto_blocks(1e9, 3e8, 100 * GiB, limit32) == 1);  // 11.2 GiB of 75
  CHECK(galerkin_auto_blocks(1e9, 3e8, 8 * GiB, limit32) == 2);    // 11.2 GiB of 6
  CHECK(galerkin_auto_blocks(1e9, 3e8, 1 * GiB, limit32) == 15);   // of 0.75
  CHECK(galerkin_auto_blocks(1e9, 3e8, -1.0, limit32) == 1);
  // Offsets: 3D 7-pt N=640 (1.83G nonzeros, P 0.93G: A P estimated at 2.8G,
  // 2.15G measured) on a GPU where A P fits whole is still split in the 32-bit
  // build, and not in a 64-bit one; N=512 (P 0.48G) stays whole.
  CHECK(galerkin_auto_blocks(5.5e9, 2.8e9, 140 * GiB, limit32) == 2);
  CHECK(galerkin_auto_blocks(5.5e9, 2.8e9, 140 * GiB, 9.2e18) == 1);
  CHECK(galerkin_auto_blocks(5.5e9, 2.8e9, -1.0, limit32) == 2);
  CHECK(galerkin_auto_blocks(2.8e9, 1.44e9, 140 * GiB, limit32) == 1);
  // 3D 27-pt N=420 (2.0G nonzeros, P 0.34G, 9.1G products): its A P (about
  // 0.92G) is not split for the offsets, where half its products would have.
  CHECK(galerkin_auto_blocks(9.1e9, 1.02e9, 140 * GiB, limit32) == 1);
  // The larger of the two bounds, at most 256 blocks.
  CHECK(galerkin_auto_blocks(1000.0, 500.0, -1.0, 100.0) == 5);
  CHECK(galerkin_auto_blocks(1e12, 3e11, 1 * GiB, limit32) == 256);
  CHECK(galerkin_auto_blocks(64 * MiB, 20 * MiB, 1 * GiB, limit32) == 1);  // 768 MiB: fits 3/4 of 1 GiB
}

TEST_CASE("the Galerkin product in blocks of R's rows equals the whole one, also where the ordering scatters them") {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const HostCsr grid = to_host_csr(poisson(Stencil::fd2d_5pt, 40, Space::host));
  // The same grid in a random ordering: aggregates no longer follow the rows,
  // the blocks' column spans overlap.
  std::vector<index_t> perm(grid.rows);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<index_t> inv(grid.rows);
  for (index_t i = 0; i < grid.rows; ++i) inv[perm[i]] = i;
  HostCsr shuffled{grid.rows, grid.cols, {0}, {}, {}};
  for (index_t i = 0; i < grid.rows; ++i) {
    std::vector<std::pair<index_t, double>> row;
    for (offset_t k = grid.row_ptr[perm[i]]; k < grid.row_ptr[perm[i] + 1]; ++k) row.push_back({inv[grid.col[k]], grid.val[k]});
    std::sort(row.begin(), row.end());
    for (auto [c, v] : row) shuffled.col.push_back(c), shuffled.val.push_back(v);
    shuffled.row_ptr.push_back(static_cast<offset_t>(shuffled.col.size()));
  }
  for (const HostCsr* m : {&grid, static_cast<const HostCsr*>(&shuffled)}) {
    AmgParams p;
    p.coarse_size = 20;
    p.galerkin_slices = 1;
    const Hierarchy whole(from_host_csr(*m, Space::host), p);
    for (int slices : {2, 3, 7}) {
      CAPTURE(slices);
      p.galerkin_slices = slices;
      const Hierarchy h(from_host_csr(*m, Space::host), p);
      REQUIRE(h.levels().size() == whole.levels().size());
      for (std::size_t l = 0; l < h.levels().size(); ++l) {
        CAPTURE(l);
        check_equal(to_host_csr(h.levels()[l].A), to_host_csr(whole.levels()[l].A), 0.0);  // the same rows of A P
      }
      const LevelStats& s0 = h.stats().levels[0];
      CHECK(s0.galerkin_slices == slices);
      CHECK(s0.galerkin_ap_rows >= grid.rows);
      CHECK(s0.spgemm.at("PtAP").nnz_c == whole.stats().levels[0].spgemm.at("PtAP").nnz_c);
      if (m == &grid && slices <= 3) CHECK(s0.galerkin_ap_rows < grid.rows * 3 / 2);  // grid aggregates: little overlap
    }
  }
}

TEST_CASE("setup memory models: the blocked one below the whole one, less with float values and the implicit P") {
  const index_t rows = 1000000;
  const std::int64_t nnz = 7 * static_cast<std::int64_t>(rows);
  AmgParams d, f, fi;
  f.hierarchy_precision = fi.hierarchy_precision = "float";
  fi.implicit_prolongator = true;
  const std::size_t whole = estimate_setup_bytes(rows, nnz, 1);
  const std::size_t bd = estimate_blocked_setup_bytes(rows, 1, d), bf = estimate_blocked_setup_bytes(rows, 1, f),
                    bfi = estimate_blocked_setup_bytes(rows, 1, fi);
  CHECK(bfi < bf);
  CHECK(bf < bd);
  CHECK(bd < whole);
  // The implicit P needs one near-nullspace column: with more, the float model applies.
  CHECK(estimate_blocked_setup_bytes(rows, 6, fi) == estimate_blocked_setup_bytes(rows, 6, f));
  CHECK(estimate_blocked_setup_bytes(rows, 6, d) > bd);
}

TEST_CASE("fit_memory: float where the double setup does not fit, then the implicit P; never where it cannot apply") {
  const index_t rows = 1000000;
  AmgParams d;
  AmgParams f = d;
  f.hierarchy_precision = "float";
  AmgParams fi = f;
  fi.implicit_prolongator = true;
  const NearNullspace constant = constant_nullspace();
  const std::size_t need_d = estimate_blocked_setup_bytes(rows, 1, d), need_f = estimate_blocked_setup_bytes(rows, 1, f),
                    need_fi = estimate_blocked_setup_bytes(rows, 1, fi);
  {  // room enough: nothing changes
    AmgParams p;
    CHECK(fit_to_memory(p, rows, constant, need_d + 1).empty());
    CHECK(p.hierarchy_precision == "double");
    CHECK_FALSE(p.implicit_prolongator);
  }
  {  // between the float and the double need: float
    AmgParams p;
    const std::string why = fit_to_memory(p, rows, constant, (need_d + need_f) / 2);
    CHECK(p.hierarchy_precision == "float");
    CHECK_FALSE(p.implicit_prolongator);
    CHECK(why.find("float") != std::string::npos);
    CHECK(why.find("amg.fit_memory") != std::string::npos);
  }
  {  // below the float need: float and the implicit P (also when even that may not fit)
    for (std::size_t available : {(need_f + need_fi) / 2, need_fi / 2}) {
      AmgParams p;
      const std::string why = fit_to_memory(p, rows, constant, available);
      CHECK(p.hierarchy_precision == "float");
      CHECK(p.implicit_prolongator);
      CHECK(why.find("implicitly") != std::string::npos);
    }
  }
  {  // a user near-nullspace (or blocks of unknowns): float only, P stays stored
    NearNullspace user;
    user.B = Vector::zeros(rows, Space::host);
    AmgParams p;
    fit_to_memory(p, rows, user, need_fi / 2);
    CHECK(p.hierarchy_precision == "float");
    CHECK_FALSE(p.implicit_prolongator);
  }
  {  // fit_memory false: the settings as given
    AmgParams p;
    p.fit_memory = false;
    CHECK(fit_to_memory(p, rows, constant, 1).empty());
    CHECK(p.hierarchy_precision == "double");
    CHECK_FALSE(p.implicit_prolongator);
  }
}
