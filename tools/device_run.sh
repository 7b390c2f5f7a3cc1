#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried):
#   bash tools/device_run.sh OUTDIR [--no-tests] [--no-bench] [--seed-suite] [--profile] [--fe] [--quick] [--components] [--spgemm] [--scale] [--spmv] [--tests-only=FILTER]
# Builds the CUDA backend with the unpacked Debian dependencies (see
# tools/device_deps.sh), runs the `gpu` and host tests, the sparse benchmark
# and optionally the seed-problem solves on both backends (--seed-suite), the
# setup-profile sweeps of the seed suite on both backends with every SpGEMM
# (--profile: profile.tar.gz with the CSV/JSON, plot them with
# tools/plot_setup.py) and the FE problems of 000_... Table 3 (--fe); writes logs and
# results to OUTDIR (few files: the device tool returns at most 8) and prints a
# short summary last. --spgemm runs saga-bench-spgemm and the setup profile of
# 3D 7-pt N=128 with every SpGEMM; --scale profiles the setup at N=128, 256, 512.
# --setup profiles the default setup of every seed config (10 repetitions) and of N=512 (2).
# --aggregation compares the aggregation methods (AGG_METHODS, default "greedy mis2
# phased") on the seed suite, N=512 and the variant / FE / elasticity configs, and
# theta 0 / 0.08 / 0.25 on the variants and FE (default aggregation).
# --spmspv runs saga-bench-spmspv (SpMSpV against SpMV, MIS-2 full sweeps
# against frontier rounds) and profiles the seed setups with and without frontier rounds.
# --dcsr runs saga-bench-dcsr (DCSR against CSR: SpMV, conversion,
# defragmentation, memory, streaming and iterative updates).
# --embedding runs saga-bench-embedding (numeric resetup against setup on the
# 3D seed problems, zero-copy device memory at 3D 7-pt N=512).
# --python builds the Python package with the machine's Python that has NumPy,
# SciPy, CuPy, pytest and pybind11 (SAGA_PYTHON_EXE, default the first python3 on
# PATH), runs its tests (GPU and CuPy cases included) and
# benchmarks/python/bench_python.py on 3D 7-pt N=128 (bench_python.md).
# --amg runs tools/bench_amg.py: the seed suite with the default device SpGEMM,
# with cuSPARSE's and on the host backend (best of 3 processes each), and the 3D
# 7-pt ladder N = 128, 256, 384, 512, 640 (bench_amg.md / .json / _ladder.png);
# SAGA_COMMIT=<rev> names the commit in them (the GPU machine's git metadata
# may be stale); SAGA_AMG_ARGS replaces the default arguments (e.g.
# "--variants cuda,cuda-float --ladder 512,640 --ladder-variants cuda,cuda-float").
# --spmv runs saga-bench-spmv (SpMV, V-cycle and PCG against their floors) and
# the seed-suite solves through the CLI. --tests-only=FILTER runs only the gpu
# test cases matching the doctest filter. --offsets64 builds with 64-bit row
# offsets (SAGA_OFFSET_BITS=64) in build-device64 (tests and --amg use it).
set -uo pipefail
OUT=${1:?usage: device_run.sh OUTDIR [--no-tests] [--no-bench] [--seed-suite] [--profile] [--fe] [--quick] [--components]}
shift
OFFSETS64=0 AMG=0 PYTHON=0 TESTS=1 BENCH=1 SEED=0 PROFILE=0 FE=0 QUICK="" COMPONENTS=0 SPGEMM=0 SCALE=0 SPMV=0 SPMSPV=0 DCSR=0 EMBED=0 AGG=0 SETUP=0 TC=""
for a in "$@"; do
  case "$a" in
    --no-tests) TESTS=0 ;;
    --no-bench) BENCH=0 ;;
    --seed-suite) SEED=1 ;;
    --profile) PROFILE=1 ;;
    --fe) FE=1 ;;
    --quick) QUICK=--quick ;;
    --components) COMPONENTS=1 ;;
    --spgemm) SPGEMM=1 ;;
    --scale) SCALE=1 ;;
    --spmv) SPMV=1 ;;
    --aggregation) AGG=1 ;;
    --spmspv) SPMSPV=1 ;;
    --dcsr) DCSR=1 ;;
    --embedding) EMBED=1 ;;
    --setup) SETUP=1 ;;
    --python) PYTHON=1 ;;
    --amg) AMG=1 ;;
    --offsets64) OFFSETS64=1 ;;
    --tests-only=*) TC="${a#--tests-only=}" ;;
    *) echo "unknown option $a"; exit 2 ;;
  esac
done
mkdir -p "$OUT"
# shellcheck source=tools/device_env.sh
source "$(dirname "$0")/device_env.sh"
export SAGA_BUILD_DIR=build-device SAGA_JOBS=16
summary() { echo "== $*" >> "$OUT/summary.txt"; }
# run_bench NAME [ARGS...]: saga-bench-NAME writing OUT/bench_NAME.{json,md,log};
# its time (or its failure) in the summary; its table on stdout.
run_bench() {
  local name=$1 t=$(date +%s)
  shift
  ./build-device/benchmarks/saga-bench-$name --json "$OUT/bench_$name.json" --markdown "$OUT/bench_$name.md" "$@" \
    > "$OUT/bench_$name.log" 2>&1 || summary "$name bench failed: $(tail -3 "$OUT/bench_$name.log")"
  summary "$name bench: $(( $(date +%s) - t )) s"
  cat "$OUT/bench_$name.md" 2>/dev/null
}
summary "GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1)"
summary "commit: $(git rev-parse --short HEAD 2>/dev/null) $(git status --porcelain 2>/dev/null | wc -l) uncommitted changes"
t0=$(date +%s)
BUILD_ARGS=()
if [ $PYTHON = 1 ]; then
  PY=${SAGA_PYTHON_EXE:-$(command -v python3)}
  BUILD_ARGS=(-DSAGA_PYTHON=ON -DPython_EXECUTABLE="$PY" -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)")
  # The GPU machine's default compiler (/opt/gcc/bin/g++, a wrapper) emits the
  # standard library's stream templates into the objects (weak, exported): in a
  # Python extension they clash with the libstdc++ Python already loaded, and
  # the first istream >> crashes (read_matrix_market). The system g++ does not.
  if [ -x /usr/bin/g++ ]; then
    export CC=/usr/bin/gcc CXX=/usr/bin/g++ CUDAHOSTCXX=/usr/bin/g++
    export SAGA_BUILD_DIR=build-device-py
  fi
fi
if [ $OFFSETS64 = 1 ]; then
  BUILD_ARGS+=(-DSAGA_OFFSET_BITS=64)
  export SAGA_BUILD_DIR=build-device64
fi
if ! bash tools/build.sh "${BUILD_ARGS[@]}" > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; summary "BUILD FAILED"; cat "$OUT/summary.txt"; exit 1
fi
summary "build: $(( $(date +%s) - t0 )) s"
if [ $TESTS = 1 ]; then
  if [ -n "$TC" ]; then
    (cd "$SAGA_BUILD_DIR" && ./tests/saga_gpu_tests -tc="$TC" > "$OUT/tests.log" 2>&1; echo "gpu exit $?" >> "$OUT/tests.log")
  else
    (cd "$SAGA_BUILD_DIR" && ./tests/saga_gpu_tests > "$OUT/tests.log" 2>&1; echo "gpu exit $?" >> "$OUT/tests.log")
    (cd "$SAGA_BUILD_DIR" && ctest --output-on-failure >> "$OUT/tests.log" 2>&1)
  fi
  summary "gpu tests: $(grep -E 'test cases:' "$OUT/tests.log" | head -1)"
  summary "gpu tests: $(grep -E 'assertions:' "$OUT/tests.log" | head -1)"
  summary "ctest: $(grep -E 'tests passed|tests failed' "$OUT/tests.log")"
  grep -B3 -A10 "ERROR:" "$OUT/tests.log" | head -80
  # The runners' one-line-a-failure summary (tests/failure_summary.hpp), into the job's summary too.
  grep -A22 '^\[saga\] [0-9]* failure' "$OUT/tests.log" | grep -v -e '^====' -e '^\[doctest\]' | while IFS= read -r line; do summary "$line"; done
fi
if [ $PYTHON = 1 ]; then
  t0=$(date +%s)
  (cd "$SAGA_BUILD_DIR" && ctest -L python -V > "$OUT/python_tests.log" 2>&1)
  summary "python tests: $(grep -E 'tests passed|tests failed' "$OUT/python_tests.log") ($(grep -oE '[0-9]+ passed[^=]*' "$OUT/python_tests.log" | head -1))"
  PYTHONPATH="$SAGA_BUILD_DIR/python" "$PY" benchmarks/python/bench_python.py --saga "$SAGA_BUILD_DIR/tools/saga" \
    --config configs/poisson_3d7_N128.yaml --out "$OUT" > "$OUT/bench_python.log" 2>&1 \
    || summary "python bench failed: $(tail -3 "$OUT/bench_python.log")"
  summary "python: $(( $(date +%s) - t0 )) s"
  cat "$OUT/bench_python.md" 2>/dev/null
fi
if [ $AMG = 1 ]; then
  t0=$(date +%s)
  # shellcheck disable=SC2086  # SAGA_AMG_ARGS is a list of arguments
  python3 tools/bench_amg.py --saga "$SAGA_BUILD_DIR/tools/saga" --out "$OUT" ${SAGA_AMG_ARGS:---ladder 128,256,384,512,640} ${SAGA_COMMIT:+--commit "$SAGA_COMMIT"} \
    > "$OUT/bench_amg.log" 2>&1 || summary "amg bench failed: $(tail -3 "$OUT/bench_amg.log")"
  summary "amg bench: $(( $(date +%s) - t0 )) s"
fi
if [ $BENCH = 1 ]; then
  ./build-device/benchmarks/saga-bench --json "$OUT/bench_sparse.json" --markdown "$OUT/bench_sparse.md" $QUICK \
    > "$OUT/bench.log" 2>&1 || summary "bench failed: $(tail -3 "$OUT/bench.log")"
  cat "$OUT/bench_sparse.md" 2>/dev/null
  ./build-device/benchmarks/saga-bench-executors --json "$OUT/bench_executors.json" > "$OUT/bench_executors.md" 2>&1 \
    || summary "executor bench failed: $(tail -3 "$OUT/bench_executors.md")"
  cat "$OUT/bench_executors.md"
fi
if [ $SPMV = 1 ]; then
  run_bench spmv $QUICK
  # The seed suite and the N=512 scale point through the CLI, GPU only.
  t0=$(date +%s)
  bash tools/seed_suite.sh build-device "$OUT/seed" cuda > "$OUT/seed.log" 2>&1
  ./build-device/tools/saga solve configs/scale/poisson_3d7_N512.yaml --report "$OUT/seed/reports/poisson_3d7_N512_cuda.json" \
    > "$OUT/seed/reports/poisson_3d7_N512_cuda.txt" 2>&1 || summary "N=512 solve failed"
  summary "seed suite (cuda) + N=512: $(( $(date +%s) - t0 )) s, $(grep -c FAILED "$OUT/seed.log") failures"
  tail -4 "$OUT/seed/reports/poisson_3d7_N512_cuda.txt" >> "$OUT/summary.txt"
  python3 tools/seed_table.py "$OUT/seed/reports" > "$OUT/seed_table.md" 2>/dev/null
  tar czf "$OUT/seed_reports.tar.gz" -C "$OUT/seed" reports && rm -rf "$OUT/seed"
fi
if [ $DCSR = 1 ]; then
  run_bench dcsr
fi
if [ $EMBED = 1 ]; then
  run_bench embedding
fi
if [ $SPMSPV = 1 ]; then
  run_bench spmspv
  t0=$(date +%s)
  for cfg in configs/poisson_*_N1024.yaml configs/poisson_3d7_N128.yaml configs/poisson_3d27_N101.yaml \
             configs/scale/poisson_3d7_N512.yaml; do
    rep=10; [ "$(basename "$cfg")" = poisson_3d7_N512.yaml ] && rep=2
    for fr in 0 0.25; do
      echo "=== $(basename "$cfg" .yaml) frontier_ratio $fr" >> "$OUT/setup_frontier.txt"
      ./build-device/tools/saga profile-setup "$cfg" --backend cuda --repeat $rep \
        --set amg.aggregation=mis2 --set amg.aggregation.frontier_ratio=$fr 2>&1 | grep -E "^setup|aggregation" >> "$OUT/setup_frontier.txt"
    done
  done
  summary "frontier setup profiles: $(( $(date +%s) - t0 )) s"
  cat "$OUT/setup_frontier.txt"
fi
if [ $SETUP = 1 ]; then
  t0=$(date +%s)
  for cfg in configs/poisson_*_N*.yaml configs/scale/poisson_3d7_N512.yaml; do
    rep=10; [ "$(basename "$cfg")" = poisson_3d7_N512.yaml ] && rep=2
    ./build-device/tools/saga profile-setup "$cfg" --backend cuda --repeat $rep >> "$OUT/setup_profiles.txt" 2>&1 \
      || summary "profile $cfg failed"
  done
  summary "setup profiles: $(( $(date +%s) - t0 )) s"
fi
if [ $AGG = 1 ]; then
  # Aggregation methods on the seed suite and at N = 512: setup by phase and the
  # PCG solve (iterations, time), one process per method and problem.
  t0=$(date +%s)
  for cfg in configs/poisson_*_N*.yaml configs/scale/poisson_3d7_N512.yaml; do
    name=$(basename "$cfg" .yaml)
    for m in ${AGG_METHODS:-greedy mis2 phased}; do
      rep=5; [ "$name" = poisson_3d7_N512 ] && rep=1
      echo "=== $name $m" >> "$OUT/aggregation.txt"
      ./build-device/tools/saga profile-setup "$cfg" --backend cuda --repeat $rep --set amg.aggregation=$m \
        2>&1 | grep -E "^setup|aggregation|levels|operator" >> "$OUT/aggregation.txt"
      ./build-device/tools/saga solve "$cfg" --backend cuda --set amg.aggregation=$m 2>&1 \
        | grep -E "^time|iterations [0-9]|hierarchy" >> "$OUT/aggregation.txt"
    done
  done
  # The methods on the variant, FE and elasticity configs (their own settings).
  for cfg in configs/poisson_2d5_anisotropic.yaml configs/poisson_2d9_rotated.yaml configs/poisson_3d7_checkerboard.yaml \
             configs/fe_square_3a.yaml configs/fe_box_4.yaml configs/fe_box_random_coefficient.yaml configs/elasticity_bar.yaml; do
    name=$(basename "$cfg" .yaml)
    for m in ${AGG_METHODS:-greedy mis2 phased}; do
      echo "=== $name $m" >> "$OUT/aggregation.txt"
      ./build-device/tools/saga profile-setup "$cfg" --backend cuda --repeat 3 --set amg.aggregation=$m \
        2>&1 | grep -E "^setup|aggregation|levels|operator" >> "$OUT/aggregation.txt"
      ./build-device/tools/saga solve "$cfg" --backend cuda --set amg.aggregation=$m 2>&1 \
        | grep -E "^time|iterations [0-9]|hierarchy" >> "$OUT/aggregation.txt"
    done
  done
  # The default strength threshold on the variants and FE problems (configs without theta).
  for cfg in configs/poisson_2d5_anisotropic.yaml configs/poisson_2d9_rotated.yaml configs/poisson_3d7_checkerboard.yaml \
             configs/fe_square_3a.yaml configs/fe_box_4.yaml configs/fe_box_random_coefficient.yaml; do
    for th in 0 0.08 0.25; do
      echo "=== $(basename "$cfg" .yaml) theta $th" >> "$OUT/aggregation.txt"
      ./build-device/tools/saga solve "$cfg" --backend cuda --set amg.theta=$th 2>&1 \
        | grep -E "^time|iterations [0-9]|hierarchy|^  strength" >> "$OUT/aggregation.txt"
    done
  done
  # Graph Laplacians with isolated vertices (left unaggregated since issue 13).
  for sc in 14 16; do
    echo "=== rmat_laplacian scale $sc" >> "$OUT/aggregation.txt"
    ./build-device/tools/saga solve configs/rmat_laplacian.yaml --backend cuda --set problem.scale=$sc 2>&1 \
      | grep -E "^time|iterations [0-9]|hierarchy|^ +[0-9]+ +[0-9]+ " >> "$OUT/aggregation.txt"
  done
  summary "aggregation runs: $(( $(date +%s) - t0 )) s"
fi
if [ $SPGEMM = 1 ]; then
  t0=$(date +%s)
  ./build-device/benchmarks/saga-bench-spgemm --json "$OUT/bench_spgemm.json" --markdown "$OUT/bench_spgemm.md" $QUICK \
    > "$OUT/bench_spgemm.log" 2>&1 || summary "spgemm bench failed: $(tail -3 "$OUT/bench_spgemm.log")"
  summary "spgemm bench: $(( $(date +%s) - t0 )) s"
  ./build-device/tools/saga profile-setup configs/poisson_3d7_N128.yaml --backend cuda --repeat 5 --spgemm all \
    > "$OUT/profile_3d7_N128.txt" 2>&1 || summary "profile failed: $(tail -3 "$OUT/profile_3d7_N128.txt")"
fi
if [ $SCALE = 1 ]; then
  # Setup cost per unknown at N = 128, 256, 512 (3D 7-pt), binned and the reference ESC.
  for n in 128 256 512; do
    for alg in binned esc; do
      t0=$(date +%s)
      ./build-device/tools/saga profile-setup configs/poisson_3d7_N128.yaml --backend cuda --repeat 2 --spgemm $alg \
        --set problem.N=$n >> "$OUT/scale.txt" 2>&1 || summary "scale N=$n $alg failed: $(tail -2 "$OUT/scale.txt")"
      summary "scale N=$n $alg: $(( $(date +%s) - t0 )) s"
    done
  done
fi
if [ $COMPONENTS = 1 ]; then
  # Baseline: the sources of commit 71fb8df in .baseline (git archive, carried).
  t0=$(date +%s)
  if [ -d .baseline ] && (cd .baseline && SAGA_BUILD_DIR=build-baseline bash tools/build.sh -DSAGA_BUILD_TESTS=OFF > "$OUT/build_baseline.log" 2>&1); then
    summary "baseline build: $(( $(date +%s) - t0 )) s"
    t0=$(date +%s)
    bash tools/component_bench.sh build-device .baseline/build-baseline "$OUT/comp" 3 > "$OUT/components.log" 2>&1
    summary "component bench: $(( $(date +%s) - t0 )) s, $(grep -c FAILED "$OUT/components.log") failures"
    cp "$OUT/comp/components.md" "$OUT/components.md" 2>/dev/null
    tar czf "$OUT/component_runs.tar.gz" -C "$OUT/comp" runs && rm -rf "$OUT/comp"
  else
    summary "baseline build failed or .baseline missing (git archive 71fb8df | tar -x -C .baseline)"
  fi
fi
if [ $SEED = 1 ]; then
  t0=$(date +%s)
  bash tools/seed_suite.sh build-device "$OUT/seed" cuda host > "$OUT/seed.log" 2>&1
  summary "seed suite: $(( $(date +%s) - t0 )) s, $(grep -c FAILED "$OUT/seed.log") failures"
  cp "$OUT/seed/seed_table.md" "$OUT/seed_table.md" 2>/dev/null
  tar czf "$OUT/seed_reports.tar.gz" -C "$OUT/seed" reports && rm -rf "$OUT/seed"
  cat "$OUT/seed_table.md"
fi
if [ $PROFILE = 1 ] || [ $FE = 1 ]; then
  P="$OUT/profile"
  mkdir -p "$P"
  SAGA=./build-device/tools/saga
  $SAGA info > "$P/info.txt" 2>&1
  if [ $PROFILE = 1 ]; then
    t0=$(date +%s)
    $SAGA sweep configs/sweeps/seed_suite.yaml --backend cuda --csv "$P/sweep_cuda.csv" --json "$P/sweep_cuda.json" \
      > "$P/sweep_cuda.txt" 2>&1 || summary "cuda sweep failed: $(tail -3 "$P/sweep_cuda.txt")"
    summary "cuda sweep: $(( $(date +%s) - t0 )) s"
    # Repeatability: the same profile twice, in separate processes.
    for k in 1 2; do
      $SAGA profile-setup configs/poisson_3d7_N128.yaml --backend cuda --repeat 10 --spgemm all \
        --csv "$P/repeat_$k.csv" > "$P/repeat_$k.txt" 2>&1
    done
    t0=$(date +%s)
    OMP_NUM_THREADS=16 $SAGA sweep configs/sweeps/seed_suite.yaml --backend host --repeat 3 --csv "$P/sweep_host.csv" \
      --json "$P/sweep_host.json" > "$P/sweep_host.txt" 2>&1 || summary "host sweep failed: $(tail -3 "$P/sweep_host.txt")"
    summary "host sweep: $(( $(date +%s) - t0 )) s"
    $SAGA solve configs/poisson_3d7_N128.yaml --backend cuda --report "$P/report_3d7_N128.json" > "$P/solve_3d7_N128.txt" 2>&1
  fi
  if [ $FE = 1 ]; then
    for c in fe_square_3a fe_square_3b fe_square_3c fe_box_4 poisson_2d5_anisotropic poisson_2d9_rotated \
             poisson_3d7_checkerboard fe_box_random_coefficient; do
      $SAGA solve configs/$c.yaml --backend cuda --report "$P/fe_$c.json" > "$P/fe_$c.txt" 2>&1 || summary "$c failed"
      summary "$c: $(grep -E '^solve' "$P/fe_$c.txt") | $(grep -E '^time' "$P/fe_$c.txt")"
    done
    t0=$(date +%s)
    $SAGA sweep configs/sweeps/fe_suite.yaml --backend cuda --csv "$P/sweep_fe_cuda.csv" > "$P/sweep_fe_cuda.txt" 2>&1 \
      || summary "fe sweep failed: $(tail -3 "$P/sweep_fe_cuda.txt")"
    summary "fe sweep: $(( $(date +%s) - t0 )) s"
  fi
  tar czf "$OUT/profile.tar.gz" -C "$OUT" profile && rm -rf "$P"
fi
cat "$OUT/summary.txt"
