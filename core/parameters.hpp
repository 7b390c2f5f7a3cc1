#pragma once
// Parameters declared once. A component's parameter struct lists each field a
// single time, with its key, documentation and allowed range:
//
//   struct Params {
//     int degree = 2;
//     double lower = 1.0 / 30;
//     template <class V> void visit(V& v) {
//       v("degree", degree, "polynomial degree", in_range(1, 16));
//       v("lower", lower, "lower bound as a fraction of rho", open_range(0, 1));
//     }
//   };
//
// The same visit() then reads Options (errors name file:line:col, the key and
// what was expected), validates values set from code, lists the values for
// reports, and documents the parameters (`saga info --components`).
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "core/options.hpp"

namespace saga {

// Allowed values of a numeric parameter ([lo, hi], either end open), and
// whether the word 'auto' stands for 0 ("computed").
struct Check {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false, hi_open = false;
  bool auto_zero = false;
  std::vector<std::string> choices;  // for strings: the allowed words (empty = any)

  bool ok(double x) const {
    if (std::isnan(x)) return false;
    if (auto_zero && x == 0) return true;
    if (lo_open ? !(x > lo) : !(x >= lo)) return false;
    if (hi_open ? !(x < hi) : !(x <= hi)) return false;
    return true;
  }
  std::string describe() const;
};
inline Check any_value() { return {}; }
inline Check in_range(double lo, double hi, bool lo_open = false, bool hi_open = false) {
  Check c;
  c.lo = lo, c.hi = hi, c.lo_open = lo_open, c.hi_open = hi_open;
  return c;
}
inline Check at_least(double lo) { return in_range(lo, std::numeric_limits<double>::infinity()); }
inline Check positive() { return in_range(0, std::numeric_limits<double>::infinity(), true, false); }
inline Check open_range(double lo, double hi) { return in_range(lo, hi, true, true); }
// >= 0, where 0 (or the word auto) means "computed by saga".
inline Check zero_is_auto() {
  Check c = at_least(0);
  c.auto_zero = true;
  return c;
}
// [lo, hi], or 0 (the word auto): "computed by saga".
inline Check in_range_or_auto(double lo, double hi) {
  Check c = in_range(lo, hi);
  c.auto_zero = true;
  return c;
}
inline Check one_of(std::vector<std::string> words) {
  Check c;
  c.choices = std::move(words);
  return c;
}

// A list field reads comma-separated text ("feet,walls"); a map field of
// numbers collects every option "key.NAME" (a YAML mapping under key).
using StringList = std::vector<std::string>;
using NumberMap = std::map<std::string, double>;
using ParamValue = std::variant<bool, std::int64_t, double, std::string, StringList, NumberMap>;
struct ParamEntry {
  std::string key;
  ParamValue value;
};
using ParamList = std::vector<ParamEntry>;
std::string to_string(const ParamValue& v);
// "a, b, c": the lists of names and keys in messages.
std::string join_names(const std::vector<std::string>& names);

struct ParamDoc {
  std::string key, type, default_value, range, doc;
};

// Reads Options into a parameter struct. `prefix` names the node in messages
// ("amg.smoother", "solver"). Keys absent from the options keep their current
// value, which is validated too, so reading empty Options validates a struct
// filled in from code.
class ParamReader {
 public:
  ParamReader(const Options& options, std::string prefix, std::set<std::string> also_allowed = {})
      : options_(options), prefix_(std::move(prefix)), allowed_(std::move(also_allowed)) {}

  template <class T>
  void operator()(const char* key, T& field, const char* /*doc*/, const Check& check = {}) {
    known_.insert(key);
    const Option* o = options_.find(key);
    if (o) parse(*o, key, field, check);
    validate(o, key, field, check);
  }
  void operator()(const char* key, NumberMap& field, const char* doc, const Check& check = {});
  // Throws for keys no parameter claimed, listing the known ones.
  void finish() const;

 private:
  [[noreturn]] void fail(const Option* o, const std::string& key, const std::string& msg) const;
  void parse(const Option& o, const char* key, bool& out, const Check&) const;
  void parse(const Option& o, const char* key, double& out, const Check& c) const;
  void parse(const Option& o, const char* key, std::string& out, const Check&) const { (void)key; out = o.text; }
  void parse(const Option& o, const char* key, StringList& out, const Check&) const;
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  void parse(const Option& o, const char* key, I& out, const Check& c) const {
    if (c.auto_zero && o.text == "auto") {
      out = 0;
      return;
    }
    const long long v = parse_integer(o, key);
    if (v < static_cast<long long>(std::numeric_limits<I>::min()) ||
        v > static_cast<long long>(std::numeric_limits<I>::max()))
      fail(&o, key, fmt::format("{} is out of range for an integer parameter", o.text));
    out = static_cast<I>(v);
  }
  long long parse_integer(const Option& o, const char* key) const;

  void validate(const Option* o, const char* key, const bool&, const Check&) const {
    (void)o;
    (void)key;
  }
  void validate(const Option* o, const char* key, const std::string& v, const Check& c) const;
  void validate(const Option* o, const char* key, const StringList& v, const Check& c) const {
    for (const auto& x : v) validate(o, key, x, c);
  }
  template <class N, std::enable_if_t<std::is_arithmetic_v<N> && !std::is_same_v<N, bool>, int> = 0>
  void validate(const Option* o, const char* key, const N& v, const Check& c) const {
    if (!c.ok(static_cast<double>(v)))
      fail(o, key, fmt::format("{} is not allowed (expected {})", v, c.describe()));
  }

  const Options& options_;
  std::string prefix_;
  std::set<std::string> allowed_;
  std::set<std::string> known_;
  std::set<std::string> known_prefixes_;  // map fields: "key." claims "key.NAME"
};

// Lists a struct's parameter values (for reports).
class ParamLister {
 public:
  template <class T>
  void operator()(const char* key, const T& field, const char*, const Check& = {}) {
    if constexpr (std::is_same_v<T, bool>)
      list.push_back({key, field});
    else if constexpr (std::is_integral_v<T>)
      list.push_back({key, static_cast<std::int64_t>(field)});
    else if constexpr (std::is_floating_point_v<T>)
      list.push_back({key, static_cast<double>(field)});
    else if constexpr (std::is_same_v<T, StringList> || std::is_same_v<T, NumberMap>)
      list.push_back({key, field});
    else
      list.push_back({key, std::string(field)});
  }
  ParamList list;
};

// Documents a struct's parameters (key, type, default, range, text).
class ParamDocumenter {
 public:
  template <class T>
  void operator()(const char* key, const T& field, const char* doc, const Check& check = {}) {
    ParamDoc d;
    d.key = key;
    d.doc = doc;
    if constexpr (std::is_same_v<T, bool>)
      d.type = "bool";
    else if constexpr (std::is_integral_v<T>)
      d.type = "integer";
    else if constexpr (std::is_floating_point_v<T>)
      d.type = "number";
    else if constexpr (std::is_same_v<T, StringList>)
      d.type = "list";
    else if constexpr (std::is_same_v<T, NumberMap>)
      d.type = "map";
    else
      d.type = "string";
    ParamLister l;
    l(key, field, doc);
    d.default_value = to_string(l.list.front().value);
    d.range = check.describe();
    docs.push_back(std::move(d));
  }
  std::vector<ParamDoc> docs;
};

// Reads `options` over the current values of `p` and validates them.
template <class P>
void read_params(P& p, const Options& options, const std::string& prefix,
                 const std::set<std::string>& also_allowed = {}) {
  ParamReader r(options, prefix, also_allowed);
  p.visit(r);
  r.finish();
}
template <class P>
P read_params(const Options& options, const std::string& prefix) {
  P p;
  read_params(p, options, prefix);
  return p;
}
template <class P>
ParamList list_params(P p) {
  ParamLister l;
  p.visit(l);
  return l.list;
}
template <class P>
std::vector<ParamDoc> document_params() {
  P p;
  ParamDocumenter d;
  p.visit(d);
  return d.docs;
}

// The keys a parameter struct declares.
template <class P>
std::set<std::string> param_keys() {
  std::set<std::string> keys;
  for (const auto& d : document_params<P>()) keys.insert(d.key);
  return keys;
}

// A component without parameters.
struct NoParams {
  template <class V>
  void visit(V&) {}
};

}  // namespace saga
