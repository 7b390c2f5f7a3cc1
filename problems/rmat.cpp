#include "problems/rmat.hpp"

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/splitmix.hpp"

namespace saga {

namespace {
// The sequential splitmix64 stream (core/splitmix.hpp): the same graph on every
// platform (std:: distributions are not portable).
struct SplitMix {
  std::uint64_t s;
  double uniform() {
    s += kSplitmixGamma;
    return unit_uniform(splitmix64_mix(s));
  }
};

void check(const RmatParams& p) {
  SAGA_REQUIRE(p.scale >= 1 && p.scale <= 30, "R-MAT: scale {} must be in [1, 30]", p.scale);
  SAGA_REQUIRE(p.edges >= 1, "R-MAT: edges per row {} must be at least 1", p.edges);
  SAGA_REQUIRE(p.a > 0 && p.b >= 0 && p.c >= 0 && p.a + p.b + p.c < 1,
               "R-MAT: quadrant probabilities a={}, b={}, c={} must be positive with a + b + c < 1", p.a, p.b, p.c);
  SAGA_REQUIRE((static_cast<double>(p.edges) * 2.0 * std::ldexp(1.0, p.scale)) < 2.0e9,
               "R-MAT: 2^{} rows x {} edges does not fit 32-bit offsets", p.scale, p.edges);
}

// Draws the edges (i, j) of the graph.
void draw(const RmatParams& p, std::vector<index_t>& src, std::vector<index_t>& dst) {
  const index_t n = index_t(1) << p.scale;
  const std::size_t m = static_cast<std::size_t>(p.edges) * static_cast<std::size_t>(n);
  src.resize(m);
  dst.resize(m);
  SplitMix g{p.seed};
  for (std::size_t k = 0; k < m; ++k) {
    index_t i = 0, j = 0;
    for (int l = 0; l < p.scale; ++l) {
      const double x = g.uniform();
      const int bi = x >= p.a + p.b;                                          // quadrants c, d: lower half
      const int bj = (x >= p.a && x < p.a + p.b) || x >= p.a + p.b + p.c;  // quadrants b, d: right half
      i = (i << 1) | bi;
      j = (j << 1) | bj;
    }
    src[k] = i;
    dst[k] = j;
  }
}

CsrMatrix from_triplets(index_t n, const std::vector<index_t>& r, const std::vector<index_t>& c,
                        const std::vector<double>& v, Space space) {
  CooMatrix coo{n, n, Array<index_t>::from_vector(r, space, "R-MAT rows"),
                Array<index_t>::from_vector(c, space, "R-MAT columns"), Array<double>::from_vector(v, space, "R-MAT values")};
  return coo_to_csr(coo);  // sorts, sums duplicates
}
}  // namespace

CsrMatrix rmat_matrix(const RmatParams& p, Space space) {
  check(p);
  std::vector<index_t> src, dst;
  draw(p, src, dst);
  SplitMix g{p.seed ^ 0x5851f42d4c957f2dull};
  std::vector<double> v(src.size());
  for (double& x : v) x = g.uniform() - 0.5;
  return from_triplets(index_t(1) << p.scale, src, dst, v, space);
}

CsrMatrix rmat_laplacian(const RmatParams& p, double shift, Space space) {
  check(p);
  SAGA_REQUIRE(shift > 0, "R-MAT Laplacian: shift {} must be positive (else the Laplacian is singular)", shift);
  const index_t n = index_t(1) << p.scale;
  std::vector<index_t> src, dst;
  draw(p, src, dst);
  // Off-diagonal -1 per edge in both directions; the diagonal gets the degree + shift.
  std::vector<index_t> r, c;
  std::vector<double> v;
  std::vector<double> degree(n, 0.0);
  r.reserve(2 * src.size() + n);
  c.reserve(2 * src.size() + n);
  v.reserve(2 * src.size() + n);
  for (std::size_t k = 0; k < src.size(); ++k) {
    if (src[k] == dst[k]) continue;
    r.push_back(src[k]), c.push_back(dst[k]), v.push_back(-1.0);
    r.push_back(dst[k]), c.push_back(src[k]), v.push_back(-1.0);
    degree[src[k]] += 1.0;
    degree[dst[k]] += 1.0;
  }
  for (index_t i = 0; i < n; ++i) r.push_back(i), c.push_back(i), v.push_back(degree[i] + shift);
  return from_triplets(n, r, c, v, space);
}

}  // namespace saga
