#pragma once
// Options and Component: how a user's choice reaches a component, independent
// of where it was written (YAML config, C++ API, later C and Python).
//
//   Options   key -> scalar text, each with where it came from ("file:line:col"
//             for a config entry, empty when set from code);
//   Component one (name, options) node: which smoother / Krylov method /
//             SpGEMM / ... and its settings.
//
// A component parses and checks its own options (core/parameters.hpp); this
// file only carries them, so the library needs no YAML or JSON dependency.
#include <map>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace saga {

struct Option {
  std::string text;   // the value as written
  std::string where;  // "file:line:col" or "" (set from code)
};

class Options {
 public:
  Options() = default;
  // Options{{"degree", "3"}, {"omega", "0.7"}}
  Options(std::initializer_list<std::pair<const std::string, std::string>> kv) {
    for (const auto& [k, v] : kv) values_[k] = Option{v, ""};
  }
  // Sets a value from code (numbers in their shortest exact form: 0.7 -> "0.7").
  template <class T>
  Options& set(const std::string& key, const T& value, const std::string& where = "") {
    values_[key] = Option{fmt::format("{}", value), where};
    return *this;
  }
  Options& set(const std::string& key, const std::string& text, const std::string& where = "") {
    values_[key] = Option{text, where};
    return *this;
  }
  Options& set(const std::string& key, const char* text, const std::string& where = "") {
    return set(key, std::string(text), where);
  }
  const Option* find(const std::string& key) const {
    auto it = values_.find(key);
    return it == values_.end() ? nullptr : &it->second;
  }
  bool empty() const { return values_.empty(); }
  // The options whose keys are in `keys`, and the rest (each keeps its where).
  std::pair<Options, Options> split(const std::set<std::string>& keys) const {
    std::pair<Options, Options> out;
    for (const auto& [k, o] : values_) (keys.count(k) ? out.first : out.second).values_[k] = o;
    return out;
  }
  const std::map<std::string, Option>& values() const { return values_; }

 private:
  std::map<std::string, Option> values_;
};

// One stage choice: a registered component's name and its options. Converts
// from a plain name, so `params.smoother = "jacobi"` works.
struct Component {
  std::string name;
  Options options;
  std::string where;  // where the name was written ("" from code)

  Component() = default;
  Component(const char* n) : name(n) {}
  Component(std::string n) : name(std::move(n)) {}
  Component(std::string n, Options o) : name(std::move(n)), options(std::move(o)) {}
  bool operator==(const std::string& n) const { return name == n; }
  bool operator!=(const std::string& n) const { return name != n; }
};

}  // namespace saga
