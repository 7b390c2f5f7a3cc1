#include "problems/mesh_generate.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/splitmix.hpp"
#include "sparse/csr.hpp"

namespace saga {

namespace {
// splitmix64 of (seed, vertex, coordinate) -> uniform [-1, 1): order-free.
double hashed_uniform(std::uint64_t seed, std::uint64_t vertex, int coordinate) {
  return 2.0 * unit_uniform(splitmix64_at(seed, 3 * vertex + coordinate + 1)) - 1.0;
}
}  // namespace

Mesh unit_simplex_mesh(int dim, index_t n, double perturbation, std::uint64_t seed) {
  SAGA_REQUIRE(dim == 2 || dim == 3, "generated mesh: dimension {} (expected 2 or 3)", dim);
  SAGA_REQUIRE(n >= 2, "generated mesh: at least 2 cells per direction are needed (got {})", n);
  SAGA_REQUIRE(perturbation >= 0 && perturbation < 0.5, "generated mesh: perturbation {} must be in [0, 0.5)",
               perturbation);
  const std::int64_t np = n + 1;
  const std::int64_t nv = dim == 2 ? np * np : np * np * np;
  const std::int64_t ncells = dim == 2 ? 2ll * n * n : 6ll * n * n * n;
  checked_offset(nv, "generated mesh vertices");
  checked_offset(ncells * (dim + 1), "generated mesh cells");
  Mesh m;
  m.dim = dim;
  m.source = fmt::format("generated {} mesh n={} perturbation={} seed={}", dim == 2 ? "triangle" : "tetrahedron", n,
                         perturbation, seed);
  m.coords.resize(static_cast<std::size_t>(nv) * dim);
  m.dirichlet.assign(nv, 0);
  const double h = 1.0 / n;
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < nv; ++v) {
    const std::int64_t idx[3] = {v % np, (v / np) % np, v / (np * np)};
    bool boundary = false;
    for (int k = 0; k < dim; ++k) boundary = boundary || idx[k] == 0 || idx[k] == n;
    m.dirichlet[v] = boundary;
    for (int k = 0; k < dim; ++k) m.coords[v * dim + k] = idx[k] * h;
  }
  m.cells.resize(static_cast<std::size_t>(ncells) * (dim + 1));
  m.cell_group.assign(ncells, 0);
  auto vid = [&](std::int64_t i, std::int64_t j, std::int64_t k) { return static_cast<index_t>((k * np + j) * np + i); };
  if (dim == 2) {
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < std::int64_t(n) * n; ++q) {
      const std::int64_t i = q % n, j = q / n;
      const index_t t[6] = {vid(i, j, 0), vid(i + 1, j, 0),     vid(i + 1, j + 1, 0),
                            vid(i, j, 0), vid(i + 1, j + 1, 0), vid(i, j + 1, 0)};
      std::copy(t, t + 6, &m.cells[q * 6]);
    }
  } else {
    // Kuhn's split: one tetrahedron per ordering of the axes, walking from the
    // cube's (0,0,0) corner to (1,1,1) one axis at a time.
    static const int order[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < std::int64_t(n) * n * n; ++q) {
      const std::int64_t c[3] = {q % n, (q / n) % n, q / (std::int64_t(n) * n)};
      for (int t = 0; t < 6; ++t) {
        std::int64_t p[3] = {c[0], c[1], c[2]};
        index_t* out = &m.cells[(q * 6 + t) * 4];
        out[0] = vid(p[0], p[1], p[2]);
        for (int s = 0; s < 3; ++s) {
          ++p[order[t][s]];
          out[s + 1] = vid(p[0], p[1], p[2]);
        }
      }
    }
  }
  // Orient every cell positively on the unperturbed geometry (the sign only
  // depends on the split), then perturb the interior vertices and check that
  // no cell folded.
  for (index_t c = 0; c < m.cell_count(); ++c)
    if (cell_measure(m, c) < 0)
      std::swap(m.cells[static_cast<std::size_t>(c) * (dim + 1) + 1], m.cells[static_cast<std::size_t>(c) * (dim + 1) + 2]);
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < nv; ++v)
    if (!m.dirichlet[v])
      for (int k = 0; k < dim; ++k) m.coords[v * dim + k] += perturbation * h * hashed_uniform(seed, v, k);
  const double full = (dim == 2 ? 0.5 : 1.0 / 6.0) * (dim == 2 ? h * h : h * h * h);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const double mu = cell_measure(m, c);
    SAGA_REQUIRE(mu > 1e-3 * full, "{}: the perturbation folds cell {} (measure {:.3e} of {:.3e}); use a smaller one",
                 m.source, c, mu, full);
  }
  return m;
}

}  // namespace saga
