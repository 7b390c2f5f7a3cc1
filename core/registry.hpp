#pragma once
// Registry<Product, Args...>: the one registry template behind every choice a
// user makes (SpGEMM and SpMV algorithms, smoothers, cycles, Krylov methods,
// coarse solvers, problem generators). A component is a class with
//
//   static constexpr const char* name = "jacobi";
//   static constexpr const char* summary = "one line for `saga info`";
//   static constexpr bool runs_on_host = true, runs_on_device = true;
//   struct Params { ...; template <class V> void visit(V& v); };  // core/parameters.hpp
//   static std::unique_ptr<Product> make(const Params&, Args...);
//   static void check(const Params&);   // optional: rules across parameters
//
// and is added with one line, `registry.add<Chebyshev>()`, in the function that
// builds its registry (one per kind, named in docs/design.md). Names are
// checked, with their options, when a config is read or an object is built —
// before any work — and errors list the valid choices. The registry knows its
// default (per backend where they differ), and "auto" or "" resolve to it, so
// reports name what actually ran.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/parameters.hpp"
#include "core/types.hpp"

namespace saga {

namespace registry_detail {
template <class C, class = void>
struct has_check : std::false_type {};
template <class C>
struct has_check<C, std::void_t<decltype(C::check(std::declval<const typename C::Params&>()))>> : std::true_type {};

// Reads and checks a component's parameters; cross-parameter rules (check())
// report with the node's prefix.
template <class C>
typename C::Params read(const Options& o, const std::string& prefix) {
  auto p = read_params<typename C::Params>(o, prefix);
  if constexpr (has_check<C>::value) {
    try {
      C::check(p);
    } catch (const InputError& e) {
      std::string msg = e.what();
      const auto at = msg.rfind(" [");  // drop the source location of SAGA_REQUIRE
      if (at != std::string::npos) msg.resize(at);
      throw InputError(prefix + ": " + msg);
    }
  }
  return p;
}
}  // namespace registry_detail

template <class Product, class... Args>
class Registry {
 public:
  struct Entry {
    std::string name, summary;
    bool host = true, device = true;
    std::function<void(const Options&, const std::string&)> check;        // parse and validate options
    std::function<ParamList(const Options&, const std::string&)> values;  // every parameter, defaults filled in
    std::function<std::vector<ParamDoc>()> docs;
    std::function<std::unique_ptr<Product>(const Options&, const std::string&, Args...)> make;
    bool runs_on(Space s) const { return s == Space::host ? host : device; }
  };

  // kind: "smoother"; key: the config key that selects it ("amg.smoother");
  // prefix: the node its options are written under in messages (default: key).
  Registry(std::string kind, std::string key, std::string prefix = "")
      : kind_(std::move(kind)), key_(std::move(key)), prefix_(prefix.empty() ? key_ : std::move(prefix)) {}

  template <class C>
  Registry& add() {
    using P = typename C::Params;
    Entry e;
    e.name = C::name;
    e.summary = C::summary;
    e.host = C::runs_on_host;
    e.device = C::runs_on_device;
    e.check = [](const Options& o, const std::string& prefix) { registry_detail::read<C>(o, prefix); };
    e.values = [](const Options& o, const std::string& prefix) {
      return list_params(registry_detail::read<C>(o, prefix));
    };
    e.docs = [] { return document_params<P>(); };
    e.make = [](const Options& o, const std::string& prefix, Args... args) {
      return C::make(registry_detail::read<C>(o, prefix), args...);
    };
    entries_.push_back(std::move(e));
    return *this;
  }
  // The default everywhere, or on one backend.
  Registry& set_default(const std::string& name, std::optional<Space> s = std::nullopt) {
    if (s)
      defaults_[*s] = name;
    else
      defaults_[Space::host] = defaults_[Space::device] = name;
    return *this;
  }

  const std::string& kind() const { return kind_; }
  const std::string& key() const { return key_; }
  const std::vector<Entry>& entries() const { return entries_; }
  std::vector<std::string> names(std::optional<Space> s = std::nullopt) const {
    std::vector<std::string> out;
    for (const auto& e : entries_)
      if (!s || e.runs_on(*s)) out.push_back(e.name);
    return out;
  }
  // True when a component of that name is registered (on any backend).
  bool has(const std::string& name) const {
    for (const auto& e : entries_)
      if (e.name == name) return true;
    return false;
  }
  // The default on backend s ("" when nothing runs there in this build).
  std::string default_name(Space s) const {
    auto it = defaults_.find(s);
    return it == defaults_.end() ? std::string() : it->second;
  }
  // The name that runs on s: c.name, or the default for "" and "auto".
  std::string resolve(const Component& c, Space s) const { return entry(c, s).name; }

  // The entry for c on backend s; InputError naming the key, where it was
  // written and the valid choices when c is unknown or does not run on s.
  const Entry& entry(const Component& c, std::optional<Space> s) const {
    std::string name = c.name;
    if (name.empty() || name == "auto") {
      if (!s) return entry(Component(default_name(Space::host)), s);
      name = default_name(*s);
      if (name.empty())
        fail(c, fmt::format("no {} runs on the {} backend in this build", kind_, backend_name(*s)));
    }
    for (const auto& e : entries_) {
      if (e.name != name) continue;
      if (s && !e.runs_on(*s))
        fail(c, fmt::format("{} '{}' does not run on the {} backend (choices there: {})", kind_, name,
                            backend_name(*s), join(names(*s))));
      return e;
    }
    fail(c, fmt::format("unknown {} '{}' (choices: {})", kind_, name, join(names())));
  }
  // Checks the name (and backend, when known) and the options.
  void validate(const Component& c, std::optional<Space> s = std::nullopt) const {
    entry(c, s).check(c.options, prefix_);
  }
  ParamList values(const Component& c, Space s) const { return entry(c, s).values(c.options, prefix_); }
  std::unique_ptr<Product> create(const Component& c, Space s, Args... args) const {
    return entry(c, s).make(c.options, prefix_, args...);
  }

 private:
  static std::string join(const std::vector<std::string>& v) { return v.empty() ? "none" : join_names(v); }
  [[noreturn]] void fail(const Component& c, const std::string& msg) const {
    if (!c.where.empty()) throw InputError(fmt::format("{}: {}: {}", c.where, key_, msg));
    throw InputError(fmt::format("{}: {}", key_, msg));
  }
  std::string kind_, key_, prefix_;
  std::vector<Entry> entries_;
  std::map<Space, std::string> defaults_;
};

}  // namespace saga
