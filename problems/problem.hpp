#pragma once
// Problem generators, behind the problem registry (problem.type): each makes
// the matrix of one kind of problem from its own parameters. A new generator:
// its file in problems/generators/, its test, its docs entry (docs/problems.md)
// and one line in SAGA_PROBLEM_COMPONENTS (problems/problem.cpp).
//
// Nested YAML reaches a generator as dotted keys ("anisotropy.epsilon",
// "coefficient.groups.feet") and lists as comma-separated text, so each
// generator declares its keys once, with the other components' mechanism
// (core/parameters.hpp).
#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "sparse/csr.hpp"

namespace saga {

// What every generator may use besides its parameters.
struct ProblemContext {
  std::string directory;  // of the config file: relative paths are resolved against it
  std::uint64_t seed = 0; // the problem's seed (random perturbations, random x*)
  std::string resolve(const std::string& path) const;
};

struct GeneratedMatrix {
  CsrMatrix A;
  std::string description;
  // Empty when A is symmetric (by construction, or checked); else what is
  // not: the CG family refuses such a matrix with this text (app/run.cpp).
  std::string asymmetry = {};
  // Node coordinates (nodes x dim, row-major) where the unknowns come in blocks
  // of dim per node, interleaved (elasticity): amg.nullspace rigid_body uses
  // them. Empty otherwise.
  std::vector<double> coordinates = {};
  int dim = 0;
};

class ProblemGenerator {
 public:
  virtual ~ProblemGenerator() = default;
  virtual GeneratedMatrix generate(Space space) const = 0;
};

using ProblemRegistry = Registry<ProblemGenerator, const ProblemContext&>;
const ProblemRegistry& problem_generators();

}  // namespace saga
