/* saga's C API (also the base of the Fortran module fortran/saga.f90): an AMG
 * preconditioned Krylov solver behind an opaque handle. Every function returns
 * a status; nothing throws across this boundary. saga_last_error() has the
 * message of the last failed call on the calling thread.
 *
 *   saga_solver s;
 *   saga_solver_create(&s, "auto");                       // "host", "cuda" or "auto"
 *   saga_solver_set(s, "amg.smoother", "chebyshev");       // parameters by name, before setup
 *   saga_solver_set(s, "solver.tolerance", "1e-10");
 *   saga_solver_setup(s, n, row_ptr, col, val);            // CSR in host memory, 0-based
 *   saga_solver_solve(s, b, x);                            // x: initial guess in, solution out
 *   saga_solver_resetup(s, new_val);                       // new values, same pattern
 *   saga_solver_destroy(s);
 *
 * Keys of saga_solver_set: the config keys of docs/config.md below amg and
 * solver — "amg.theta", "amg.coarse_size", "amg.pre_sweeps", "amg.smoother"
 * (a component name), "amg.smoother.omega" (an option of it), "amg.cycle",
 * "amg.coarse_solver", "amg.aggregation", "amg.spgemm", "solver.type",
 * "solver.tolerance", "solver.max_iterations", "solver.restart" (an option of
 * the method), "solver.preconditioner". */
#ifndef SAGA_C_H
#define SAGA_C_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct saga_solver_t* saga_solver;

typedef enum {
  SAGA_OK = 0,
  SAGA_ERROR_INPUT = 1,        /* bad arguments, parameters or matrix (the message says which) */
  SAGA_ERROR_DEVICE = 2,       /* a GPU call failed (out of memory included) */
  SAGA_ERROR_UNAVAILABLE = 3,  /* no GPU, or a build without the CUDA backend */
  SAGA_ERROR_STATE = 4,        /* a call out of order (solve before setup, set after it, ...) */
  SAGA_ERROR_INTERNAL = 5
} saga_status;

const char* saga_version(void);
/* The message of the last failed call on this thread ("" after a success). */
const char* saga_last_error(void);

saga_status saga_solver_create(saga_solver* solver, const char* backend);
/* A handle with the parameters of a config: `config` is the path of a YAML or
 * JSON file, or the YAML/JSON text itself, in the format of `saga solve`
 * (docs/config.md): its amg and solver sections set the parameters, its
 * backend the executor (unless `backend` is not NULL); problem, updates,
 * output and report sections are ignored. Errors name the file, line and key. */
saga_status saga_solver_create_from_config(saga_solver* solver, const char* config, const char* backend);
void saga_solver_destroy(saga_solver solver);
/* A parameter by name (see above); before the first setup. */
saga_status saga_solver_set(saga_solver solver, const char* key, const char* value);
/* Several "key=value" settings separated by newlines or ';'. */
saga_status saga_solver_set_many(saga_solver solver, const char* settings);

/* n x n matrix in CSR, host arrays (row_ptr: n + 1 entries from 0; col: 0-based,
 * sorted within each row). 32-bit and 64-bit indices; the arrays are copied. */
saga_status saga_solver_setup(saga_solver solver, int32_t n, const int32_t* row_ptr, const int32_t* col,
                              const double* val);
saga_status saga_solver_setup_i64(saga_solver solver, int64_t n, const int64_t* row_ptr, const int64_t* col,
                                  const double* val);
/* New values in the pattern of the setup (same order): the hierarchy is
 * recomputed on the kept aggregates (docs/dcsr.md, "Numeric resetup").
 * refresh_prolongator: 1 (also P) or 0 (keep P). */
saga_status saga_solver_resetup(saga_solver solver, const double* val, int refresh_prolongator);

/* The matrix in device memory (CUDA device pointers, 32-bit indices, a handle
 * created with backend "cuda" or "auto" on a GPU): used in place, not copied —
 * the caller keeps the three arrays alive and unchanged until the next setup
 * or saga_solver_destroy. nnz = row_ptr[n]. */
saga_status saga_solver_setup_device(saga_solver solver, int32_t n, int32_t nnz, const int32_t* row_ptr,
                                     const int32_t* col, const double* val);
/* The same with 64-bit indices: row_ptr and col are narrowed to saga's 32-bit
 * indices (copied once on the device, an error naming the first index out of
 * range); the values are used in place. */
saga_status saga_solver_setup_device_i64(saga_solver solver, int64_t n, int64_t nnz, const int64_t* row_ptr,
                                         const int64_t* col, const double* val);
/* New values (a device array in the pattern of saga_solver_setup_device),
 * used in place from now on like the setup's: resetup as saga_solver_resetup. */
saga_status saga_solver_resetup_device(saga_solver solver, const double* val, int refresh_prolongator);
/* Runs saga's GPU work on the caller's CUDA stream (a cudaStream_t, not
 * destroyed by saga) instead of a stream of its own; before the first setup. */
saga_status saga_solver_set_stream(saga_solver solver, void* stream);

/* z = M^-1 r: one multigrid cycle (host arrays of n entries). An error where
 * the solver set up no hierarchy (solver.preconditioner none or a smoother, or
 * solver.type cg: its solve applies no cycle). */
saga_status saga_solver_apply(saga_solver solver, const double* r, double* z);
/* Solves A x = b (host arrays of n entries). Non-convergence is not an error:
 * check saga_solver_result. */
saga_status saga_solver_solve(saga_solver solver, const double* b, double* x);
/* apply and solve on device arrays of n entries (CUDA device pointers, a GPU
 * handle), read and written in place: no copies to or from the host. */
saga_status saga_solver_apply_device(saga_solver solver, const double* r, double* z);
saga_status saga_solver_solve_device(saga_solver solver, const double* b, double* x);
/* Frees what a solve keeps for the next one (CG's vectors, 24-32 bytes per
 * unknown, and the CUDA graph of its iteration: later solves into the same x
 * replay it); the next solve makes them again. A resetup drops them too. */
saga_status saga_solver_release_workspace(saga_solver solver);
/* Of the last solve: iterations, converged (0/1), final relative residual. */
saga_status saga_solver_result(saga_solver solver, int* iterations, int* converged, double* relative_residual);
/* Of the last solve: ||r_k|| / ||b||, k = 0..iterations; *length entries
 * written (at most capacity). */
saga_status saga_solver_residual_history(saga_solver solver, double* history, int capacity, int* length);
/* Setup time of a phase ("strength", "aggregation", "AP", "PtAP", ...; NULL:
 * the whole setup), seconds; of the last resetup when resetup is nonzero. */
saga_status saga_solver_setup_seconds(saga_solver solver, const char* phase, int resetup, double* seconds);
/* Levels of the hierarchy and its operator complexity (0 levels and 0 where
 * the solver set up no hierarchy; see saga_solver_apply). */
saga_status saga_solver_hierarchy(saga_solver solver, int* levels, double* operator_complexity);

#ifdef __cplusplus
}
#endif

#endif /* SAGA_C_H */
