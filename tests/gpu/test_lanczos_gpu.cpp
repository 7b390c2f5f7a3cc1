// The Lanczos steps of the rho(D^-1 A) estimate on the GPU (one cooperative
// kernel for all steps, sparse/lanczos_ops.hpp) against the host's composed
// steps: the same alphas and betas up to the order of the sums, for every lane
// width the kernel picks (rows of 7, 27 and ~150 entries), values stored in
// double or float, matrices down to one row; bitwise the same run after run.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "problems/structured.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/lanczos_functors.hpp"
#include "sparse/lanczos_ops.hpp"
#include "sparse/vector_ops.hpp"
#include "tests/helpers.hpp"

using namespace saga;
using namespace saga::test;

namespace {
// A graph Laplacian plus the identity on a random pattern of about `per_row`
// neighbours a row: symmetric, positive definite, rows as long as asked.
CsrMatrix dense_laplacian(index_t n, index_t per_row, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0.1, 1.0);
  std::vector<std::map<index_t, double>> rows(n);
  for (index_t i = 0; i < n; ++i)
    for (index_t k = 0; k < per_row / 2; ++k) {
      const index_t j = static_cast<index_t>(rng() % n);
      if (j == i) continue;
      const double w = U(rng);
      rows[i][j] -= w;
      rows[j][i] -= w;
    }
  HostCsr h{n, n, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) {
    double diag = 1.0;
    for (const auto& [j, v] : rows[i]) diag -= v;
    rows[i][i] = diag;
    for (const auto& [j, v] : rows[i]) h.col.push_back(j), h.val.push_back(v);
    h.row_ptr.push_back(static_cast<offset_t>(h.col.size()));
  }
  return from_host_csr(h, Space::host);
}

// The largest eigenvalue of the k x k tridiagonal matrix of alphas s[0, k) and betas s[m, m + k - 1).
double largest_ritz(const std::vector<double>& s, int m, int k) {
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(k, k);
  for (int i = 0; i < k; ++i) {
    T(i, i) = s[i];
    if (i + 1 < k) T(i, i + 1) = T(i + 1, i) = s[m + i];
  }
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(T, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
}

// Matrices for every lane width the kernel picks (rows of 7, 27 and ~150
// entries), the composed steps (a large 27-point matrix) and the smallest shapes.
std::vector<std::pair<std::string, CsrMatrix>> lane_width_cases(std::mt19937_64& rng) {
  std::vector<std::pair<std::string, CsrMatrix>> cases;
  cases.emplace_back("7-pt (a lane a row)", poisson(Stencil::fd3d_7pt, sized(40, 16), Space::host));
  cases.emplace_back("27-pt (8 lanes)", poisson(Stencil::fe3d_27pt, sized(30, 12), Space::host));
  cases.emplace_back("27-pt, large (the composed steps)", poisson(Stencil::fe3d_27pt, sized(70, 12), Space::host));
  cases.emplace_back("dense rows (32 lanes)", dense_laplacian(sized(3000, 600), 160, rng));
  cases.emplace_back("one row", dense_laplacian(1, 0, rng));
  cases.emplace_back("three rows", dense_laplacian(3, 2, rng));
  return cases;
}

// normalise: the steps scale the (unnormalised) start vector themselves.
std::vector<double> run_steps(const CsrMatrix& A, int m, Space where, bool normalise = false) {
  const CsrMatrix M = A.to(where);
  Vector d = inverse_diagonal(M, "matrix");
  std::vector<double> dh = d.to_vector();
  for (double& x : dh) x = std::sqrt(x);
  d = Vector::from_vector(dh, where);
  Vector v = random_vector(A.rows(), 0x5a6a, where);
  if (!normalise) scale(1.0 / norm2(v), v);
  Scalars s(2 * static_cast<std::size_t>(m), where);
  lanczos_steps(M, d, m, v, s, normalise);
  return s.head(2 * static_cast<std::size_t>(m));
}
}  // namespace

TEST_CASE("GPU Lanczos steps in one cooperative kernel equal the host's composed steps") {
  std::mt19937_64 rng(fresh_seed());
  const std::vector<std::pair<std::string, CsrMatrix>> cases = lane_width_cases(rng);
  for (const auto& named : cases) {
    const std::string& name = named.first;
    const CsrMatrix& A = named.second;
    CAPTURE(name);
    const int m = static_cast<int>(std::min<index_t>(12, A.rows()));
    for (bool single : {false, true}) {
      CAPTURE(single);
      CsrMatrix As = A.clone();
      if (single) As.store_values_single();  // the rounded values on both sides
      const std::vector<double> h = run_steps(As, m, Space::host), g = run_steps(As, m, Space::device);
      // The first steps agree to rounding; later ones amplify the different order of the sums (the loss of
      // orthogonality of plain Lanczos), so they agree to 1e-6, and the largest Ritz value — what the
      // estimate uses — to 1e-9. After a near breakdown (a beta b far below the alphas: a start vector
      // almost in an invariant subspace) the next vector is rounding divided by b, so the steps after it
      // agree only to about eps * max|alpha| / b (a 3-row graph with an isolated row: b = 1.9e-7, the next
      // beta 3.8e-10 on the host, 4.8e-10 apart on the GPU; fifty-second session).
      int k = 0;
      std::vector<double> tols(static_cast<std::size_t>(m), 1e-10);
      double largest_alpha = 0.0, smallest_beta = std::numeric_limits<double>::infinity();
      for (int j = 0; j < m; ++j) {
        CAPTURE(j);
        largest_alpha = std::max(largest_alpha, std::abs(h[j]));
        const double amplified = 64 * std::numeric_limits<double>::epsilon() * largest_alpha / smallest_beta;
        const double tol = std::max(j < 6 ? 1e-10 : 1e-6, amplified);
        CAPTURE(tol);
        tols[static_cast<std::size_t>(j)] = tol;
        CHECK(std::abs(g[j] - h[j]) <= tol * std::max(1.0, std::abs(h[j])));
        k = j + 1;
        if (h[m + j] < 1e-10 * std::abs(h[j])) break;  // an invariant subspace: the rest is noise on both sides
        CHECK(std::abs(g[m + j] - h[m + j]) <= tol * std::max(1.0, std::abs(h[m + j])));
        smallest_beta = std::min(smallest_beta, std::abs(h[m + j]));
      }
      CHECK(std::abs(largest_ritz(g, m, k) - largest_ritz(h, m, k)) <= 1e-9 * largest_ritz(h, m, k));
      // Bitwise repeatable, compared as bits: after an exact breakdown (beta = 0, which the random small
      // graphs sometimes reach) the later steps are NaN on every run, and NaN != NaN as doubles.
      const std::vector<double> again = run_steps(As, m, Space::device);
      CHECK(std::memcmp(again.data(), g.data(), g.size() * sizeof(double)) == 0);
      // The start vector normalised inside the steps (the estimate's path): the host's scaled vector's
      // steps to rounding (the norm's sum in another order), the same Ritz value.
      const std::vector<double> gn = run_steps(As, m, Space::device, true);
      for (int j = 0; j < std::min(k, 6); ++j) {
        CAPTURE(j);
        CHECK(std::abs(gn[j] - h[j]) <= tols[static_cast<std::size_t>(j)] * std::max(1.0, std::abs(h[j])));
      }
      CHECK(std::abs(largest_ritz(gn, m, k) - largest_ritz(h, m, k)) <= 1e-9 * largest_ritz(h, m, k));
    }
  }
}

TEST_CASE("GPU Lanczos with D^-1/2 and the start vector made in the steps' kernel equals the composed start") {
  // lanczos_steps_dinv (the estimate's path) against the start made by its functor on the device and the steps
  // run as lanczos_steps(..., normalise = true): bitwise, also where the steps are composed (large 27-pt).
  std::mt19937_64 rng(fresh_seed());
  const std::uint64_t seed = rng();
  CAPTURE(seed);
  const std::vector<std::pair<std::string, CsrMatrix>> cases = lane_width_cases(rng);
  for (const auto& named : cases) {
    const std::string& name = named.first;
    const CsrMatrix& A = named.second;
    CAPTURE(name);
    const int m = static_cast<int>(std::min<index_t>(5, A.rows()));
    for (bool single : {false, true}) {
      CAPTURE(single);
      CsrMatrix M = A.to(Space::device);
      if (single) M.store_values_single();
      const Vector dinv = inverse_diagonal(M, "matrix");
      const std::size_t n = dinv.size();
      Scalars fused(2 * static_cast<std::size_t>(m), Space::device), composed(2 * static_cast<std::size_t>(m), Space::device);
      lanczos_steps_dinv(M, dinv, m, seed, fused);
      Vector d(n, Space::device), v(n, Space::device);
      parallel_for(Space::device, static_cast<std::int64_t>(n),
                   functors::LanczosStartValues{dinv.data(), d.data(), v.data(), seed});
      lanczos_steps(M, d, m, v, composed, true);
      const std::vector<double> f = fused.head(2 * static_cast<std::size_t>(m)),
                                c = composed.head(2 * static_cast<std::size_t>(m));
      CHECK(std::memcmp(f.data(), c.data(), f.size() * sizeof(double)) == 0);
      // and the host's estimate from the same start: the same Ritz value
      CsrMatrix H = A.clone();
      if (single) H.store_values_single();
      Scalars host(2 * static_cast<std::size_t>(m), Space::host);
      lanczos_steps_dinv(H, inverse_diagonal(H, "matrix"), m, seed, host);
      const std::vector<double> h = host.head(2 * static_cast<std::size_t>(m));
      int k = 0;
      for (int j = 0; j < m; ++j) {
        k = j + 1;
        if (h[m + j] < 1e-10 * std::abs(h[j])) break;
      }
      CHECK(std::abs(largest_ritz(f, m, k) - largest_ritz(h, m, k)) <= 1e-9 * std::abs(largest_ritz(h, m, k)));
    }
  }
}
