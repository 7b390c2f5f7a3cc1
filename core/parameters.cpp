#include "core/parameters.hpp"

#include <cerrno>
#include <cstdlib>

namespace saga {

namespace {
std::string number(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", x);
}
}  // namespace

std::string join_names(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string Check::describe() const {
  if (!choices.empty()) return "one of " + join_names(choices);
  const bool no_lo = std::isinf(lo), no_hi = std::isinf(hi);
  std::string s;
  if (no_lo && no_hi)
    s = "any value";
  else if (no_hi)
    s = (lo_open ? "> " : ">= ") + number(lo);
  else if (no_lo)
    s = (hi_open ? "< " : "<= ") + number(hi);
  else
    s = fmt::format("{}{}, {}{}", lo_open ? "(" : "[", number(lo), number(hi), hi_open ? ")" : "]");
  if (auto_zero) s += " (0 or auto: computed)";
  return s;
}

std::string to_string(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>)
          return x ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::string>)
          return x;
        else if constexpr (std::is_same_v<T, StringList>)
          return join_names(x);
        else if constexpr (std::is_same_v<T, NumberMap>) {
          std::string s;
          for (const auto& [k, v] : x) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", k, v);
          return s;
        }
        else
          return fmt::format("{}", x);
      },
      v);
}

void ParamReader::fail(const Option* o, const std::string& key, const std::string& msg) const {
  const std::string name = prefix_.empty() ? key : prefix_ + "." + key;
  if (o && !o->where.empty()) throw InputError(fmt::format("{}: {}: {}", o->where, name, msg));
  throw InputError(fmt::format("{}: {}", name, msg));
}

void ParamReader::operator()(const char* key, NumberMap& field, const char*, const Check& check) {
  known_.insert(key);
  const std::string prefix = std::string(key) + ".";
  known_prefixes_.insert(prefix);
  bool any = false;
  for (const auto& [k, o] : options_.values()) {
    if (k.rfind(prefix, 0) != 0) continue;
    if (!any) field.clear();  // the options replace the default map
    any = true;
    double v = 0;
    parse(o, k.c_str(), v, check);
    validate(&o, k.c_str(), v, check);
    field[k.substr(prefix.size())] = v;
  }
  for (const auto& [name, v] : field)
    if (!check.ok(v)) fail(nullptr, prefix + name, fmt::format("{} is not allowed (expected {})", v, check.describe()));
}

void ParamReader::parse(const Option& o, const char* key, StringList& out, const Check&) const {
  (void)key;
  out.clear();
  std::string item;
  for (char ch : o.text + ",") {
    if (ch == ',') {
      const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
      if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
      item.clear();
    } else {
      item += ch;
    }
  }
}

void ParamReader::finish() const {
  for (const auto& [key, opt] : options_.values()) {
    if (known_.count(key) || allowed_.count(key)) continue;
    bool claimed = false;
    for (const auto& p : known_prefixes_) claimed |= key.rfind(p, 0) == 0;
    if (claimed) continue;
    std::vector<std::string> all(known_.begin(), known_.end());
    all.insert(all.end(), allowed_.begin(), allowed_.end());
    fail(&opt, key, all.empty() ? std::string("unknown key (this component has no parameters)")
                                : "unknown key (known: " + join_names(all) + ")");
  }
}

void ParamReader::parse(const Option& o, const char* key, bool& out, const Check&) const {
  const std::string& t = o.text;
  if (t == "true" || t == "yes" || t == "on" || t == "1")
    out = true;
  else if (t == "false" || t == "no" || t == "off" || t == "0")
    out = false;
  else
    fail(&o, key, fmt::format("expected true or false, got '{}'", t));
}

void ParamReader::parse(const Option& o, const char* key, double& out, const Check& c) const {
  if (c.auto_zero && o.text == "auto") {
    out = 0;
    return;
  }
  const char* s = o.text.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  if (o.text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    fail(&o, key, fmt::format("expected a finite number{}, got '{}'", c.auto_zero ? " or 'auto'" : "", o.text));
  out = v;
}

long long ParamReader::parse_integer(const Option& o, const char* key) const {
  const char* s = o.text.c_str();
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s, &end, 10);
  if (o.text.empty() || *end != '\0' || errno == ERANGE)
    fail(&o, key, fmt::format("expected an integer, got '{}'", o.text));
  return v;
}

void ParamReader::validate(const Option* o, const char* key, const std::string& v, const Check& c) const {
  if (c.choices.empty()) return;
  for (const auto& w : c.choices)
    if (w == v) return;
  fail(o, key, fmt::format("'{}' is not allowed (expected {})", v, c.describe()));
}

}  // namespace saga
