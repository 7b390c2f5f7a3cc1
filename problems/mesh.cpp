#include "problems/mesh.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/error.hpp"

namespace saga {

double cell_measure(const Mesh& m, index_t c) {
  const int d = m.dim;
  const index_t* v = &m.cells[static_cast<std::size_t>(c) * (d + 1)];
  const double* p0 = &m.coords[static_cast<std::size_t>(v[0]) * d];
  double J[3][3];
  for (int k = 0; k < d; ++k)
    for (int r = 0; r < d; ++r) J[r][k] = m.coords[static_cast<std::size_t>(v[k + 1]) * d + r] - p0[r];
  if (d == 2) return 0.5 * (J[0][0] * J[1][1] - J[0][1] * J[1][0]);
  const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                     J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                     J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
  return det / 6.0;
}

void validate_mesh(const Mesh& m) {
  const std::string& src = m.source.empty() ? std::string("mesh") : m.source;
  SAGA_REQUIRE(m.dim == 2 || m.dim == 3, "{}: dimension {} (expected 2 or 3)", src, m.dim);
  SAGA_REQUIRE(m.coords.size() % m.dim == 0 && m.cells.size() % (m.dim + 1) == 0, "{}: malformed arrays", src);
  SAGA_REQUIRE(m.cell_count() > 0, "{}: no {} in the mesh", src, m.dim == 2 ? "triangles" : "tetrahedra");
  SAGA_REQUIRE(m.cell_group.empty() || m.cell_group.size() == m.cells.size() / (m.dim + 1),
               "{}: cell groups do not match the cells", src);
  const index_t nv = m.vertices();
  for (std::size_t k = 0; k < m.cells.size(); ++k)
    SAGA_REQUIRE(m.cells[k] >= 0 && m.cells[k] < nv, "{}: cell {} refers to vertex {} of {}", src, k / (m.dim + 1),
                 m.cells[k], nv);
  for (double x : m.coords) SAGA_REQUIRE(std::isfinite(x), "{}: a vertex coordinate is not finite", src);
  double total = 0;
  for (index_t c = 0; c < m.cell_count(); ++c) total += std::abs(cell_measure(m, c));
  const double tiny = 1e-12 * total / m.cell_count();
  for (index_t c = 0; c < m.cell_count(); ++c)
    SAGA_REQUIRE(std::abs(cell_measure(m, c)) > tiny, "{}: cell {} is degenerate (measure {:.3e}, mean {:.3e})", src, c,
                 cell_measure(m, c), total / m.cell_count());
}

namespace {
// Key of a facet: its sorted vertex indices (the third is -1 for an edge).
struct FacetKey {
  index_t v[3] = {-1, -1, -1};
  bool operator==(const FacetKey& o) const { return v[0] == o.v[0] && v[1] == o.v[1] && v[2] == o.v[2]; }
};
struct FacetHash {
  std::size_t operator()(const FacetKey& k) const {
    std::uint64_t h = 1469598103934665603ull;
    for (index_t x : k.v) h = (h ^ static_cast<std::uint32_t>(x)) * 1099511628211ull;
    return h;
  }
};
FacetKey facet_key(const index_t* v, int n) {
  FacetKey k;
  std::copy(v, v + n, k.v);
  // at most three: a sorting network
  if (k.v[0] > k.v[1]) std::swap(k.v[0], k.v[1]);
  if (n == 3) {
    if (k.v[1] > k.v[2]) std::swap(k.v[1], k.v[2]);
    if (k.v[0] > k.v[1]) std::swap(k.v[0], k.v[1]);
  }
  return k;
}
}  // namespace

index_t mark_boundary_dirichlet(Mesh& m) {
  const int d = m.dim;
  std::unordered_map<FacetKey, int, FacetHash> count;
  count.reserve(m.cells.size());
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const index_t* v = &m.cells[static_cast<std::size_t>(c) * (d + 1)];
    for (int skip = 0; skip <= d; ++skip) {
      index_t f[3];
      int n = 0;
      for (int k = 0; k <= d; ++k)
        if (k != skip) f[n++] = v[k];
      ++count[facet_key(f, d)];
    }
  }
  m.dirichlet.assign(m.vertices(), 0);
  for (const auto& [key, n] : count)
    if (n == 1)
      for (int k = 0; k < d; ++k) m.dirichlet[key.v[k]] = 1;
  return static_cast<index_t>(std::count(m.dirichlet.begin(), m.dirichlet.end(), 1));
}

int find_group(const Mesh& m, const std::string& g) {
  for (const auto& [tag, name] : m.group_names)
    if (name == g) return tag;
  char* end = nullptr;
  const long t = std::strtol(g.c_str(), &end, 10);
  if (!g.empty() && *end == '\0') return static_cast<int>(t);
  return -1;
}

index_t mark_group_dirichlet(Mesh& m, const std::vector<std::string>& groups) {
  const std::string& src = m.source.empty() ? std::string("mesh") : m.source;
  std::vector<int> tags;
  for (const auto& g : groups) {
    const int t = find_group(m, g);
    const bool present = t >= 0 && std::find(m.facet_group.begin(), m.facet_group.end(), t) != m.facet_group.end();
    if (!present) {
      std::string known;
      for (int x : m.facet_group)
        if (known.find("'" + std::to_string(x) + "'") == std::string::npos) {
          const auto it = m.group_names.find(x);
          known += fmt::format("{}'{}'", known.empty() ? "" : ", ",
                               it == m.group_names.end() ? std::to_string(x) : it->second);
        }
      SAGA_REQUIRE(false, "{}: no boundary facets in physical group '{}' (groups with facets: {})", src, g,
                   known.empty() ? "none" : known);
    }
    tags.push_back(t);
  }
  m.dirichlet.assign(m.vertices(), 0);
  for (std::size_t f = 0; f < m.facet_group.size(); ++f)
    if (std::find(tags.begin(), tags.end(), m.facet_group[f]) != tags.end())
      for (int k = 0; k < m.dim; ++k) m.dirichlet[m.facets[f * m.dim + k]] = 1;
  return static_cast<index_t>(std::count(m.dirichlet.begin(), m.dirichlet.end(), 1));
}

std::int64_t interior_edges(const Mesh& m) {
  const int d = m.dim;
  std::vector<std::uint64_t> edges;
  edges.reserve(m.cells.size() * d);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const index_t* v = &m.cells[static_cast<std::size_t>(c) * (d + 1)];
    for (int a = 0; a <= d; ++a)
      for (int b = a + 1; b <= d; ++b) {
        if (m.dirichlet[v[a]] || m.dirichlet[v[b]]) continue;
        const std::uint64_t lo = std::min(v[a], v[b]), hi = std::max(v[a], v[b]);
        edges.push_back(lo << 32 | hi);
      }
  }
  std::sort(edges.begin(), edges.end());
  return std::unique(edges.begin(), edges.end()) - edges.begin();
}

}  // namespace saga
