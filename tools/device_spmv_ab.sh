#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried): the
# solve phase of this tree (B) against a base tree (A) in one job, the
# counterpart of device_ab.sh (which compares setups). Both trees' saga-bench-spmv
# run alternately, ROUNDS times, so that a change's gain is a ratio measured in
# one run on one machine.
#   git archive <base-rev> > ab_base.tar      (here; ignored by git: carry it, with .deps)
#   bash tools/device_spmv_ab.sh OUTDIR ab_base.tar [ROUNDS] [-- BENCH ARGS...]
# BENCH ARGS default to the V(1,1) cycles and PCG solves only
# ("--rmat-scale 0 --repeat 20 --solves 10 --only none"); pass e.g.
# "-- --rmat-scale 21 --repeat 20 --only R-MAT --no-solves" for products alone.
# SAGA_AB_TESTS="*SpMV*,*cycle*" also builds this tree's GPU tests and runs
# those cases first; SAGA_AB_FULL=1 runs the whole GPU suite instead
# (tools/device_run.sh --no-bench). Every output goes into OUTDIR/spmv_ab.tar.gz
# (a device job returns at most 8 files); the comparison table
# (tools/spmv_ab_table.py) is printed last. SAGA_OFFSET_BITS=64 builds both trees
# with 64-bit row offsets (build dirs build-device64 and the base's build64).
set -uo pipefail
OUT=${1:?usage: device_spmv_ab.sh OUTDIR BASE.tar [ROUNDS] [-- BENCH ARGS...]}
TAR=${2:?base tree tar}
shift 2
ROUNDS=3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  ROUNDS=$1
  shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
BENCH_ARGS=("$@")
[ ${#BENCH_ARGS[@]} -eq 0 ] && BENCH_ARGS=(--rmat-scale 0 --repeat 20 --solves 10 --only none)
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
O=$(mktemp -d)
trap 'tar -czf "$OUT/spmv_ab.tar.gz" -C "$O" .' EXIT
# shellcheck source=tools/device_env.sh
source "$(dirname "$0")/device_env.sh"
require_base_tar "$TAR"
t0=$(date +%s)
# The base tree is unpacked and built once per tar: a second A/B against the same
# base in one job (tools/device_spmv_ab_variants.sh) reuses its build.
sum=$(sha256sum "$TAR" | cut -d' ' -f1)
if [ "$(cat /tmp/saga_spmv_base/.tar.sha256 2>/dev/null)" != "$sum" ]; then
  rm -rf /tmp/saga_spmv_base && mkdir -p /tmp/saga_spmv_base && tar -xf "$TAR" -C /tmp/saga_spmv_base || exit 2
  echo "$sum" > /tmp/saga_spmv_base/.tar.sha256
fi
ln -sfn "$ROOT/.deps" /tmp/saga_spmv_base/.deps
BITS=${SAGA_OFFSET_BITS:-32}
BUILD_A=/tmp/saga_spmv_base/build BUILD_B=build-device
[ "$BITS" = 64 ] && BUILD_A=/tmp/saga_spmv_base/build64 BUILD_B=build-device64
configure() {  # SRC BUILD LOG
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSAGA_OFFSET_BITS="$BITS" \
    > "$3" 2>&1
}
(configure /tmp/saga_spmv_base "$BUILD_A" "$O/build_A.log" &&
  cmake --build "$BUILD_A" -j 6 --target saga-bench-spmv >> "$O/build_A.log" 2>&1) &
base_build=$!
if [ "${SAGA_AB_FULL:-0}" = 1 ]; then
  bash tools/device_run.sh "$O/full" --no-bench > "$O/full.out" 2>&1
  grep '^==' "$O/full.out" | tail -6
fi
targets=(saga-bench-spmv)
[ -n "${SAGA_AB_TESTS:-}" ] && targets+=(saga_gpu_tests)
{ configure "$ROOT" "$ROOT/$BUILD_B" "$O/build_B.log" &&
  cmake --build "$ROOT/$BUILD_B" -j 10 --target "${targets[@]}" >> "$O/build_B.log" 2>&1; } ||
  { tail -20 "$O/build_B.log"; exit 1; }
wait $base_build || { tail -20 "$O/build_A.log"; exit 1; }
echo "builds: $(($(date +%s) - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "$BITS-bit offsets"
if [ -n "${SAGA_AB_TESTS:-}" ]; then
  (cd "$BUILD_B" && ./tests/saga_gpu_tests -tc="$SAGA_AB_TESTS" > "$O/tests.log" 2>&1)
  echo "gpu tests ($SAGA_AB_TESTS): exit $?; $(grep -m1 'test cases:' "$O/tests.log")"
fi
for r in $(seq "$ROUNDS"); do
  for side in A B; do
    bin=$BUILD_A/benchmarks/saga-bench-spmv
    [ $side = B ] && bin=./$BUILD_B/benchmarks/saga-bench-spmv
    "$bin" "${BENCH_ARGS[@]}" --markdown "$O/${side}$r.md" --json "$O/${side}$r.json" > "$O/${side}$r.log" 2>&1 ||
      echo "$side round $r failed: $(tail -1 "$O/${side}$r.log")"
  done
  echo "round $r: $(($(date +%s) - t0)) s"
done
python3 tools/spmv_ab_table.py "$O" | tee "$O/table.md"
# The last B round's table of policy variants (one binary, no A/B needed): a
# patch that adds bench columns is read from the job's output.
if [ -f "$O/B$ROUNDS.md" ]; then
  echo "### B round $ROUNDS: binned SpMV policy variants (ms)"
  awk '/^### Binned SpMV policy variants/{on=1; next} on && /^### /{exit} on && NF' "$O/B$ROUNDS.md"
fi
