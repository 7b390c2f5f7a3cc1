#include "sparse/matrix_market.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/file.hpp"
#include "core/host_memory.hpp"
#include "sparse/coo.hpp"

namespace saga {

namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

struct LineReader {
  std::istream& in;
  std::string name;
  long line = 0;
  bool next(std::string& s) {
    while (std::getline(in, s)) {
      ++line;
      if (!s.empty() && s.back() == '\r') s.pop_back();
      return true;
    }
    return false;
  }
  // Next line that is neither a comment nor blank.
  bool next_data(std::string& s) {
    while (next(s)) {
      const auto p = s.find_first_not_of(" \t");
      if (p == std::string::npos || s[p] == '%') continue;
      return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& what) const {
    if (line == 0) throw InputError(fmt::format("{}: {}", name, what));
    throw InputError(fmt::format("{}:{}: {}", name, line, what));
  }
};

enum class Field { real, integer, pattern };

struct Header {
  bool coordinate = true;
  Field field = Field::real;
  bool symmetric = false;
};

Header read_header(LineReader& r) {
  std::string s;
  if (!r.next(s)) r.fail("empty file (expected a %%MatrixMarket header)");
  std::istringstream ss(s);
  std::string banner, object, format, field, symmetry;
  ss >> banner >> object >> format >> field >> symmetry;
  if (banner != "%%MatrixMarket") r.fail("missing %%MatrixMarket header");
  if (lower(object) != "matrix") r.fail(fmt::format("unsupported object '{}' (expected matrix)", object));
  Header h;
  format = lower(format);
  if (format == "coordinate")
    h.coordinate = true;
  else if (format == "array")
    h.coordinate = false;
  else
    r.fail(fmt::format("unsupported format '{}' (expected coordinate or array)", format));
  field = lower(field);
  if (field == "real" || field == "double")
    h.field = Field::real;
  else if (field == "integer")
    h.field = Field::integer;
  else if (field == "pattern" && h.coordinate)
    h.field = Field::pattern;
  else
    r.fail(fmt::format("unsupported field '{}' (expected real, integer or pattern)", field));
  symmetry = lower(symmetry);
  if (symmetry == "general")
    h.symmetric = false;
  else if (symmetry == "symmetric")
    h.symmetric = true;
  else
    r.fail(fmt::format("unsupported symmetry '{}' (expected general or symmetric)", symmetry));
  return h;
}

double parse_value(LineReader& r, std::istringstream& ss, Field f) {
  if (f == Field::pattern) return 1.0;
  std::string tok;
  if (!(ss >> tok)) r.fail("missing value");
  try {
    std::size_t used = 0;
    const double v = f == Field::integer ? static_cast<double>(std::stoll(tok, &used)) : std::stod(tok, &used);
    if (used != tok.size()) r.fail(fmt::format("malformed number '{}'", tok));
    if (!std::isfinite(v)) r.fail(fmt::format("value '{}' is not finite", tok));
    return v;
  } catch (const std::out_of_range&) {
    r.fail(fmt::format("value '{}' is outside the range of double precision (about 1e-308 to 1e308)", tok));
  } catch (const std::logic_error&) {
    r.fail(fmt::format("malformed number '{}'", tok));
  }
}

void expect_end(LineReader& r, std::istringstream& ss) {
  std::string extra;
  if (ss >> extra) r.fail(fmt::format("unexpected trailing text '{}'", extra));
}
}  // namespace

CsrMatrix read_matrix_market(std::istream& in, const std::string& name) {
  LineReader r{in, name};
  const Header h = read_header(r);
  if (!h.coordinate) r.fail("dense 'array' format given where a sparse matrix was expected");
  std::string s;
  if (!r.next_data(s)) r.fail("missing size line");
  std::istringstream sz(s);
  long long rows = -1, cols = -1, entries = -1;
  if (!(sz >> rows >> cols >> entries) || rows < 0 || cols < 0 || entries < 0)
    r.fail("malformed size line (expected: rows cols entries)");
  expect_end(r, sz);
  if (rows > 0x7fffffff || cols > 0x7fffffff) r.fail("matrix dimensions exceed 32-bit indices");
  if (h.symmetric && rows != cols) r.fail("symmetric matrix must be square");
  // What the declared size will take (triplets; per row the CSR, its copies
  // and the vectors a solve keeps)
  // against what the machine has: a wrong or huge size line fails here, not
  // after minutes of swapping.
  const std::size_t stored = static_cast<std::size_t>(entries) * (h.symmetric ? 2 : 1);
  const double need = 32.0 * static_cast<double>(stored) + 40.0 * static_cast<double>(std::max(rows, cols) + 1);
  const double have = static_cast<double>(available_host_memory());
  if (need > have)
    r.fail(fmt::format("the size line declares a {} x {} matrix with {} entries: reading it needs about {:.1f} GB "
                       "of host memory and {:.1f} GB are available",
                       rows, cols, entries, need / 1e9, have / 1e9));
  std::vector<index_t> ri, ci;
  std::vector<double> v;
  const std::size_t cap = std::min<std::size_t>(stored, std::size_t(1) << 24);  // grows past that as entries come
  ri.reserve(cap);
  ci.reserve(cap);
  v.reserve(cap);
  for (long long k = 0; k < entries; ++k) {
    if (!r.next_data(s)) r.fail(fmt::format("file ends after {} of {} entries", k, entries));
    std::istringstream ls(s);
    long long i = 0, j = 0;
    if (!(ls >> i >> j)) r.fail("malformed entry (expected: row col [value])");
    if (i < 1 || i > rows || j < 1 || j > cols)
      r.fail(fmt::format("entry ({}, {}) outside the {}x{} matrix (indices are 1-based)", i, j, rows, cols));
    const double val = parse_value(r, ls, h.field);
    expect_end(r, ls);
    if (h.symmetric && j > i) r.fail(fmt::format("symmetric file has an upper-triangle entry ({}, {})", i, j));
    ri.push_back(static_cast<index_t>(i - 1));
    ci.push_back(static_cast<index_t>(j - 1));
    v.push_back(val);
    if (h.symmetric && i != j) {
      ri.push_back(static_cast<index_t>(j - 1));
      ci.push_back(static_cast<index_t>(i - 1));
      v.push_back(val);
    }
  }
  if (r.next_data(s)) r.fail(fmt::format("more entries than the {} announced", entries));
  CooMatrix coo;
  coo.rows = static_cast<index_t>(rows);
  coo.cols = static_cast<index_t>(cols);
  coo.row = Array<index_t>::from_vector(ri, Space::host);
  coo.col = Array<index_t>::from_vector(ci, Space::host);
  coo.val = Array<double>::from_vector(v, Space::host);
  return coo_to_csr(coo);
}

CsrMatrix read_matrix_market(const std::string& path) {
  std::ifstream in = open_input_file(path, "Matrix Market file");
  return read_matrix_market(in, path);
}

void write_matrix_market(const CsrMatrix& A, std::ostream& out) {
  const HostCsr h = to_host_csr(A);
  out << "%%MatrixMarket matrix coordinate real general\n";
  out << "% written by saga\n";
  out << h.rows << ' ' << h.cols << ' ' << h.col.size() << '\n';
  for (index_t i = 0; i < h.rows; ++i)
    for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k)
      out << fmt::format("{} {} {:.17g}\n", i + 1, h.col[k] + 1, h.val[k]);
}

void write_matrix_market(const CsrMatrix& A, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError(fmt::format("cannot write Matrix Market file '{}'", path));
  write_matrix_market(A, out);
  if (!out) throw InputError(fmt::format("error while writing '{}'", path));
}

DenseMatrix read_matrix_market_array(const std::string& path) {
  std::ifstream in = open_input_file(path, "Matrix Market array file");
  LineReader r{in, path};
  const Header h = read_header(r);
  if (h.coordinate) r.fail("expected a dense 'array' matrix (rows x columns values, column by column)");
  std::string s;
  if (!r.next_data(s)) r.fail("missing size line");
  std::istringstream sz(s);
  long long rows = -1, cols = -1;
  if (!(sz >> rows >> cols) || rows < 0 || cols < 1) r.fail("malformed size line (expected: rows columns)");
  expect_end(r, sz);
  if (rows > 0x7fffffff) r.fail("array rows exceed 32-bit indices");
  const double need = 16.0 * static_cast<double>(rows) * static_cast<double>(cols);
  const double have = static_cast<double>(available_host_memory());
  if (need > have)
    r.fail(fmt::format("the size line declares a {} x {} array: reading it needs about {:.1f} GB of host memory and "
                       "{:.1f} GB are available",
                       rows, cols, need / 1e9, have / 1e9));
  DenseMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.values.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  // The format lists the values column by column; kept row-major here.
  for (long long c = 0; c < cols; ++c)
    for (long long i = 0; i < rows; ++i) {
      if (!r.next_data(s))
        r.fail(fmt::format("file ends before all {} x {} array entries were read (at row {}, column {})", rows, cols,
                           i + 1, c + 1));
      std::istringstream ls(s);
      m.values[static_cast<std::size_t>(i * cols + c)] = parse_value(r, ls, h.field);
      expect_end(r, ls);
    }
  return m;
}

Vector read_matrix_market_vector(const std::string& path) {
  DenseMatrix m = read_matrix_market_array(path);
  if (m.cols != 1)
    throw InputError(fmt::format("{}: expected a vector (one column), the array has {} columns", path, m.cols));
  return Vector::from_vector(m.values, Space::host, "Matrix Market vector");
}

void write_matrix_market_vector(const Vector& x, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError(fmt::format("cannot write Matrix Market file '{}'", path));
  out << "%%MatrixMarket matrix array real general\n" << x.size() << " 1\n";
  for (double v : x.to_vector()) out << fmt::format("{:.17g}\n", v);
}

}  // namespace saga
