"""The saga Python package against SciPy (run by ctest as the test "python":
PYTHONPATH=<build>/python python3 -m pytest python/tests).

Host-backend tests run everywhere; tests marked gpu run on backend="cuda"
and are skipped where no GPU is present, as the C++ GPU tests are.
"""
import os
import pathlib

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import saga

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("SAGA_TEST_SEED", np.random.SeedSequence().entropy % 2**32))
print("saga python tests: seed", SEED, "(SAGA_TEST_SEED reproduces it)")


def rng():
    return np.random.default_rng(SEED)


def has_gpu():
    try:
        saga.smoothed_aggregation_solver(saga.gallery.poisson("2d5", 8), backend="cuda")
        return True
    except RuntimeError:
        return False


BACKENDS = ["host", pytest.param("cuda", marks=pytest.mark.skipif(not has_gpu(), reason="no GPU present"))]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("stencil,N", [("2d5", 64), ("3d7", 16), ("3d27", 12), ("2d9", 48)])
def test_poisson_solution_to_1e8(backend, stencil, N):
    A = saga.gallery.poisson(stencil, N)
    x_star = rng().uniform(0, 1, A.shape[0])
    b = A @ x_star
    ml = saga.smoothed_aggregation_solver(A, backend=backend)
    res = []
    x = ml.solve(b, tol=1e-8, residuals=res)
    assert np.linalg.norm(b - A @ x) <= 1e-8 * np.linalg.norm(b) * 1.0001
    assert res[0] == pytest.approx(1.0)
    assert res[-1] <= 1e-8
    assert len(res) < 40  # AMG-preconditioned CG: tens of iterations, not hundreds


def test_preconditioner_in_scipy_cg_matches_saga_pcg():
    A = saga.gallery.poisson("2d5", 96)
    b = rng().uniform(-1, 1, A.shape[0])
    ml = saga.smoothed_aggregation_solver(A, backend="host")
    x, info = ml.solve(b, tol=1e-8, accel="cg", return_info=True)
    assert info["converged"]
    count = [0]

    def cb(_):
        count[0] += 1

    M = ml.aspreconditioner()
    try:
        y, status = spla.cg(A, b, M=M, rtol=1e-8, atol=0.0, callback=cb)
    except TypeError:  # SciPy < 1.12 calls it tol
        count[0] = 0
        y, status = spla.cg(A, b, M=M, tol=1e-8, atol=0.0, callback=cb)
    assert status == 0
    assert abs(count[0] - info["iterations"]) <= 1
    assert np.linalg.norm(b - A @ y) <= 1e-8 * np.linalg.norm(b) * 1.01


def test_one_cycle_is_a_fixed_linear_operator():
    A = saga.gallery.poisson("3d7", 10)
    M = saga.smoothed_aggregation_solver(A, backend="host").aspreconditioner()
    r = rng().standard_normal(A.shape[0])
    z1, z2 = M @ r, M @ r
    assert np.array_equal(z1, z2)
    assert np.allclose(M @ (2.5 * r), 2.5 * z1, rtol=1e-12, atol=1e-14)
    # an SPD preconditioner: r^T M r > 0
    assert r @ z1 > 0


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil"])
@pytest.mark.parametrize("itype", [np.int32, np.int64])
def test_formats_and_index_types_give_the_same_hierarchy(fmt, itype):
    A = saga.gallery.poisson("2d5", 40)
    B = A.asformat(fmt)
    if fmt in ("csr", "csc"):
        B.indices = B.indices.astype(itype)
        B.indptr = B.indptr.astype(itype)
    elif fmt == "coo":
        B.row = B.row.astype(itype)
        B.col = B.col.astype(itype)
    ref = saga.smoothed_aggregation_solver(A, backend="host")
    ml = saga.smoothed_aggregation_solver(B, backend="host")
    assert ml.levels == ref.levels
    b = np.ones(A.shape[0])
    assert np.array_equal(ml.solve(b), ref.solve(b))


@pytest.mark.parametrize("kind", ["csr_array", "coo_array", "mixed_index_types", "non_contiguous_data"])
def test_sparse_arrays_and_odd_index_layouts(kind):
    A = saga.gallery.poisson("3d7", 10)
    if kind in ("csr_array", "coo_array"):
        if not hasattr(sp, kind):
            pytest.skip("SciPy without sparse arrays")
        B = getattr(sp, kind)(A)
    elif kind == "mixed_index_types":  # indptr int64, indices int32
        B = sp.csr_matrix(A, copy=True)
        B.indptr = B.indptr.astype(np.int64)
    else:  # data a strided view: converted, not read past its stride
        B = sp.csr_matrix(A, copy=True)
        wide = np.zeros(2 * B.nnz)
        wide[::2] = B.data
        B.data = wide[::2]
    ref = saga.smoothed_aggregation_solver(A, backend="host")
    ml = saga.smoothed_aggregation_solver(B, backend="host")
    assert ml.levels == ref.levels
    b = np.ones(A.shape[0])
    assert np.array_equal(ml.solve(b), ref.solve(b))


def test_pyamg_solve_keywords():
    A = saga.gallery.poisson("2d5", 24)
    b = np.ones(A.shape[0])
    ml = saga.smoothed_aggregation_solver(A, backend="host")
    x = ml.solve(b, tol=1e-8, accel="cg", cycle="V", cycles_per_level=1)  # a PyAMG call, unchanged
    assert np.array_equal(x, ml.solve(b, tol=1e-8, accel="cg"))
    with pytest.raises(ValueError, match="set up with the V-cycle"):
        ml.solve(b, cycle="W")
    with pytest.raises(TypeError, match="residuals"):
        ml.solve(b, callback=lambda xk: None)
    with pytest.raises(ValueError, match="cycles_per_level"):
        ml.solve(b, cycles_per_level=2)
    mw = saga.smoothed_aggregation_solver(A, backend="host", cycle="W")
    assert mw.solve(b, cycle="W", return_info=True)[1]["converged"]


def test_unsorted_and_duplicate_entries_are_summed():
    A = saga.gallery.poisson("2d5", 20).tocoo()
    half = A.data / 2
    D = sp.coo_matrix((np.concatenate([half, half]), (np.concatenate([A.row, A.row]), np.concatenate([A.col, A.col]))),
                      shape=A.shape)
    ml = saga.smoothed_aggregation_solver(D, backend="host")
    ref = saga.smoothed_aggregation_solver(A, backend="host")
    b = np.arange(A.shape[0], dtype=float)
    assert np.allclose(ml.solve(b), ref.solve(b), rtol=1e-12, atol=1e-12)


def test_bad_inputs_are_clear_errors():
    A = saga.gallery.poisson("2d5", 10)
    with pytest.raises(TypeError, match="scipy.sparse"):
        saga.smoothed_aggregation_solver(A.toarray())
    with pytest.raises(ValueError, match="square"):
        saga.smoothed_aggregation_solver(sp.random(10, 12, density=0.3, format="csr"))
    with pytest.raises(TypeError, match="real systems"):
        saga.smoothed_aggregation_solver(A.astype(np.complex128))
    with pytest.raises(ValueError, match="theta"):
        saga.smoothed_aggregation_solver(A, theta=2.0, backend="host")
    with pytest.raises(ValueError, match="smoother"):
        saga.smoothed_aggregation_solver(A, smoother="no_such_smoother", backend="host")
    with pytest.raises(ValueError, match="unknown parameter|not a key|unknown key"):
        saga.smoothed_aggregation_solver(A, no_such_key=1, backend="host")
    neg = A.tolil()
    neg.setdiag(-1.0)
    with pytest.raises(ValueError, match="positive diagonal") as e:
        saga.smoothed_aggregation_solver(neg.tocsr(), backend="host")
    assert ".cpp:" not in str(e.value)  # no source location, as saga solve prints it
    bad = A.copy()
    bad.data[0] = np.nan
    with pytest.raises(ValueError):
        saga.smoothed_aggregation_solver(bad, backend="host")
    ml = saga.smoothed_aggregation_solver(A, backend="host")
    with pytest.raises(ValueError, match="shape"):
        ml.solve(np.ones(A.shape[0] + 1))
    with pytest.raises(ValueError):
        ml.solve(np.ones(A.shape[0]), tol=0.0)
    with pytest.raises(ValueError):
        ml.solve(np.ones(A.shape[0]), accel="no_such_method")


def test_no_gpu_for_cuda_is_a_runtime_error():
    if has_gpu():
        pytest.skip("a GPU is present")
    with pytest.raises(RuntimeError, match="GPU|CUDA|cuda"):
        saga.smoothed_aggregation_solver(saga.gallery.poisson("2d5", 8), backend="cuda")


@pytest.mark.parametrize("accel", ["cg", "fcg", "gmres", "fgmres", "bicgstab", None])
def test_every_accelerator_converges(accel):
    A = saga.gallery.poisson("3d7", 12)
    b = rng().uniform(0, 1, A.shape[0])
    ml = saga.smoothed_aggregation_solver(A, backend="host")
    x, info = ml.solve(b, tol=1e-8, maxiter=200, accel=accel, return_info=True)
    assert info["converged"], info["message"]
    assert np.linalg.norm(b - A @ x) <= 1.01e-8 * np.linalg.norm(b)


def test_non_convergence_is_reported_not_raised():
    A = saga.gallery.poisson("2d5", 64)
    b = rng().uniform(0, 1, A.shape[0])
    ml = saga.smoothed_aggregation_solver(A, backend="host")
    x, info = ml.solve(b, tol=1e-12, maxiter=2, return_info=True)
    assert not info["converged"]
    assert info["iterations"] == 2


def test_options_reach_the_setup():
    A = saga.gallery.poisson("2d5", 64)
    small = saga.smoothed_aggregation_solver(A, coarse_size=50, backend="host")
    large = saga.smoothed_aggregation_solver(A, coarse_size=2000, backend="host")
    assert len(small.levels) > len(large.levels)
    assert large.levels[-1]["rows"] <= 2000
    cheb = saga.smoothed_aggregation_solver(A, smoother=("chebyshev", {"degree": 3}), cycle="W", backend="host")
    b = np.ones(A.shape[0])
    assert np.linalg.norm(b - A @ cheb.solve(b)) <= 1.01e-8 * np.linalg.norm(b)
    one = saga.smoothed_aggregation_solver(A, max_levels=1, backend="host")
    assert len(one.levels) == 1


def test_single_precision_hierarchy_same_iterations_fewer_bytes():
    A = saga.gallery.poisson("3d7", 24)
    b = np.ones(A.shape[0])
    runs = {}
    for precision in ("double", "float"):
        ml = saga.smoothed_aggregation_solver(A, hierarchy_precision=precision, backend="host")
        x, info = ml.solve(b, return_info=True)
        assert np.linalg.norm(b - A @ x) <= 1.01e-8 * np.linalg.norm(b)
        assert all(l["single_precision"] == (precision == "float") for l in ml.levels)
        runs[precision] = (info["iterations"], sum(l["matrix_bytes"] for l in ml.levels))
    assert runs["float"][0] == runs["double"][0]
    assert runs["float"][1] < runs["double"][1]
    with pytest.raises(ValueError, match="hierarchy_precision"):
        saga.smoothed_aggregation_solver(A, hierarchy_precision="half", backend="host")


def test_spmv_copies_room_is_a_cycle_key():
    # amg.spmv_copies (docs/memory.md): the room of the GPU SpMV's copies; on the host it changes nothing.
    A = saga.gallery.poisson("2d5", 48)
    b = np.ones(A.shape[0])
    xs = [saga.smoothed_aggregation_solver(A, spmv_copies=room, backend="host").solve(b)
          for room in ("within_peak", "free", "none")]
    assert np.array_equal(xs[0], xs[1]) and np.array_equal(xs[0], xs[2])
    with pytest.raises(ValueError, match="spmv_copies"):
        saga.smoothed_aggregation_solver(A, spmv_copies="all", backend="host")


def test_statistics_and_repr():
    A = saga.gallery.poisson("3d7", 20)
    ml = saga.smoothed_aggregation_solver(A, backend="host")
    L = ml.levels
    assert L[0]["rows"] == A.shape[0] and L[0]["nnz"] == A.nnz
    assert all(L[i + 1]["rows"] < L[i]["rows"] for i in range(len(L) - 1))
    oc = sum(l["nnz"] for l in L) / A.nnz
    gc = sum(l["rows"] for l in L) / A.shape[0]
    assert ml.operator_complexity() == pytest.approx(oc)
    assert ml.grid_complexity() == pytest.approx(gc)
    t = ml.setup_timings()
    assert t["setup_seconds"] > 0
    assert 0 < t["spgemm_share"] < 1
    assert any("SpGEMM" in k or "P" in k for k in t["phase_seconds"])
    text = repr(ml)
    assert "operator complexity" in text and str(A.nnz) in text
    assert ml.backend == "host"


def test_elasticity_near_nullspace_cuts_iterations():
    # 2D plane-strain elasticity on a regular grid of bilinear elements, clamped on the left:
    # the rigid-body modes (two translations, one rotation) as B.
    n = 24
    h = 1.0 / n
    E, nu = 1.0, 0.3
    c = E / ((1 + nu) * (1 - 2 * nu))
    Dm = c * np.array([[1 - nu, nu, 0], [nu, 1 - nu, 0], [0, 0, (1 - 2 * nu) / 2]])
    gp = [-1 / np.sqrt(3), 1 / np.sqrt(3)]
    Ke = np.zeros((8, 8))
    for xi in gp:
        for eta in gp:
            dN = 0.25 * np.array([[-(1 - eta), (1 - eta), (1 + eta), -(1 + eta)],
                                  [-(1 - xi), -(1 + xi), (1 + xi), (1 - xi)]]) * (2 / h)
            Bm = np.zeros((3, 8))
            Bm[0, 0::2] = dN[0]
            Bm[1, 1::2] = dN[1]
            Bm[2, 0::2] = dN[1]
            Bm[2, 1::2] = dN[0]
            Ke += Bm.T @ Dm @ Bm * (h / 2) ** 2
    nodes = lambda i, j: i * (n + 1) + j
    rows, cols, vals = [], [], []
    for i in range(n):
        for j in range(n):
            nd = [nodes(i, j), nodes(i + 1, j), nodes(i + 1, j + 1), nodes(i, j + 1)]
            dofs = np.array([[2 * k, 2 * k + 1] for k in nd]).ravel()
            for a in range(8):
                for b_ in range(8):
                    rows.append(dofs[a]); cols.append(dofs[b_]); vals.append(Ke[a, b_])
    N = 2 * (n + 1) ** 2
    K = sp.coo_matrix((vals, (rows, cols)), shape=(N, N)).tocsr()
    # clamp x = 0 (i = 0): keep the free dofs
    free = np.array([d for d in range(N) if (d // 2) // (n + 1) != 0])
    K = K[free][:, free].tocsr()
    xy = np.array([[(d // 2) // (n + 1) * h, (d // 2) % (n + 1) * h] for d in free[::2]])
    Bm = np.zeros((K.shape[0], 3))
    Bm[0::2, 0] = 1
    Bm[1::2, 1] = 1
    Bm[0::2, 2] = -xy[:, 1]
    Bm[1::2, 2] = xy[:, 0]
    b = K @ rng().uniform(-1, 1, K.shape[0])
    plain = saga.smoothed_aggregation_solver(K, backend="host")
    modes = saga.smoothed_aggregation_solver(K, B=Bm, block_size=2, backend="host")
    _, i_plain = plain.solve(b, tol=1e-8, maxiter=500, return_info=True)
    x, i_modes = modes.solve(b, tol=1e-8, maxiter=500, return_info=True)
    assert i_modes["converged"]
    assert np.linalg.norm(b - K @ x) <= 1.01e-8 * np.linalg.norm(b)
    assert i_modes["iterations"] < i_plain["iterations"]


def test_bad_near_nullspace():
    A = saga.gallery.poisson("2d5", 10)
    with pytest.raises(ValueError, match="B"):
        saga.smoothed_aggregation_solver(A, B=np.ones((A.shape[0] + 1, 1)), backend="host")
    with pytest.raises(ValueError):
        saga.smoothed_aggregation_solver(A, B=np.zeros((A.shape[0], 1)), backend="host")


def test_matrix_market_and_gallery(tmp_path):
    A = saga.gallery.poisson("2d9", 12)
    path = tmp_path / "a.mtx"
    import scipy.io
    scipy.io.mmwrite(str(path), A)
    B = saga.io.read_matrix_market(path)
    assert (abs(A - B) > 1e-14 * abs(A).max()).nnz == 0
    with pytest.raises(ValueError, match="stencil"):
        saga.gallery.poisson("4d9", 10)
    with pytest.raises(ValueError):
        saga.io.read_matrix_market(tmp_path / "missing.mtx")


def test_solve_config_returns_the_report():
    cfg = ROOT / "configs" / "poisson_2d5_small.yaml"
    if not cfg.exists():
        cfg = next(p for p in sorted((ROOT / "configs").glob("*.yaml")) if "2d" in p.name)
    report = saga.solve_config(cfg, ["backend=host", "problem.N=64"])
    assert report["solve"]["converged"]
    assert report["solve"]["iterations"] > 0
    with pytest.raises(ValueError):
        saga.solve_config(cfg, ["amg.theta=7"])


@pytest.mark.parametrize("refresh", [False, True])
def test_resetup_with_new_values_equals_a_fresh_setup(refresh):
    A = saga.gallery.poisson("3d7", 14)
    b = rng().uniform(0, 1, A.shape[0])
    ml = saga.smoothed_aggregation_solver(A, backend="host")
    A2 = (2.5 * A).tocsr()  # same pattern, new values; D^-1 A, strength and aggregates unchanged
    assert ml.resetup(A2, refresh_prolongator=refresh) > 0
    fresh = saga.smoothed_aggregation_solver(A2, backend="host")
    x, info = ml.solve(b, return_info=True)
    y, info_fresh = fresh.solve(b, return_info=True)
    assert info["converged"] and info["iterations"] == info_fresh["iterations"]
    assert np.linalg.norm(b - A2 @ x) <= 1.01e-8 * np.linalg.norm(b)
    assert np.allclose(x, y, rtol=1e-10, atol=1e-12)
    # another pattern: an error, and the solver unchanged
    other = A2.tolil()
    other[0, A.shape[0] - 1] = -0.1
    other[A.shape[0] - 1, 0] = -0.1
    with pytest.raises(ValueError):
        ml.resetup(other.tocsr())
    with pytest.raises(ValueError, match="set up for"):
        ml.resetup(saga.gallery.poisson("3d7", 10))
    assert np.array_equal(ml.solve(b), x)


# ---- GPU arrays in place (CuPy): skipped without CuPy or a GPU ----------------------------------
def has_cupy():
    if not has_gpu():
        return False
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # not installed, or no driver
        return False


needs_cupy = pytest.mark.skipif(not has_cupy(), reason="no CuPy with a GPU")


class CudaArrayOnly:
    """A GPU vector known only by its __cuda_array_interface__ (as PyTorch or Numba hand one)."""

    def __init__(self, a):
        self._a = a
        self.__cuda_array_interface__ = a.__cuda_array_interface__


@needs_cupy
@pytest.mark.parametrize("stencil,N", [("3d7", 24), ("2d9", 64)])
def test_cupy_matrix_and_vectors_in_place(stencil, N):
    import cupy
    import cupyx.scipy.sparse as csp

    A = saga.gallery.poisson(stencil, N)
    x_star = rng().uniform(0, 1, A.shape[0])
    b = A @ x_star
    Ad = csp.csr_matrix(A)
    before = (Ad.data.copy(), Ad.indices.copy(), Ad.indptr.copy())
    ml = saga.smoothed_aggregation_solver(Ad)
    assert ml.backend.startswith("cuda")
    bd = cupy.asarray(b)
    x, info = ml.solve(bd, tol=1e-8, return_info=True)
    assert isinstance(x, cupy.ndarray) and x.shape == (A.shape[0],)
    assert info["converged"]
    r = bd - Ad @ x
    assert float(cupy.linalg.norm(r)) <= 1e-8 * float(cupy.linalg.norm(bd)) * 1.0001
    # the same hierarchy and iterates as from SciPy arrays on the GPU
    ref, info_ref = saga.smoothed_aggregation_solver(A, backend="cuda").solve(b, return_info=True)
    assert info["iterations"] == info_ref["iterations"]
    assert np.array_equal(cupy.asnumpy(x), ref)
    # anything with __cuda_array_interface__, and x0 on the GPU
    x2 = ml.solve(CudaArrayOnly(bd), x0=x, tol=1e-8)
    assert isinstance(x2, cupy.ndarray)
    # saga never writes to the caller's matrix
    for a, b0 in zip((Ad.data, Ad.indices, Ad.indptr), before):
        assert bool(cupy.all(a == b0))


@needs_cupy
def test_cupy_preconditioner_in_cupyx_cg():
    import cupy
    import cupyx.scipy.sparse as csp
    import cupyx.scipy.sparse.linalg as cspla

    A = saga.gallery.poisson("3d7", 20)
    Ad = csp.csr_matrix(A)
    bd = cupy.asarray(rng().uniform(-1, 1, A.shape[0]))
    ml = saga.smoothed_aggregation_solver(Ad)
    _, info = ml.solve(bd, tol=1e-8, return_info=True)
    M = ml.aspreconditioner()
    assert type(M).__module__.startswith("cupyx")
    count = [0]

    def cb(_):
        count[0] += 1

    try:
        x, code = cspla.cg(Ad, bd, M=M, rtol=1e-8, maxiter=200, callback=cb)
    except TypeError:  # older CuPy: tol
        x, code = cspla.cg(Ad, bd, M=M, tol=1e-8, maxiter=200, callback=cb)
    assert code == 0
    assert abs(count[0] - info["iterations"]) <= 1
    assert float(cupy.linalg.norm(bd - Ad @ x)) <= 1.01e-8 * float(cupy.linalg.norm(bd))


@needs_cupy
def test_cupy_formats_duplicates_and_bad_input():
    import cupy
    import cupyx.scipy.sparse as csp

    A = saga.gallery.poisson("2d5", 40)
    b = rng().uniform(0, 1, A.shape[0])
    ref = saga.smoothed_aggregation_solver(A, backend="cuda").solve(b)
    # COO with every entry split in two halves: converted and summed on the GPU
    C = A.tocoo()
    dup = csp.coo_matrix((cupy.asarray(np.concatenate([C.data / 2, C.data / 2])),
                          (cupy.asarray(np.concatenate([C.row, C.row])), cupy.asarray(np.concatenate([C.col, C.col])))),
                         shape=A.shape)
    x = saga.smoothed_aggregation_solver(dup).solve(cupy.asarray(b))
    assert np.allclose(cupy.asnumpy(x), ref, rtol=1e-9, atol=1e-12)
    # backend="host" takes a host copy and returns NumPy
    xh = saga.smoothed_aggregation_solver(csp.csr_matrix(A), backend="host").solve(cupy.asarray(b))
    assert isinstance(xh, np.ndarray)
    # a column out of range, sorted rows: found by the GPU check, named by row
    bad = A.copy()
    bad.indices[bad.indptr[7] + 1] = A.shape[0] + 5
    bad.has_sorted_indices = True
    Bd = csp.csr_matrix((cupy.asarray(bad.data), cupy.asarray(bad.indices), cupy.asarray(bad.indptr)), shape=A.shape)
    Bd.has_canonical_format = True
    with pytest.raises(ValueError, match="row 7"):
        saga.smoothed_aggregation_solver(Bd)
    # NaN values
    nan = csp.csr_matrix(A)
    nan.data[3] = cupy.nan
    with pytest.raises(ValueError):
        saga.smoothed_aggregation_solver(nan)
    # a vector of the wrong length
    ml = saga.smoothed_aggregation_solver(csp.csr_matrix(A))
    with pytest.raises(ValueError, match="shape"):
        ml.solve(cupy.zeros(A.shape[0] + 1))


@needs_cupy
def test_cupy_resetup_in_place():
    import cupy
    import cupyx.scipy.sparse as csp

    A = saga.gallery.poisson("3d7", 14)
    b = cupy.asarray(rng().uniform(0, 1, A.shape[0]))
    ml = saga.smoothed_aggregation_solver(csp.csr_matrix(A))
    A2 = csp.csr_matrix(2.5 * A)
    assert ml.resetup(A2) > 0
    x, info = ml.solve(b, return_info=True)
    y, info_fresh = saga.smoothed_aggregation_solver(A2).solve(b, return_info=True)
    assert info["iterations"] == info_fresh["iterations"]
    assert float(cupy.max(cupy.abs(x - y))) <= 1e-10 * float(cupy.max(cupy.abs(y)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_setup_memory(backend):
    ml = saga.smoothed_aggregation_solver(saga.gallery.poisson("3d7", 24), backend=backend)
    m = ml.setup_memory()
    if backend == "host":
        assert m is None  # no device memory to report
        return
    assert m["peak_level"] == 0
    assert m["peak_bytes"] > 24**3 * 7 * 12  # at least the matrix
    assert len(m["phase_peak_bytes"]) == len(ml.levels)
    assert m["phase_peak_bytes"][0][m["peak_phase"]] == m["peak_bytes"]
    assert all(v <= m["peak_bytes"] for level in m["phase_peak_bytes"] for v in level.values())


@pytest.mark.parametrize("backend", BACKENDS)
def test_pure_neumann_problem_singular_coarsest(backend):
    A = saga.gallery.poisson("2d5", 96, boundary="neumann")
    assert abs(A @ np.ones(A.shape[0])).max() == 0  # rows sum to zero: singular
    x_star = rng().random(A.shape[0])
    b = A @ x_star  # in A's range
    ml = saga.smoothed_aggregation_solver(A, backend=backend, coarse_size=500)
    assert ml.coarse_solve() == {"pseudo_inverse": True, "null_space_columns": 1}
    assert "shifted along 1 null direction" in repr(ml)
    residuals = []
    x = ml.solve(b, tol=1e-8, residuals=residuals)
    assert np.linalg.norm(b - A @ x) <= 1e-8 * np.linalg.norm(b)
    e = x - x_star
    assert np.linalg.norm(e - e.mean()) <= 1e-6 * np.linalg.norm(x_star)  # x* up to a constant
    assert len(residuals) < 30
    with pytest.raises(ValueError, match="boundary"):
        saga.gallery.poisson("2d5", 8, boundary="periodic")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("accel", ["cg", "fcg"])
def test_repeated_solves_equal_a_fresh_solver(backend, accel):
    # A solver keeps CG's vectors (and on the GPU the CUDA graph of its iteration)
    # from one solve to the next: nothing of one solve may reach the next, nor
    # survive a resetup.
    A = saga.gallery.poisson("3d7", 12)
    g = rng()
    ml = saga.smoothed_aggregation_solver(A, backend=backend)
    for k in range(3):
        b = g.uniform(-1, 1, A.shape[0])
        x0 = g.uniform(-1, 1, A.shape[0]) if k == 2 else None
        x, info = ml.solve(b, x0=x0, accel=accel, return_info=True)
        y, info_fresh = saga.smoothed_aggregation_solver(A, backend=backend).solve(b, x0=x0, accel=accel,
                                                                                   return_info=True)
        assert info["converged"] and info["iterations"] == info_fresh["iterations"]
        assert np.array_equal(x, y)
    A2 = (1.5 * A).tocsr()
    ml.resetup(A2)
    b = g.uniform(-1, 1, A.shape[0])
    x = ml.solve(b, accel=accel)
    fresh = saga.smoothed_aggregation_solver(A, backend=backend)
    fresh.resetup(A2)
    assert np.array_equal(x, fresh.solve(b, accel=accel))
