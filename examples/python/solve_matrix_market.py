#!/usr/bin/env python3
"""saga from Python: load a Matrix Market file, solve, and use saga as a SciPy preconditioner.

    PYTHONPATH=build/python python3 examples/python/solve_matrix_market.py [matrix.mtx] [--backend host|cuda|auto]

Without a file it writes the 2D 5-point Poisson matrix (N=128) to a temporary
one first. The right-hand side is A times a random vector.
"""
import argparse
import os
import tempfile
import time

import numpy as np
import scipy.io
import scipy.sparse.linalg as spla

import saga


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("matrix", nargs="?", help="a Matrix Market coordinate file (square, SPD)")
    ap.add_argument("--backend", default="auto", help="auto (the GPU where present), cuda or host")
    args = ap.parse_args()

    path = args.matrix
    if path is None:
        path = os.path.join(tempfile.mkdtemp(), "poisson_2d5_N128.mtx")
        scipy.io.mmwrite(path, saga.gallery.poisson("2d5", 128))
    A = saga.io.read_matrix_market(path)
    b = A @ np.random.default_rng(0).uniform(0, 1, A.shape[0])
    print("matrix %s: %d rows, %d nonzeros" % (path, A.shape[0], A.nnz))

    # 1. saga's own solve: PCG with a V-cycle, on the backend's device.
    t = time.perf_counter()
    ml = saga.smoothed_aggregation_solver(A, backend=args.backend)
    setup = time.perf_counter() - t
    print(ml)
    residuals = []
    t = time.perf_counter()
    x = ml.solve(b, tol=1e-8, accel="cg", residuals=residuals)
    solve = time.perf_counter() - t
    print("saga: %d iterations, ||b - Ax|| / ||b|| = %.2e, setup %.3f s (SpGEMM share %.0f%%), solve %.3f s"
          % (len(residuals) - 1, np.linalg.norm(b - A @ x) / np.linalg.norm(b), setup,
             100 * ml.setup_timings()["spgemm_share"], solve))

    # 2. the same hierarchy as the preconditioner of SciPy's CG.
    iterations = [0]
    M = ml.aspreconditioner()
    try:
        y, status = spla.cg(A, b, M=M, rtol=1e-8, atol=0.0, callback=lambda _: iterations.__setitem__(0, iterations[0] + 1))
    except TypeError:  # SciPy < 1.12
        y, status = spla.cg(A, b, M=M, tol=1e-8, atol=0.0, callback=lambda _: iterations.__setitem__(0, iterations[0] + 1))
    print("scipy.sparse.linalg.cg with saga's cycle: %d iterations, status %d, ||b - Ay|| / ||b|| = %.2e"
          % (iterations[0], status, np.linalg.norm(b - A @ y) / np.linalg.norm(b)))
    if status != 0 or np.linalg.norm(b - A @ x) > 1.01e-8 * np.linalg.norm(b):
        raise SystemExit("did not converge")


if __name__ == "__main__":
    main()
