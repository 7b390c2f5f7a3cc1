"""saga: GPU smoothed-aggregation AMG, from Python.

A PyAMG-style interface on SciPy matrices (docs/python.md)::

    import saga
    ml = saga.smoothed_aggregation_solver(A)          # A: scipy.sparse, square
    x = ml.solve(b, tol=1e-8, accel="cg")             # PCG preconditioned by V-cycles
    M = ml.aspreconditioner()                          # for scipy.sparse.linalg.cg(A, b, M=M)

The setup and the solve's cycles run in saga's C++ core (saga._saga), on the
GPU with backend="cuda" (or "auto" where one is present), on the CPU with
backend="host". Vectors move between NumPy and the backend once per call, never
per cycle.
"""

import json as _json

import numpy as _np

from . import _saga

__version__ = _saga.version

__all__ = ["smoothed_aggregation_solver", "MultilevelSolver", "gallery", "io", "solve_config"]


def _csr_arrays(A):
    """The CSR arrays of a square SciPy sparse matrix, sorted and summed."""
    import scipy.sparse as sp

    if not sp.issparse(A):
        raise TypeError(
            "A must be a scipy.sparse matrix or array (csr, csc, coo, ...), not %s" % type(A).__name__)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("A is %s x %s: saga solves square systems" % A.shape)
    if A.dtype.kind not in "fiu":
        raise TypeError("A has dtype %s: saga solves real systems (float64; integers are converted)" % A.dtype)
    C = sp.csr_matrix(A, dtype=_np.float64, copy=True)
    C.sum_duplicates()  # sorted, unique columns
    return C.indptr, C.indices, C.data, C.shape


def _settings(theta, coarse_size, smoother, cycle, amg):
    """saga's config keys (docs/config.md, below amg) from the keyword arguments."""
    s = {}

    def put(key, value):
        if value is None:
            return
        if isinstance(value, bool):
            value = "true" if value else "false"
        s["amg." + key] = str(value)

    put("theta", theta)
    put("coarse_size", coarse_size)
    if isinstance(smoother, tuple):  # PyAMG style: ("jacobi", {"omega": 0.6})
        name, options = smoother
        put("smoother", name)
        for k, v in options.items():
            put("smoother." + k, v)
    else:
        put("smoother", smoother)
    put("cycle", cycle)
    for k, v in amg.items():
        put(k.replace("__", "."), v)  # smoother__omega=0.6 -> amg.smoother.omega
    return s


class MultilevelSolver:
    """An AMG hierarchy set up by saga; made by smoothed_aggregation_solver()."""

    def __init__(self, core, shape):
        self._core = core
        self.shape = shape

    @property
    def levels(self):
        """One dict per level: rows, nnz, aggregates, rho (the estimate of rho(D^-1 A))."""
        return self._core.levels()

    @property
    def backend(self):
        """Where the hierarchy lives: "host" or the GPU's name."""
        return self._core.backend()

    def operator_complexity(self):
        """Sum of the levels' nonzeros over the finest level's."""
        return self._core.stats()["operator_complexity"]

    def grid_complexity(self):
        """Sum of the levels' rows over the finest level's."""
        return self._core.stats()["grid_complexity"]

    def setup_timings(self):
        """Setup seconds in all, per phase (summed over levels), the SpGEMMs' seconds and share."""
        s = self._core.stats()
        total = s["setup_seconds"]
        return {
            "setup_seconds": total,
            "phase_seconds": dict(s["phase_seconds"]),
            "spgemm_seconds": s["spgemm_seconds"],
            "spgemm_share": s["spgemm_seconds"] / total if total > 0 else 0.0,
        }

    def solve(self, b, x0=None, tol=1e-8, maxiter=500, accel="cg", residuals=None, return_info=False):
        """Solves A x = b to ||b - A x|| <= tol ||b||.

        accel: "cg" (PCG with the V-cycle, the default), "fcg", "gmres", "fgmres",
        "bicgstab", or None (the cycles alone, as a stationary solver).
        residuals: a list that receives ||r_k|| / ||b|| for k = 0, 1, ...
        Non-convergence is not an error (as in PyAMG): check return_info=True's
        "converged", or the residuals.
        """
        b = _np.ascontiguousarray(b, dtype=_np.float64).ravel()
        if x0 is not None:
            x0 = _np.ascontiguousarray(x0, dtype=_np.float64).ravel()
        x, info = self._core.solve(b, x0, float(tol), int(maxiter), "none" if accel is None else str(accel))
        if residuals is not None:
            residuals[:] = info["residuals"]
        return (x, info) if return_info else x

    def resetup(self, A, refresh_prolongator=False):
        """New values of the same sparsity pattern (a time or Newton step).

        The hierarchy is recomputed on the kept aggregates: the coarse operators,
        diagonals and coarse solve (and P and R too with refresh_prolongator=True),
        much cheaper than a new setup. A matrix of another pattern or size is a
        ValueError and the solver stays as it was. Returns the seconds it took.
        """
        indptr, indices, data, shape = _csr_arrays(A)
        if shape != self.shape:
            raise ValueError("A is %s x %s, the solver was set up for %s x %s" % (shape + self.shape))
        return self._core.resetup(indptr.astype(_np.int64), indices.astype(_np.int64), data,
                                  bool(refresh_prolongator))

    def aspreconditioner(self):
        """A scipy.sparse.linalg.LinearOperator applying one cycle (M^-1 r)."""
        from scipy.sparse.linalg import LinearOperator

        n = self.shape[0]
        core = self._core

        def matvec(r):
            return core.apply(_np.ascontiguousarray(r, dtype=_np.float64).ravel())

        return LinearOperator((n, n), matvec=matvec, dtype=_np.float64)

    def __repr__(self):
        lines = ["saga multilevel solver (smoothed aggregation) on %s" % self.backend,
                 "  levels: %d, operator complexity %.3f, grid complexity %.3f"
                 % (len(self.levels), self.operator_complexity(), self.grid_complexity()),
                 "  level       rows          nnz   nnz/row"]
        for i, L in enumerate(self.levels):
            per_row = L["nnz"] / L["rows"] if L["rows"] else 0.0
            lines.append("  %5d %10d %12d %9.1f" % (i, L["rows"], L["nnz"], per_row))
        return "\n".join(lines)


def smoothed_aggregation_solver(A, B=None, theta=None, coarse_size=None, smoother=None, cycle=None,
                                backend="auto", block_size=1, **amg):
    """Sets up saga's smoothed-aggregation AMG for the square sparse matrix A.

    A: scipy.sparse (csr, csc, coo, ...; int32/int64 indices; float64, or
       integers converted). Converted once to sorted CSR.
    B: near-nullspace, an (n, k) array (e.g. the rigid-body modes of
       elasticity); block_size: unknowns per node (interleaved).
    theta, coarse_size, smoother, cycle: as in saga's config (docs/config.md);
       smoother also ("name", {options}) as in PyAMG. Other keyword arguments
       are amg keys of docs/config.md, "__" for "." (smoother__omega=0.6).
    backend: "auto" (the GPU where one is present), "cuda" or "host".
    """
    indptr, indices, data, shape = _csr_arrays(A)
    settings = _settings(theta, coarse_size, smoother, cycle, amg)
    Bv = None
    if B is not None:
        Bv = _np.ascontiguousarray(B, dtype=_np.float64)
        if Bv.ndim == 1:
            Bv = Bv.reshape(-1, 1)
    core = _saga.Solver(shape[0], shape[1], indptr.astype(_np.int64), indices.astype(_np.int64), data,
                        settings, str(backend), Bv, int(block_size))
    return MultilevelSolver(core, shape)


def _to_scipy(arrays):
    import scipy.sparse as sp

    indptr, indices, data, shape = arrays
    return sp.csr_matrix((data, indices, indptr), shape=tuple(shape))


class gallery:
    """Test matrices from saga's generators (docs/problems.md)."""

    @staticmethod
    def poisson(stencil, N):
        """The Poisson matrix of a stencil: "2d5", "2d9", "3d7" or "3d27", N points per direction."""
        return _to_scipy(_saga.poisson(str(stencil), int(N)))


class io:
    """Matrix files."""

    @staticmethod
    def read_matrix_market(path):
        """A Matrix Market coordinate file (real, integer or pattern; general or symmetric) as CSR."""
        return _to_scipy(_saga.read_matrix_market(str(path)))


def solve_config(path, overrides=()):
    """Runs a YAML config as `saga solve` does; returns its JSON report as a dict.

    overrides: "KEY.PATH=VALUE" settings, as `saga solve --set`.
    """
    return _json.loads(_saga.solve_config(str(path), [str(o) for o in overrides]))
