#pragma once
// A small JSON Schema validator for the keywords docs/*.schema.json use: type,
// enum, required, properties, additionalProperties, items, minItems, minimum,
// maximum, exclusiveMinimum, anyOf and local $ref ("#/$defs/name"). Returns one
// message per violation, with the JSON pointer of the offending value.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace saga::test {

class SchemaValidator {
 public:
  explicit SchemaValidator(nlohmann::json schema) : root_(std::move(schema)) {}
  std::vector<std::string> validate(const nlohmann::json& doc) const {
    std::vector<std::string> errors;
    check(root_, doc, "", errors);
    return errors;
  }

 private:
  static bool has_type(const nlohmann::json& v, const std::string& t) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_boolean();
    if (t == "null") return v.is_null();
    if (t == "integer") return v.is_number_integer() || (v.is_number_float() && v.get<double>() == static_cast<long long>(v.get<double>()));
    if (t == "number") return v.is_number();
    return false;
  }
  const nlohmann::json& resolve(const nlohmann::json& s) const {
    if (!s.is_object() || !s.contains("$ref")) return s;
    const std::string ref = s["$ref"];
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0) throw std::runtime_error("unsupported $ref " + ref);
    return root_.at("$defs").at(ref.substr(prefix.size()));
  }
  void check(const nlohmann::json& schema_in, const nlohmann::json& v, const std::string& path,
             std::vector<std::string>& errors) const {
    const nlohmann::json& s = resolve(schema_in);
    const std::string where = path.empty() ? "/" : path;
    if (s.contains("anyOf")) {
      bool ok = false;
      for (const auto& alt : s["anyOf"]) {
        std::vector<std::string> e;
        check(alt, v, path, e);
        ok = ok || e.empty();
      }
      if (!ok) errors.push_back(where + ": " + v.dump().substr(0, 60) + " matches none of anyOf");
    }
    if (s.contains("type")) {
      bool ok = false;
      if (s["type"].is_string()) {
        ok = has_type(v, s["type"]);
      } else {
        for (const auto& t : s["type"]) ok = ok || has_type(v, t);
      }
      if (!ok) {
        errors.push_back(where + ": expected type " + s["type"].dump() + ", got " + v.dump().substr(0, 60));
        return;
      }
    }
    if (s.contains("enum")) {
      bool ok = false;
      for (const auto& e : s["enum"]) ok = ok || e == v;
      if (!ok) errors.push_back(where + ": " + v.dump() + " is not one of " + s["enum"].dump());
    }
    if (v.is_number()) {
      const double x = v.get<double>();
      if (s.contains("minimum") && x < s["minimum"].get<double>())
        errors.push_back(where + ": " + v.dump() + " < minimum " + s["minimum"].dump());
      if (s.contains("maximum") && x > s["maximum"].get<double>())
        errors.push_back(where + ": " + v.dump() + " > maximum " + s["maximum"].dump());
      if (s.contains("exclusiveMinimum") && x <= s["exclusiveMinimum"].get<double>())
        errors.push_back(where + ": " + v.dump() + " <= exclusiveMinimum " + s["exclusiveMinimum"].dump());
    }
    if (v.is_object()) {
      if (s.contains("required"))
        for (const auto& k : s["required"])
          if (!v.contains(k.get<std::string>())) errors.push_back(where + ": missing required key " + k.dump());
      for (const auto& [k, x] : v.items()) {
        const std::string p = path + "/" + k;
        if (s.contains("properties") && s["properties"].contains(k)) {
          check(s["properties"][k], x, p, errors);
        } else if (s.contains("additionalProperties")) {
          const auto& ap = s["additionalProperties"];
          if (ap.is_boolean()) {
            if (!ap.get<bool>()) errors.push_back(where + ": key '" + k + "' is not in the schema");
          } else {
            check(ap, x, p, errors);
          }
        }
      }
    }
    if (v.is_array()) {
      if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>())
        errors.push_back(where + ": fewer than " + s["minItems"].dump() + " items");
      if (s.contains("items"))
        for (std::size_t i = 0; i < v.size(); ++i) check(s["items"], v[i], path + "/" + std::to_string(i), errors);
    }
  }
  nlohmann::json root_;
};

// A JSON file (a schema of docs/, a report) parsed; the file must exist.
inline nlohmann::json load_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

}  // namespace saga::test
