#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried):
#   bash tools/device_run.sh OUTDIR [--no-tests] [--no-bench] [--seed-suite] [--quick]
# Builds the CUDA backend with the unpacked Debian dependencies (see
# tools/device_deps.sh), runs the `gpu` and host tests, the sparse benchmark
# and optionally the seed-problem solves on both backends; writes logs and
# results to OUTDIR (few files: the device tool returns at most 8) and prints a
# short summary last.
set -uo pipefail
OUT=${1:?usage: device_run.sh OUTDIR [--no-tests] [--no-bench] [--seed-suite] [--quick]}
shift
TESTS=1 BENCH=1 SEED=0 QUICK=""
for a in "$@"; do
  case "$a" in
    --no-tests) TESTS=0 ;;
    --no-bench) BENCH=0 ;;
    --seed-suite) SEED=1 ;;
    --quick) QUICK=--quick ;;
    *) echo "unknown option $a"; exit 2 ;;
  esac
done
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
ROOT=$PWD
[ -d .deps/usr ] || { echo "no .deps: run tools/device_deps.sh here and carry .deps"; exit 2; }
export CMAKE_PREFIX_PATH=$ROOT/.deps/usr
export LD_LIBRARY_PATH=$ROOT/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export SAGA_BUILD_DIR=build-device SAGA_JOBS=16
summary() { echo "== $*" >> "$OUT/summary.txt"; }
summary "GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1)"
summary "commit: $(git rev-parse --short HEAD 2>/dev/null) $(git status --porcelain 2>/dev/null | wc -l) uncommitted changes"
t0=$(date +%s)
if ! bash tools/build.sh > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; summary "BUILD FAILED"; cat "$OUT/summary.txt"; exit 1
fi
summary "build: $(( $(date +%s) - t0 )) s"
if [ $TESTS = 1 ]; then
  (cd build-device && ./tests/saga_gpu_tests > "$OUT/tests.log" 2>&1; echo "gpu exit $?" >> "$OUT/tests.log")
  (cd build-device && ctest --output-on-failure >> "$OUT/tests.log" 2>&1)
  summary "gpu tests: $(grep -E 'test cases:' "$OUT/tests.log" | head -1)"
  summary "gpu tests: $(grep -E 'assertions:' "$OUT/tests.log" | head -1)"
  summary "ctest: $(grep -E 'tests passed|tests failed' "$OUT/tests.log")"
  grep -B3 -A10 "ERROR:" "$OUT/tests.log" | head -80
fi
if [ $BENCH = 1 ]; then
  ./build-device/benchmarks/saga-bench --json "$OUT/bench_sparse.json" --markdown "$OUT/bench_sparse.md" $QUICK \
    > "$OUT/bench.log" 2>&1 || summary "bench failed: $(tail -3 "$OUT/bench.log")"
  cat "$OUT/bench_sparse.md" 2>/dev/null
fi
if [ $SEED = 1 ]; then
  t0=$(date +%s)
  bash tools/seed_suite.sh build-device "$OUT/seed" cuda host > "$OUT/seed.log" 2>&1
  summary "seed suite: $(( $(date +%s) - t0 )) s, $(grep -c FAILED "$OUT/seed.log") failures"
  cp "$OUT/seed/seed_table.md" "$OUT/seed_table.md" 2>/dev/null
  tar czf "$OUT/seed_reports.tar.gz" -C "$OUT/seed" reports && rm -rf "$OUT/seed"
  cat "$OUT/seed_table.md"
fi
cat "$OUT/summary.txt"
