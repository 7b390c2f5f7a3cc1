"""saga: GPU smoothed-aggregation AMG, from Python.

A PyAMG-style interface on SciPy matrices (docs/python.md)::

    import saga
    ml = saga.smoothed_aggregation_solver(A)          # A: scipy.sparse, square
    x = ml.solve(b, tol=1e-8, accel="cg")             # PCG preconditioned by V-cycles
    M = ml.aspreconditioner()                          # for scipy.sparse.linalg.cg(A, b, M=M)

The setup and the solve's cycles run in saga's C++ core (saga._saga), on the
GPU with backend="cuda" (or "auto" where one is present), on the CPU with
backend="host". Vectors move between NumPy and the backend once per call, never
per cycle; CuPy matrices and arrays (anything with __cuda_array_interface__)
are used in place on the GPU, without copies through the host.
"""

import json as _json

import numpy as _np

from . import _saga

__version__ = _saga.version

__all__ = ["smoothed_aggregation_solver", "MultilevelSolver", "gallery", "io", "solve_config"]


def _is_device_matrix(A):
    """A cupyx.scipy.sparse matrix (its arrays live in GPU memory)."""
    return type(A).__module__.startswith("cupyx.scipy.sparse") and hasattr(A, "tocsr")


def _is_device_array(x):
    """Anything exposing __cuda_array_interface__ (CuPy, PyTorch, Numba, ...)."""
    return hasattr(x, "__cuda_array_interface__")


def _sync_cupy():
    """Waits for the work queued on CuPy's current stream (saga runs on its own)."""
    import cupy

    cupy.cuda.get_current_stream().synchronize()


def _check_shape_dtype(A):
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("A is %s x %s: saga solves square systems" % A.shape)
    if A.dtype.kind not in "fiu":
        raise TypeError("A has dtype %s: saga solves real systems (float64; integers are converted)" % A.dtype)


def _canonical(C, A):
    """C (a SciPy or CuPy CSR form of A) with sorted, unique columns: C itself
    where it has them, else summed in place or, when C is A, in a copy (the
    caller's matrix is never modified)."""
    if not C.has_canonical_format:
        C = C.copy() if C is A else C
        C.sum_duplicates()
    return C


def _device_csr(A):
    """A cupyx sparse matrix as canonical float64 CSR on the GPU: A itself where it
    already is one (used in place, never modified), else a converted copy."""
    import cupy

    _check_shape_dtype(A)
    C = A.tocsr()
    if C.dtype != cupy.float64:
        C = C.astype(cupy.float64)
    return _canonical(C, A)


def _matrix_source(A, backend):
    """What the core reads A from: NumPy arrays, or (for a CuPy matrix and a GPU
    backend) the device arrays in place. Returns (source, shape, keep): `keep`
    must outlive the solver when the arrays are used in place."""
    import scipy.sparse as sp

    if _is_device_matrix(A):
        C = _device_csr(A)
        if backend == "host":  # the host backend takes a host copy
            return _matrix_source(C.get(), backend)
        _sync_cupy()
        src = _saga.MatrixSource.device(C.shape[0], C.nnz, C.indptr.data.ptr, C.indices.data.ptr,
                                        C.data.data.ptr, C.indices.dtype.itemsize)
        return src, C.shape, C
    if not sp.issparse(A):
        raise TypeError(
            "A must be a scipy.sparse or cupyx.scipy.sparse matrix (csr, csc, coo, ...), not %s" % type(A).__name__)
    _check_shape_dtype(A)
    C = _canonical(A if A.format == "csr" and A.dtype == _np.float64 else sp.csr_matrix(A, dtype=_np.float64), A)
    indptr, indices = C.indptr, C.indices
    if indptr.dtype != indices.dtype or indptr.dtype not in (_np.int32, _np.int64):
        indptr, indices = indptr.astype(_np.int64), indices.astype(_np.int64)
    src = _saga.MatrixSource.host(C.shape[0], _np.ascontiguousarray(indptr), _np.ascontiguousarray(indices),
                                  _np.ascontiguousarray(C.data))
    return src, C.shape, None


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

    def __init__(self, core, shape, keep=None, cycle="V"):
        self._core = core
        self.shape = shape
        self._keep = keep  # the caller's GPU arrays the hierarchy uses in place
        self._cycle = cycle  # the cycle the setup built (V, W or F)

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

    def coarse_solve(self):
        """How the coarsest level is solved: "pseudo_inverse" (True where its matrix is singular,
        as every level of a pure Neumann problem is) and "null_space_columns" (the near-nullspace
        directions the Cholesky inverse was shifted along; 0 with a pseudo-inverse: the host's
        eigen-decomposition)."""
        s = self._core.stats()
        return {"pseudo_inverse": s["coarse_pseudo_inverse"], "null_space_columns": s["coarse_null_space_columns"]}

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

    def setup_memory(self):
        """Device memory of the setup (GPU solvers; None on the host): the peak in bytes, the
        level and phase where it was reached, and per level a dict phase -> that phase's peak
        (saga's device memory in use at its highest, the matrix included)."""
        s = self._core.stats()
        if s["peak_level"] < 0:
            return None
        return {
            "peak_bytes": s["peak_bytes"],
            "peak_level": s["peak_level"],
            "peak_phase": s["peak_phase"],
            "phase_peak_bytes": [dict(x) for x in s["phase_peak_bytes"]],
        }

    def solve(self, b, x0=None, tol=1e-8, maxiter=500, accel="cg", residuals=None, return_info=False, cycle=None,
              callback=None, cycles_per_level=1):
        """Solves A x = b to ||b - A x|| <= tol ||b||.

        accel: "cg" (PCG with the V-cycle, the default), "fcg", "gmres", "fgmres",
        "bicgstab", or None (the cycles alone, as a stationary solver).
        residuals: a list that receives ||r_k|| / ||b|| for k = 0, 1, ...
        Non-convergence is not an error (as in PyAMG): check return_info=True's
        "converged", or the residuals.
        b (and x0) may be NumPy arrays, or GPU arrays (CuPy, or anything with
        __cuda_array_interface__) for a solver on the GPU: then they are used in
        place and x is a CuPy array, never copied through the host.
        """
        # PyAMG's other keywords: the cycle is the setup's (saga builds it once,
        # as a CUDA graph replays it); the iterations run without stopping for
        # Python, so there is no per-iteration callback (residuals= gives the history).
        if cycle is not None and str(cycle) != self._cycle:
            raise ValueError("cycle=%r: this solver was set up with the %s-cycle; pass cycle=%r to "
                             "smoothed_aggregation_solver" % (cycle, self._cycle, cycle))
        if callback is not None:
            raise TypeError("callback: saga runs the iterations on the backend without a Python call per "
                            "iteration; pass residuals=[] for the residual history")
        if cycles_per_level != 1:
            raise ValueError("cycles_per_level=%r: saga visits each coarse level once per cycle (V) or as the "
                             "cycle of the setup says (W, F)" % (cycles_per_level,))
        method = "none" if accel is None else str(accel)
        if self._core.on_gpu() and _is_device_array(b):
            x, info = self._solve_device(b, x0, float(tol), int(maxiter), method)
        else:
            if _is_device_array(b):
                b = _to_numpy(b)
            b = _np.ascontiguousarray(b, dtype=_np.float64).ravel()
            if x0 is not None:
                x0 = _np.ascontiguousarray(_to_numpy(x0) if _is_device_array(x0) else x0, dtype=_np.float64).ravel()
            x, info = self._core.solve(b, x0, float(tol), int(maxiter), method)
        if residuals is not None:
            residuals[:] = info["residuals"]
        return (x, info) if return_info else x

    def _solve_device(self, b, x0, tol, maxiter, method):
        import cupy

        n = self.shape[0]
        bd = cupy.ascontiguousarray(cupy.asarray(b), dtype=cupy.float64).ravel()
        if bd.size != n:
            raise ValueError("b has shape (%d), expected (%d,)" % (bd.size, n))
        if x0 is None:
            x = cupy.zeros(n, dtype=cupy.float64)
        else:
            x = cupy.array(cupy.asarray(x0), dtype=cupy.float64, copy=True).ravel()
            if x.size != n:
                raise ValueError("x0 has shape (%d), expected (%d,)" % (x.size, n))
        _sync_cupy()
        info = self._core.solve_device(bd.data.ptr, x.data.ptr, tol, maxiter, method)
        return x, info

    def resetup(self, A, refresh_prolongator=False):
        """New values of the same sparsity pattern (a time or Newton step).

        The hierarchy is recomputed on the kept aggregates: the coarse operators,
        diagonals and coarse solve (and P and R too with refresh_prolongator=True),
        much cheaper than a new setup. A matrix of another pattern or size is a
        ValueError and the solver stays as it was. Returns the seconds it took.
        A may be a SciPy or a CuPy matrix (used in place on the GPU).
        """
        src, shape, keep = _matrix_source(A, "host" if not self._core.on_gpu() else "cuda")
        if shape != self.shape:
            raise ValueError("A is %s x %s, the solver was set up for %s x %s" % (tuple(shape) + tuple(self.shape)))
        seconds = self._core.resetup(src, bool(refresh_prolongator))
        self._keep = keep
        return seconds

    def aspreconditioner(self, device=None):
        """One cycle (M^-1 r) as a LinearOperator for a Krylov solver.

        device=None: a cupyx.scipy.sparse.linalg.LinearOperator on GPU arrays
        when the solver was set up from a CuPy matrix, else a
        scipy.sparse.linalg.LinearOperator on NumPy arrays; True / False choose.
        """
        n = self.shape[0]
        core = self._core
        if device is None:
            device = self._keep is not None
        if device:
            import cupy
            from cupyx.scipy.sparse.linalg import LinearOperator as DeviceOperator

            if not core.on_gpu():
                raise ValueError("aspreconditioner(device=True): the solver lives on the host")

            def device_matvec(r):
                rd = cupy.ascontiguousarray(r, dtype=cupy.float64).ravel()
                z = cupy.empty(n, dtype=cupy.float64)
                _sync_cupy()
                core.apply_device(rd.data.ptr, z.data.ptr)
                return z

            return DeviceOperator((n, n), matvec=device_matvec, dtype=cupy.float64)
        from scipy.sparse.linalg import LinearOperator

        def matvec(r):
            return core.apply(_np.ascontiguousarray(r, dtype=_np.float64).ravel())

        return LinearOperator((n, n), matvec=matvec, dtype=_np.float64)

    def __repr__(self):
        lines = ["saga multilevel solver (smoothed aggregation) on %s" % self.backend,
                 "  levels: %d, operator complexity %.3f, grid complexity %.3f"
                 % (len(self.levels), self.operator_complexity(), self.grid_complexity())]
        c = self.coarse_solve()
        if c["pseudo_inverse"]:
            lines.append("  coarsest matrix singular: pseudo-inverse (%s)"
                         % ("Cholesky shifted along %d null direction(s)" % c["null_space_columns"]
                            if c["null_space_columns"] else "eigen-decomposition"))
        lines.append("  level       rows          nnz   nnz/row")
        for i, L in enumerate(self.levels):
            per_row = L["nnz"] / L["rows"] if L["rows"] else 0.0
            lines.append("  %5d %10d %12d %9.1f" % (i, L["rows"], L["nnz"], per_row))
        return "\n".join(lines)


def smoothed_aggregation_solver(A, B=None, theta=None, coarse_size=None, smoother=None, cycle=None,
                                backend="auto", block_size=1, **amg):
    """Sets up saga's smoothed-aggregation AMG for the square sparse matrix A.

    A: scipy.sparse (csr, csc, coo, ...; int32/int64 indices; float64, or
       integers converted), copied once to the backend; or a
       cupyx.scipy.sparse matrix, whose GPU arrays the hierarchy uses in place
       (keep them unchanged while the solver lives; csr float64 with sorted
       indices is used as it is, anything else converted on the GPU first).
    B: near-nullspace, an (n, k) array (e.g. the rigid-body modes of
       elasticity); block_size: unknowns per node (interleaved).
    theta, coarse_size, smoother, cycle: as in saga's config (docs/config.md);
       smoother also ("name", {options}) as in PyAMG. Other keyword arguments
       are amg keys of docs/config.md, "__" for "." (smoother__omega=0.6).
    backend: "auto" (the GPU where one is present), "cuda" or "host".
    """
    src, shape, keep = _matrix_source(A, str(backend))
    settings = _settings(theta, coarse_size, smoother, cycle, amg)
    Bv = None
    if B is not None:
        Bv = _np.ascontiguousarray(_to_numpy(B) if _is_device_array(B) else B, dtype=_np.float64)
        if Bv.ndim == 1:
            Bv = Bv.reshape(-1, 1)
    core = _saga.Solver(src, settings, str(backend), Bv, int(block_size))
    return MultilevelSolver(core, tuple(shape), keep, str(cycle) if cycle is not None else "V")


def _to_numpy(x):
    """A GPU array's contents on the host."""
    import cupy

    return cupy.asnumpy(cupy.asarray(x))


def _to_scipy(arrays):
    import scipy.sparse as sp

    indptr, indices, data, shape = arrays
    return sp.csr_matrix((data, indices, indptr), shape=tuple(shape))


class gallery:
    """Test matrices from saga's generators (docs/problems.md)."""

    @staticmethod
    def poisson(stencil, N, boundary="dirichlet"):
        """The Poisson matrix of a stencil: "2d5", "2d9", "3d7" or "3d27", N points per direction;
        boundary "neumann": no flux through the boundary (rows sum to zero, singular, the
        constants as null space: b must sum to zero)."""
        return _to_scipy(_saga.poisson(str(stencil), int(N), str(boundary)))


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
