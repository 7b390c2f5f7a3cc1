#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried):
#   bash tools/device_run.sh OUTDIR [bench args...]
# Builds the CUDA backend with the unpacked Debian dependencies, runs the `gpu`
# tests (and the host tests), the benchmarks and the seed-problem solves, and
# writes full logs and results to OUTDIR; prints a short summary last.
set -uo pipefail
OUT=${1:?usage: device_run.sh OUTDIR}
shift || true
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
ROOT=$PWD
[ -d .deps/usr ] || { echo "no .deps: run tools/device_deps.sh here and carry .deps"; exit 2; }
export CMAKE_PREFIX_PATH=$ROOT/.deps/usr
export LD_LIBRARY_PATH=$ROOT/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export SAGA_BUILD_DIR=build-device SAGA_JOBS=16
summary() { echo "== $*" | tee -a "$OUT/summary.txt"; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
summary "GPU: $(tail -1 "$OUT/gpu.txt")"
t0=$(date +%s)
if ! bash tools/build.sh -DEigen3_DIR=$ROOT/.deps/usr/share/eigen3/cmake > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; summary "BUILD FAILED"; exit 1
fi
summary "build: $(( $(date +%s) - t0 )) s"
(cd build-device && ctest --output-on-failure -L gpu > "$OUT/gpu_tests.log" 2>&1)
summary "gpu tests: $(grep -E 'tests passed|tests failed' "$OUT/gpu_tests.log")"
grep -E "test cases:|assertions:" "$OUT/gpu_tests.log" | tee -a "$OUT/summary.txt"
(cd build-device && ./tests/saga_gpu_tests -s=false > "$OUT/gpu_tests_detail.log" 2>&1) || true
grep -B2 -A12 "ERROR\|FAILED" "$OUT/gpu_tests_detail.log" | head -60
(cd build-device && OMP_NUM_THREADS=16 ctest --output-on-failure -L host > "$OUT/host_tests.log" 2>&1)
summary "host tests: $(grep -E 'tests passed|tests failed' "$OUT/host_tests.log")"
if [ -n "${SAGA_DEVICE_STEPS:-}" ]; then
  for step in $SAGA_DEVICE_STEPS; do
    summary "step $step"
    bash -c "$step" >> "$OUT/steps.log" 2>&1 || summary "step failed: $step"
  done
fi
if [ -z "${SAGA_SKIP_BENCH:-}" ]; then
  ./build-device/benchmarks/saga-bench --json "$OUT/bench_sparse.json" --markdown "$OUT/bench_sparse.md" "$@" \
    > "$OUT/bench.log" 2>&1 || summary "bench failed: $(tail -3 "$OUT/bench.log")"
  cat "$OUT/bench_sparse.md" 2>/dev/null
fi
cat "$OUT/summary.txt"
