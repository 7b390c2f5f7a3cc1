#include "problems/gmsh_reader.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "core/error.hpp"
#include "core/file.hpp"

namespace saga {

namespace {

// Line-by-line reader that knows where it is, with number parsing that reports
// the line of a bad token.
class MshLines {
 public:
  MshLines(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  bool next() {
    if (!std::getline(in_, line_)) return false;
    ++line_no_;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    pos_ = line_.c_str();
    return true;
  }
  void require(const char* what) {
    if (!next()) throw InputError(fmt::format("{}:{}: unexpected end of file, expected {}", name_, line_no_, what));
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw InputError(fmt::format("{}:{}: {}", name_, line_no_, msg));
  }
  const std::string& line() const { return line_; }
  std::string trimmed() const {
    const auto b = line_.find_first_not_of(" \t"), e = line_.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : line_.substr(b, e - b + 1);
  }
  long long integer(const char* what) {
    skip_space();
    if (!*pos_) fail(fmt::format("missing {}", what));
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(pos_, &end, 10);
    if (end == pos_ || errno || (*end && *end != ' ' && *end != '\t'))
      fail(fmt::format("{}: '{}' is not an integer", what, token()));
    pos_ = end;
    return v;
  }
  double real(const char* what) {
    skip_space();
    if (!*pos_) fail(fmt::format("missing {}", what));
    char* end = nullptr;
    const double v = std::strtod(pos_, &end);
    if (end == pos_ || (*end && *end != ' ' && *end != '\t'))
      fail(fmt::format("{}: '{}' is not a number", what, token()));
    if (!std::isfinite(v)) fail(fmt::format("{} is not finite", what));
    pos_ = end;
    return v;
  }
  // A double-quoted string (physical names).
  std::string quoted(const char* what) {
    skip_space();
    if (*pos_ != '"') fail(fmt::format("{}: expected a double-quoted name", what));
    const char* e = std::strchr(pos_ + 1, '"');
    if (!e) fail(fmt::format("{}: unterminated name", what));
    std::string s(pos_ + 1, e);
    pos_ = e + 1;
    return s;
  }
  long long count(const char* what) {
    const long long n = integer(what);
    if (n < 0) fail(fmt::format("{} is negative ({})", what, n));
    return n;
  }
  void end_of_line() {
    skip_space();
    if (*pos_) fail(fmt::format("unexpected '{}' at the end of the line", token()));
  }
  void expect_end(const std::string& section) {
    require(("$End" + section).c_str());
    if (trimmed() != "$End" + section) fail(fmt::format("expected $End{}, found '{}'", section, trimmed()));
  }
  // Skips an unknown section up to its $End line.
  void skip_section(const std::string& section) {
    while (true) {
      require(("$End" + section).c_str());
      if (trimmed() == "$End" + section) return;
    }
  }

 private:
  void skip_space() {
    while (*pos_ == ' ' || *pos_ == '\t') ++pos_;
  }
  std::string token() const {
    const char* e = pos_;
    while (*e && *e != ' ' && *e != '\t') ++e;
    return std::string(pos_, e);
  }
  std::istream& in_;
  std::string name_;
  std::string line_;
  const char* pos_ = "";
  long long line_no_ = 0;
};

// Gmsh element types saga reads, and the number of nodes of each.
int nodes_of_type(long long type) {
  switch (type) {
    case 15: return 1;  // point
    case 1: return 2;   // line
    case 2: return 3;   // triangle
    case 4: return 4;   // tetrahedron
    default: return 0;
  }
}
const char* unsupported_type_name(long long type) {
  switch (type) {
    case 3: return "quadrangle";
    case 5: return "hexahedron";
    case 6: return "prism";
    case 7: return "pyramid";
    case 8: return "second-order line";
    case 9: return "second-order triangle";
    case 11: return "second-order tetrahedron";
    default: return "unknown";
  }
}

struct RawElement {
  int type;
  int group;
  long long nodes[4];
};

struct RawMesh {
  std::unordered_map<long long, index_t> node_index;
  std::vector<double> xyz;
  std::vector<RawElement> elements;
  std::map<int, std::string> names;
};

void read_physical_names(MshLines& r, RawMesh& raw) {
  r.require("the number of physical names");
  const long long n = r.count("number of physical names");
  r.end_of_line();
  for (long long k = 0; k < n; ++k) {
    r.require("a physical name");
    r.integer("physical dimension");
    const long long tag = r.integer("physical tag");
    raw.names[static_cast<int>(tag)] = r.quoted("physical name");
  }
  r.expect_end("PhysicalNames");
}

void add_node(MshLines& r, RawMesh& raw, long long tag, double x, double y, double z) {
  const auto [it, fresh] = raw.node_index.emplace(tag, static_cast<index_t>(raw.xyz.size() / 3));
  if (!fresh) r.fail(fmt::format("node {} is defined twice", tag));
  raw.xyz.insert(raw.xyz.end(), {x, y, z});
}

void add_element(MshLines& r, RawMesh& raw, long long tag, long long type, int group) {
  const int nn = nodes_of_type(type);
  if (!nn)
    r.fail(fmt::format("element {} has type {} ({}): saga assembles P1 elements on triangles and tetrahedra only "
                       "(mesh with Mesh.ElementOrder = 1 and no recombination)",
                       tag, type, unsupported_type_name(type)));
  RawElement e{static_cast<int>(type), group, {0, 0, 0, 0}};
  for (int k = 0; k < nn; ++k) {
    e.nodes[k] = r.integer("element node");
    if (!raw.node_index.count(e.nodes[k]))
      r.fail(fmt::format("element {} refers to node {}, which is not defined", tag, e.nodes[k]));
  }
  r.end_of_line();
  raw.elements.push_back(e);
}

// Room reserved for a count the file declares: at most 2^20 up front, the
// rest as entries actually arrive (a corrupt count must not allocate
// gigabytes before the file runs out).
std::size_t declared(long long n) { return static_cast<std::size_t>(std::min<long long>(std::max(n, 0LL), 1LL << 20)); }

// ---- format 2.2
void read_nodes_v2(MshLines& r, RawMesh& raw) {
  r.require("the number of nodes");
  const long long n = r.count("number of nodes");
  r.end_of_line();
  raw.xyz.reserve(3 * declared(n));
  for (long long k = 0; k < n; ++k) {
    r.require("a node");
    const long long tag = r.integer("node tag");
    const double x = r.real("x"), y = r.real("y"), z = r.real("z");
    r.end_of_line();
    add_node(r, raw, tag, x, y, z);
  }
  r.expect_end("Nodes");
}

void read_elements_v2(MshLines& r, RawMesh& raw) {
  r.require("the number of elements");
  const long long n = r.count("number of elements");
  r.end_of_line();
  raw.elements.reserve(declared(n));
  for (long long k = 0; k < n; ++k) {
    r.require("an element");
    const long long tag = r.integer("element tag");
    const long long type = r.integer("element type");
    const long long ntags = r.count("number of tags");
    int group = 0;
    for (long long t = 0; t < ntags; ++t) {
      const long long v = r.integer("element tag value");
      if (t == 0) group = static_cast<int>(v);  // the first tag is the physical group
    }
    add_element(r, raw, tag, type, group);
  }
  r.expect_end("Elements");
}

// ---- format 4.1
using EntityGroups = std::map<std::pair<int, int>, int>;  // (dim, entity tag) -> first physical tag

void read_entities_v4(MshLines& r, EntityGroups& groups) {
  r.require("the entity counts");
  long long counts[4];
  for (auto& c : counts) c = r.count("number of entities");
  r.end_of_line();
  for (int dim = 0; dim < 4; ++dim)
    for (long long k = 0; k < counts[dim]; ++k) {
      r.require("an entity");
      const long long tag = r.integer("entity tag");
      for (int c = 0; c < (dim == 0 ? 3 : 6); ++c) r.real("entity coordinate");
      const long long np = r.count("number of physical tags");
      int group = 0;
      for (long long t = 0; t < np; ++t) {
        const long long g = r.integer("physical tag");
        if (t == 0) group = static_cast<int>(g);
      }
      if (dim > 0) {
        const long long nb = r.count("number of bounding entities");
        for (long long b = 0; b < nb; ++b) r.integer("bounding entity");
      }
      r.end_of_line();
      groups[{dim, static_cast<int>(tag)}] = group;
    }
  r.expect_end("Entities");
}

void read_nodes_v4(MshLines& r, RawMesh& raw) {
  r.require("the node block header");
  const long long blocks = r.count("number of node blocks"), total = r.count("number of nodes");
  r.integer("minimum node tag");
  r.integer("maximum node tag");
  r.end_of_line();
  raw.xyz.reserve(3 * declared(total));
  long long seen = 0;
  std::vector<long long> tags;
  for (long long b = 0; b < blocks; ++b) {
    r.require("a node block");
    const long long dim = r.integer("entity dimension");
    r.integer("entity tag");
    const long long parametric = r.integer("parametric flag");
    const long long n = r.count("nodes in block");
    r.end_of_line();
    tags.clear();
    tags.reserve(declared(n));
    for (long long k = 0; k < n; ++k) {
      r.require("a node tag");
      tags.push_back(r.integer("node tag"));
      r.end_of_line();
    }
    for (long long k = 0; k < n; ++k) {
      r.require("node coordinates");
      const double x = r.real("x"), y = r.real("y"), z = r.real("z");
      if (parametric)
        for (long long p = 0; p < dim; ++p) r.real("parametric coordinate");
      r.end_of_line();
      add_node(r, raw, tags[k], x, y, z);
    }
    seen += n;
  }
  if (seen != total) r.fail(fmt::format("the node blocks hold {} nodes, the header says {}", seen, total));
  r.expect_end("Nodes");
}

void read_elements_v4(MshLines& r, RawMesh& raw, const EntityGroups& groups) {
  r.require("the element block header");
  const long long blocks = r.count("number of element blocks"), total = r.count("number of elements");
  r.integer("minimum element tag");
  r.integer("maximum element tag");
  r.end_of_line();
  raw.elements.reserve(declared(total));
  long long seen = 0;
  for (long long b = 0; b < blocks; ++b) {
    r.require("an element block");
    const long long dim = r.integer("entity dimension");
    const long long entity = r.integer("entity tag");
    const long long type = r.integer("element type");
    const long long n = r.count("elements in block");
    r.end_of_line();
    const auto it = groups.find({static_cast<int>(dim), static_cast<int>(entity)});
    const int group = it == groups.end() ? 0 : it->second;
    for (long long k = 0; k < n; ++k) {
      r.require("an element");
      const long long tag = r.integer("element tag");
      add_element(r, raw, tag, type, group);
    }
    seen += n;
  }
  if (seen != total) r.fail(fmt::format("the element blocks hold {} elements, the header says {}", seen, total));
  r.expect_end("Elements");
}

Mesh to_mesh(MshLines& r, RawMesh& raw, const std::string& name) {
  bool has_tet = false, has_tri = false;
  for (const auto& e : raw.elements) {
    has_tet = has_tet || e.type == 4;
    has_tri = has_tri || e.type == 2;
  }
  if (!has_tet && !has_tri) r.fail("the mesh has no triangles or tetrahedra");
  Mesh m;
  m.dim = has_tet ? 3 : 2;
  m.source = name;
  m.group_names = raw.names;
  const int cell_type = has_tet ? 4 : 2, facet_type = has_tet ? 2 : 1;
  // Number the vertices the cells use, in order of first use.
  std::vector<index_t> compact(raw.xyz.size() / 3, -1);
  std::vector<index_t> used;
  auto index_of = [&](long long tag) {
    const auto it = raw.node_index.find(tag);
    if (it == raw.node_index.end()) r.fail(fmt::format("an element refers to node {}, which is not defined", tag));
    return it->second;
  };
  for (const auto& e : raw.elements) {
    if (e.type != cell_type) continue;
    for (int k = 0; k <= m.dim; ++k) {
      const index_t v = index_of(e.nodes[k]);
      if (compact[v] < 0) {
        compact[v] = static_cast<index_t>(used.size());
        used.push_back(v);
      }
      m.cells.push_back(compact[v]);
    }
    m.cell_group.push_back(e.group);
  }
  for (const auto& e : raw.elements) {
    if (e.type != facet_type) continue;
    index_t f[3];
    bool inside = true;
    for (int k = 0; k < m.dim; ++k) {
      f[k] = compact[index_of(e.nodes[k])];
      inside = inside && f[k] >= 0;
    }
    if (!inside) continue;  // a boundary element of no cell (say, of an unmeshed region)
    m.facets.insert(m.facets.end(), f, f + m.dim);
    m.facet_group.push_back(e.group);
  }
  m.coords.reserve(used.size() * m.dim);
  const double z0 = raw.xyz[3 * used[0] + 2];
  for (index_t v : used) {
    if (m.dim == 2 && std::abs(raw.xyz[3 * v + 2] - z0) > 1e-12 * (1 + std::abs(z0)))
      throw InputError(fmt::format("{}: a 2D (triangle) mesh must lie in a plane z = const", name));
    for (int k = 0; k < m.dim; ++k) m.coords.push_back(raw.xyz[3 * v + k]);
  }
  return m;
}

Mesh read(std::istream& in, const std::string& name) {
  MshLines r(in, name);
  RawMesh raw;
  EntityGroups groups;
  int version = 0;
  bool have_nodes = false, have_elements = false;
  while (r.next()) {
    const std::string head = r.trimmed();
    if (head.empty()) continue;
    if (head[0] != '$') r.fail(fmt::format("expected a section ($MeshFormat, $Nodes, ...), found '{}'", head));
    const std::string section = head.substr(1);
    if (section == "MeshFormat") {
      r.require("the format version");
      const double v = r.real("format version");
      const long long file_type = r.integer("file type");
      r.integer("data size");
      if (file_type != 0) r.fail("binary .msh files are not supported; save the mesh as ASCII");
      if (std::abs(v - 2.2) < 1e-9) {
        version = 2;
      } else if (std::abs(v - 4.1) < 1e-9) {
        version = 4;
      } else {
        r.fail(fmt::format("format version {} is not supported (2.2 and 4.1 are; gmsh -format msh22 or msh41)", v));
      }
      r.expect_end("MeshFormat");
      continue;
    }
    if (!version) r.fail(fmt::format("${} before $MeshFormat", section));
    if (section == "PhysicalNames") {
      read_physical_names(r, raw);
    } else if (section == "Entities" && version == 4) {
      read_entities_v4(r, groups);
    } else if (section == "Nodes") {
      if (have_nodes) r.fail("a second $Nodes section");
      version == 2 ? read_nodes_v2(r, raw) : read_nodes_v4(r, raw);
      have_nodes = true;
    } else if (section == "Elements") {
      if (have_elements) r.fail("a second $Elements section");
      version == 2 ? read_elements_v2(r, raw) : read_elements_v4(r, raw, groups);
      have_elements = true;
    } else if (section.rfind("End", 0) == 0) {
      r.fail(fmt::format("'{}' without a matching section", head));
    } else {
      r.skip_section(section);  // $NodeData, $Periodic, ... carry nothing saga needs
    }
  }
  if (!version) throw InputError(fmt::format("{}: not a Gmsh mesh (no $MeshFormat section)", name));
  if (!have_nodes || !have_elements)
    throw InputError(fmt::format("{}: the file ends without a {} section", name, have_nodes ? "$Elements" : "$Nodes"));
  return to_mesh(r, raw, name);  // assemble_p1 validates the cells (degenerate ones are errors there)
}

}  // namespace

Mesh read_gmsh(const std::string& path) {
  std::ifstream in = open_input_file(path, "mesh file");
  return read(in, path);
}

Mesh read_gmsh_text(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return read(in, name);
}

}  // namespace saga
