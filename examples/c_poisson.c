/* A C program preconditioning and solving a 2D Poisson problem (5-point, N x N
 * interior points) through saga's C API; then a time step with new values
 * (resetup). Exit status 0 when both solves converged. */
#include <saga/api/saga_c.h>

#include <stdio.h>
#include <stdlib.h>

static int check(saga_status st, const char* what) {
  if (st != SAGA_OK) fprintf(stderr, "%s failed (%d): %s\n", what, (int)st, saga_last_error());
  return st == SAGA_OK;
}

int main(void) {
  const int N = 64, n = N * N;
  int32_t* row_ptr = malloc((n + 1) * sizeof(int32_t));
  int32_t* col = malloc(5 * n * sizeof(int32_t));
  double* val = malloc(5 * n * sizeof(double));
  double *b = malloc(n * sizeof(double)), *x = calloc(n, sizeof(double));
  int nnz = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      const int r = j * N + i;
      row_ptr[r] = nnz;
      if (j > 0) col[nnz] = r - N, val[nnz++] = -1;
      if (i > 0) col[nnz] = r - 1, val[nnz++] = -1;
      col[nnz] = r, val[nnz++] = 4;
      if (i + 1 < N) col[nnz] = r + 1, val[nnz++] = -1;
      if (j + 1 < N) col[nnz] = r + N, val[nnz++] = -1;
      b[r] = 1.0;
    }
  row_ptr[n] = nnz;

  saga_solver s;
  if (!check(saga_solver_create(&s, "auto"), "create")) return 1;
  int ok = check(saga_solver_set(s, "solver.tolerance", "1e-10"), "set tolerance") &&
           check(saga_solver_set(s, "amg.smoother.omega", "0.6"), "set omega") &&
           check(saga_solver_setup(s, n, row_ptr, col, val), "setup") && check(saga_solver_solve(s, b, x), "solve");
  int its = 0, converged = 0;
  double rel = 0;
  ok = ok && check(saga_solver_result(s, &its, &converged, &rel), "result");
  printf("saga %s, C API: 2D Poisson %d x %d: %s in %d iterations, relative residual %.3e\n", saga_version(), N, N,
         converged ? "converged" : "did NOT converge", its, rel);
  /* A time step: the diagonal grows (a mass term), same pattern. */
  for (int k = 0; k < nnz; ++k)
    if (val[k] == 4) val[k] = 4.5;
  for (int r = 0; r < n; ++r) x[r] = 0;
  int its2 = 0, converged2 = 0;
  ok = ok && check(saga_solver_resetup(s, val, 1), "resetup") && check(saga_solver_solve(s, b, x), "solve 2") &&
       check(saga_solver_result(s, &its2, &converged2, &rel), "result 2");
  printf("after resetup: %s in %d iterations, relative residual %.3e\n", converged2 ? "converged" : "did NOT converge",
         its2, rel);
  saga_solver_destroy(s);
  free(row_ptr), free(col), free(val), free(b), free(x);
  return ok && converged && converged2 ? 0 : 1;
}
