#include "problems/mesh_generate.hpp"

#include <algorithm>
#include <cmath>

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
  const index_t cells[3] = {n, n, n};
  const double size[3] = {1.0, 1.0, 1.0};
  return simplex_box_mesh(dim, cells, size, perturbation, seed);
}

Mesh simplex_box_mesh(int dim, const index_t cells[3], const double size[3], double perturbation, std::uint64_t seed) {
  SAGA_REQUIRE(dim == 2 || dim == 3, "generated mesh: dimension {} (expected 2 or 3)", dim);
  for (int k = 0; k < dim; ++k) {
    SAGA_REQUIRE(cells[k] >= 2, "generated mesh: at least 2 cells per direction are needed (got {})", cells[k]);
    SAGA_REQUIRE(size[k] > 0 && std::isfinite(size[k]), "generated mesh: side {} has length {}", k, size[k]);
  }
  SAGA_REQUIRE(perturbation >= 0 && perturbation < 0.5, "generated mesh: perturbation {} must be in [0, 0.5)",
               perturbation);
  const std::int64_t np[3] = {cells[0] + 1, cells[1] + 1, dim == 3 ? cells[2] + 1 : 1};
  const std::int64_t nv = np[0] * np[1] * np[2];
  const std::int64_t nq = std::int64_t(cells[0]) * cells[1] * (dim == 3 ? cells[2] : 1);
  const std::int64_t ncells = (dim == 2 ? 2 : 6) * nq;
  checked_index(nv, "generated mesh (vertices)");
  checked_offset(ncells * (dim + 1), "generated mesh cells");
  Mesh m;
  m.dim = dim;
  const bool cube = cells[0] == cells[1] && (dim == 2 || cells[0] == cells[2]) && size[0] == 1 && size[1] == 1 &&
                    (dim == 2 || size[2] == 1);
  m.source = cube ? fmt::format("generated {} mesh n={} perturbation={} seed={}",
                                dim == 2 ? "triangle" : "tetrahedron", cells[0], perturbation, seed)
                  : fmt::format("generated {} mesh of {} cells over {} perturbation={} seed={}",
                                dim == 2 ? "triangle" : "tetrahedron",
                                dim == 2 ? fmt::format("{}x{}", cells[0], cells[1])
                                         : fmt::format("{}x{}x{}", cells[0], cells[1], cells[2]),
                                dim == 2 ? fmt::format("{}x{}", size[0], size[1])
                                         : fmt::format("{}x{}x{}", size[0], size[1], size[2]),
                                perturbation, seed);
  m.coords.resize(static_cast<std::size_t>(nv) * dim);
  m.dirichlet.assign(nv, 0);
  double h[3] = {1, 1, 1};
  for (int k = 0; k < dim; ++k) h[k] = size[k] / cells[k];
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < nv; ++v) {
    const std::int64_t idx[3] = {v % np[0], (v / np[0]) % np[1], v / (np[0] * np[1])};
    bool boundary = false;
    for (int k = 0; k < dim; ++k) boundary = boundary || idx[k] == 0 || idx[k] == cells[k];
    m.dirichlet[v] = boundary;
    for (int k = 0; k < dim; ++k) m.coords[v * dim + k] = idx[k] * h[k];
  }
  m.cells.resize(static_cast<std::size_t>(ncells) * (dim + 1));
  m.cell_group.assign(ncells, 0);
  auto vid = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return static_cast<index_t>((k * np[1] + j) * np[0] + i);
  };
  if (dim == 2) {
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < nq; ++q) {
      const std::int64_t i = q % cells[0], j = q / cells[0];
      const index_t t[6] = {vid(i, j, 0), vid(i + 1, j, 0),     vid(i + 1, j + 1, 0),
                            vid(i, j, 0), vid(i + 1, j + 1, 0), vid(i, j + 1, 0)};
      std::copy(t, t + 6, &m.cells[q * 6]);
    }
  } else {
    // Kuhn's split: one tetrahedron per ordering of the axes, walking from the
    // cube's (0,0,0) corner to (1,1,1) one axis at a time.
    static const int order[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < nq; ++q) {
      const std::int64_t c[3] = {q % cells[0], (q / cells[0]) % cells[1], q / (std::int64_t(cells[0]) * cells[1])};
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
      for (int k = 0; k < dim; ++k) m.coords[v * dim + k] += perturbation * h[k] * hashed_uniform(seed, v, k);
  const double full = (dim == 2 ? 0.5 : 1.0 / 6.0) * h[0] * h[1] * (dim == 2 ? 1.0 : h[2]);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const double mu = cell_measure(m, c);
    SAGA_REQUIRE(mu > 1e-3 * full, "{}: the perturbation folds cell {} (measure {:.3e} of {:.3e}); use a smaller one",
                 m.source, c, mu, full);
  }
  return m;
}

}  // namespace saga
