#pragma once
// The nonsymmetric test matrix of the Krylov tests: the convection_diffusion
// generator (problems/generators/convection_diffusion.cpp) on an N x N grid at
// mesh Peclet number `peclet`, on the host.
#include "problems/problem.hpp"

namespace saga::test {

inline CsrMatrix convection_diffusion(index_t N, double peclet) {
  const ProblemContext ctx;
  return problem_generators()
      .create(Component("convection_diffusion", Options().set("N", N).set("peclet", peclet)), Space::host, ctx)
      ->generate(Space::host)
      .A;
}

}  // namespace saga::test
