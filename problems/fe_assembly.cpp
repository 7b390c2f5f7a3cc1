#include "problems/fe_assembly.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "problems/fe_functors.hpp"

namespace saga {

std::vector<double> cell_coefficients(const Mesh& m, const FeCoefficients& c) {
  const int d = m.dim;
  const index_t nc = m.cell_count();
  std::vector<double> kappa(nc, 1.0);
  if (!c.field.is_constant()) {
    double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
    for (index_t v = 0; v < m.vertices(); ++v)
      for (int r = 0; r < d; ++r) {
        lo[r] = std::min(lo[r], m.coords[static_cast<std::size_t>(v) * d + r]);
        hi[r] = std::max(hi[r], m.coords[static_cast<std::size_t>(v) * d + r]);
      }
#pragma omp parallel for schedule(static)
    for (index_t e = 0; e < nc; ++e) {
      double x[3] = {0, 0, 0};
      for (int a = 0; a <= d; ++a)
        for (int r = 0; r < d; ++r)
          x[r] += m.coords[static_cast<std::size_t>(m.cells[static_cast<std::size_t>(e) * (d + 1) + a]) * d + r];
      for (int r = 0; r < d; ++r) x[r] = (x[r] / (d + 1) - lo[r]) / (hi[r] - lo[r]);
      kappa[e] = c.field.at(x[0], x[1], x[2]);
    }
  }
  for (const auto& [group, value] : c.group_values) {
    SAGA_REQUIRE(value > 0 && std::isfinite(value), "{}: coefficient {} of group '{}' must be positive", m.source,
                 value, group);
    const int tag = find_group(m, group);
    index_t hits = 0;
    for (index_t e = 0; e < nc && !m.cell_group.empty(); ++e)
      if (m.cell_group[e] == tag) {
        kappa[e] = value;
        ++hits;
      }
    SAGA_REQUIRE(hits > 0, "{}: no cells in physical group '{}'", m.source, group);
  }
  return kappa;
}

FeSystem assemble_p1(const Mesh& m, const FeCoefficients& c, Space space, std::int64_t chunk_triplets) {
  validate_mesh(m);
  SAGA_REQUIRE(m.dirichlet.size() == static_cast<std::size_t>(m.vertices()), "{}: Dirichlet vertices not marked",
               m.source);
  FeSystem s;
  s.dof_of_vertex.assign(m.vertices(), -1);
  for (index_t v = 0; v < m.vertices(); ++v)
    if (!m.dirichlet[v]) {
      s.dof_of_vertex[v] = static_cast<index_t>(s.vertex_of_dof.size());
      s.vertex_of_dof.push_back(v);
    }
  const index_t n = static_cast<index_t>(s.vertex_of_dof.size());
  SAGA_REQUIRE(n < m.vertices(),
               "{}: no Dirichlet vertex, so the matrix would be singular (pure Neumann); mark some boundary", m.source);
  SAGA_REQUIRE(n > 0, "{}: every vertex is a Dirichlet vertex: there are no unknowns", m.source);
  SAGA_REQUIRE(c.anisotropy.epsilon > 0 && std::isfinite(c.anisotropy.epsilon),
               "anisotropy epsilon must be positive and finite (got {})", c.anisotropy.epsilon);
  // A free vertex in no cell would give an empty (singular) row.
  std::vector<char> used(m.vertices(), 0);
  for (index_t v : m.cells) used[v] = 1;
  for (index_t v = 0; v < m.vertices(); ++v)
    SAGA_REQUIRE(used[v] || m.dirichlet[v], "{}: vertex {} belongs to no cell (its row would be empty)", m.source, v);
  const std::vector<double> kappa = cell_coefficients(m, c);
  const bool unit_kappa = std::all_of(kappa.begin(), kappa.end(), [](double k) { return k == 1.0; });

  const auto coords = Array<double>::from_vector(m.coords, space, "mesh coordinates");
  const auto cells = Array<index_t>::from_vector(m.cells, space, "mesh cells");
  const auto dof = Array<index_t>::from_vector(s.dof_of_vertex, space, "mesh unknown numbering");
  Array<double> kappa_arr;
  if (!unit_kappa) kappa_arr = Array<double>::from_vector(kappa, space, "cell coefficients");
  fe_functors::WriteElementTriplets w{coords.data(), cells.data(), dof.data(), unit_kappa ? nullptr : kappa_arr.data(),
                                      {},            m.dim,        nullptr,     nullptr,
                                      nullptr,       nullptr};
  c.anisotropy.tensor(w.K);
  s.A = assemble_cell_triplets(space, m.cell_count(), n,
                               fe_functors::CountFreePairs{cells.data(), dof.data(), m.dim, nullptr}, w,
                               chunk_triplets);
  return s;
}

namespace {
struct QuadPoint {
  std::array<double, 4> bary;
  double weight;  // fraction of the cell measure
};

std::vector<QuadPoint> rule(int dim, int degree) {
  if (dim == 2 && degree <= 2) return {{{0.5, 0.5, 0, 0}, 1.0 / 3}, {{0, 0.5, 0.5, 0}, 1.0 / 3}, {{0.5, 0, 0.5, 0}, 1.0 / 3}};
  if (dim == 2) {  // Dunavant's degree-4 rule, 6 points
    const double a1 = 0.445948490915965, w1 = 0.223381589678011, a2 = 0.091576213509771, w2 = 0.109951743655322;
    return {{{1 - 2 * a1, a1, a1, 0}, w1}, {{a1, 1 - 2 * a1, a1, 0}, w1}, {{a1, a1, 1 - 2 * a1, 0}, w1},
            {{1 - 2 * a2, a2, a2, 0}, w2}, {{a2, 1 - 2 * a2, a2, 0}, w2}, {{a2, a2, 1 - 2 * a2, 0}, w2}};
  }
  if (degree <= 2) {  // 4-point degree-2 rule
    const double a = 0.5854101966249685, b = 0.1381966011250105;
    return {{{a, b, b, b}, 0.25}, {{b, a, b, b}, 0.25}, {{b, b, a, b}, 0.25}, {{b, b, b, a}, 0.25}};
  }
  // Keast's 5-point degree-3 rule
  return {{{0.25, 0.25, 0.25, 0.25}, -0.8},
          {{0.5, 1.0 / 6, 1.0 / 6, 1.0 / 6}, 0.45},
          {{1.0 / 6, 0.5, 1.0 / 6, 1.0 / 6}, 0.45},
          {{1.0 / 6, 1.0 / 6, 0.5, 1.0 / 6}, 0.45},
          {{1.0 / 6, 1.0 / 6, 1.0 / 6, 0.5}, 0.45}};
}

template <class F>
void for_each_quad_point(const Mesh& m, int degree, F&& f) {
  const int d = m.dim;
  const auto q = rule(d, degree);
  for (index_t e = 0; e < m.cell_count(); ++e) {
    const index_t* v = &m.cells[static_cast<std::size_t>(e) * (d + 1)];
    const double mu = std::abs(cell_measure(m, e));
    for (const auto& p : q) {
      double x[3] = {0, 0, 0};
      for (int a = 0; a <= d; ++a)
        for (int r = 0; r < d; ++r) x[r] += p.bary[a] * m.coords[static_cast<std::size_t>(v[a]) * d + r];
      f(v, p.bary.data(), x, p.weight * mu);
    }
  }
}
}  // namespace

std::vector<double> p1_load_vector(const Mesh& m, const FeSystem& s, const std::function<double(const double*)>& f) {
  std::vector<double> b(s.vertex_of_dof.size(), 0.0);
  for_each_quad_point(m, 2, [&](const index_t* v, const double* bary, const double* x, double w) {
    const double fx = f(x) * w;
    for (int a = 0; a <= m.dim; ++a)
      if (s.dof_of_vertex[v[a]] >= 0) b[s.dof_of_vertex[v[a]]] += fx * bary[a];
  });
  return b;
}

double p1_l2_error(const Mesh& m, const FeSystem& s, const std::vector<double>& u_h,
                   const std::function<double(const double*)>& u) {
  SAGA_REQUIRE(u_h.size() == s.vertex_of_dof.size(), "p1_l2_error: {} values for {} unknowns", u_h.size(),
               s.vertex_of_dof.size());
  double sum = 0;
  for_each_quad_point(m, m.dim == 2 ? 4 : 3, [&](const index_t* v, const double* bary, const double* x, double w) {
    double uh = 0;
    for (int a = 0; a <= m.dim; ++a)
      if (s.dof_of_vertex[v[a]] >= 0) uh += bary[a] * u_h[s.dof_of_vertex[v[a]]];
    const double e = u(x) - uh;
    sum += w * e * e;
  });
  return std::sqrt(sum);
}

}  // namespace saga
