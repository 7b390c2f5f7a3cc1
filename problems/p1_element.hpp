#pragma once
// The P1 (linear) element stiffness matrix of -div(kappa K grad u) on a
// triangle or tetrahedron: S_ab = kappa |T| grad(l_a)^T K grad(l_b), with l_a the
// barycentric coordinates; and that of linear elasticity. Shared by both
// backends (SAGA_HD).
#include "core/hd.hpp"

namespace saga {

// Gradients of the barycentric coordinates (g[a][r] = d l_a / d x_r; rows
// a = 0..dim, z ignored in 2D) of the simplex p. Returns |T| (area or volume).
SAGA_HD inline double p1_gradients(int dim, const double p[4][3], double g[4][3]) {
  // J's columns are the edge vectors p_k - p_0; grad l_k (k >= 1) is row k-1 of
  // J^{-1}; grad l_0 = -(sum of the others).
  for (int a = 0; a < 4; ++a)
    for (int r = 0; r < 3; ++r) g[a][r] = 0.0;
  double J[3][3] = {};
  for (int k = 0; k < dim; ++k)
    for (int r = 0; r < dim; ++r) J[r][k] = p[k + 1][r] - p[0][r];
  double measure;
  if (dim == 2) {
    const double det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    g[1][0] = J[1][1] / det;
    g[1][1] = -J[0][1] / det;
    g[2][0] = -J[1][0] / det;
    g[2][1] = J[0][0] / det;
    measure = (det < 0 ? -det : det) / 2.0;
  } else {
    const double c00 = J[1][1] * J[2][2] - J[1][2] * J[2][1], c01 = J[1][2] * J[2][0] - J[1][0] * J[2][2],
                 c02 = J[1][0] * J[2][1] - J[1][1] * J[2][0];
    const double det = J[0][0] * c00 + J[0][1] * c01 + J[0][2] * c02;
    // inverse = adjugate / det; row i of the inverse is column i of the cofactors.
    g[1][0] = c00 / det;
    g[1][1] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) / det;
    g[1][2] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) / det;
    g[2][0] = c01 / det;
    g[2][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) / det;
    g[2][2] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) / det;
    g[3][0] = c02 / det;
    g[3][1] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) / det;
    g[3][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) / det;
    measure = (det < 0 ? -det : det) / 6.0;
  }
  for (int r = 0; r < dim; ++r) {
    g[0][r] = 0.0;
    for (int k = 1; k <= dim; ++k) g[0][r] -= g[k][r];
  }
  return measure;
}

// p: dim + 1 points, 3 coordinates each (z ignored in 2D); K: 3x3 row-major
// tensor (its leading dim x dim block is used); S: (dim+1)^2, row-major.
// Returns |T| (area or volume).
SAGA_HD inline double p1_stiffness(int dim, const double p[4][3], const double K[9], double kappa, double* S) {
  double g[4][3];
  const double measure = p1_gradients(dim, p, g);
  const int n = dim + 1;
  for (int a = 0; a < n; ++a)
    for (int b = a; b < n; ++b) {
      double s = 0.0;
      for (int r = 0; r < dim; ++r)
        for (int c = 0; c < dim; ++c) s += g[a][r] * K[r * 3 + c] * g[b][c];
      S[a * n + b] = S[b * n + a] = kappa * measure * s;
    }
  return measure;
}

// The P1 element stiffness of isotropic linear elasticity,
// a(u, v) = integral of lambda div u div v + 2 mu eps(u) : eps(v), with the dim
// displacements of vertex a as unknowns a*dim + i: S is (n*dim)^2, row-major,
// n = dim + 1, and S[(a,i),(b,j)] = |T| (lambda g_ai g_bj + mu g_aj g_bi +
// mu delta_ij g_a . g_b). Rigid motions (translations, rotations) are its kernel.
SAGA_HD inline double p1_elasticity_stiffness(int dim, const double p[4][3], double lambda, double mu, double* S) {
  double g[4][3];
  const double measure = p1_gradients(dim, p, g);
  const int n = dim + 1, m = n * dim;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      double gg = 0.0;
      for (int r = 0; r < dim; ++r) gg += g[a][r] * g[b][r];
      for (int i = 0; i < dim; ++i)
        for (int j = 0; j < dim; ++j)
          S[(a * dim + i) * m + b * dim + j] =
              measure * (lambda * (g[a][i] * g[b][j]) + mu * (g[a][j] * g[b][i]) + (i == j ? mu * gg : 0.0));
    }
  return measure;
}
}  // namespace saga
