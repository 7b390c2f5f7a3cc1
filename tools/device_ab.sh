#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried): the
# setup of this tree (B) against a base tree (A) in one job, so that a change's
# gain is a ratio measured in one run (the device machine is a fresh one on
# most calls, and runs of the same setup vary by a few per cent between them).
#   git archive <base-rev> > ab_base.tar      (here; ignored by git: carry it, with .deps)
#   bash tools/device_ab.sh OUTDIR ab_base.tar "configs/a.yaml configs/b.yaml" [REPEAT] [ROUNDS]
# Builds the base's saga CLI in build-base and this tree's in build-device, then
# runs `saga profile-setup CONFIG --backend cuda --repeat REPEAT` (default 10)
# for A and B alternately, ROUNDS times (default 3), and prints each run's
# setup median; the last run's phase tables go to OUTDIR/ab_<config>_{A,B}.txt.
# SAGA_AB_ARGS adds arguments to every profile-setup (e.g. "--set amg.x=y").
# SAGA_OFFSET_BITS=64 builds both trees with 64-bit row offsets (build-base64,
# build-device64). SAGA_AB_TESTS=FILTER also builds this tree's GPU tests and
# runs the cases matching the doctest filter first (OUTDIR/tests.log).
# SAGA_AB_SOLVE=1 times the solve instead: `saga solve CONFIG --backend cuda
# --repeat REPEAT --report ...` (SAGA_AB_ARGS added; the reports end in
# OUTDIR/solve_reports.tar.gz), and tools/solve_ab_table.py prints each
# config's warm solve (best repeat after the first) for A and B and B / A of
# the medians (OUTDIR/solve_table.md).
set -uo pipefail
OUT=${1:?usage: device_ab.sh OUTDIR BASE.tar "CONFIGS" [REPEAT] [ROUNDS]}
TAR=${2:?base tree tar}
CONFIGS=${3:?configs}
REPEAT=${4:-10}
ROUNDS=${5:-3}
mkdir -p "$OUT"
[ "${SAGA_AB_SOLVE:-0}" = 1 ] && mkdir -p "$OUT/reports"
# shellcheck source=tools/device_env.sh
source "$(dirname "$0")/device_env.sh"
require_base_tar "$TAR"
# The base tree is unpacked once per tar (its build is then incremental): a
# second A/B against the same base in one job (several patches in turn) reuses it.
sum=$(sha256sum "$TAR" | cut -d' ' -f1)
if [ "$(cat /tmp/saga_base/.tar.sha256 2>/dev/null)" != "$sum" ]; then
  rm -rf /tmp/saga_base && mkdir -p /tmp/saga_base && tar -xf "$TAR" -C /tmp/saga_base || exit 2
  echo "$sum" > /tmp/saga_base/.tar.sha256
fi
ln -sfn "$ROOT/.deps" /tmp/saga_base/.deps
BITS=${SAGA_OFFSET_BITS:-32}
BUILD_A=/tmp/saga_base/build-base BUILD_B=$ROOT/build-device
[ "$BITS" = 64 ] && BUILD_A=/tmp/saga_base/build-base64 BUILD_B=$ROOT/build-device64
build() {  # DIR SRC TARGETS...
  local dir=$1 src=$2
  shift 2
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DSAGA_OFFSET_BITS="$BITS" > "$OUT/build_$(basename "$dir").log" 2>&1 &&
    cmake --build "$dir" -j 16 --target "$@" >> "$OUT/build_$(basename "$dir").log" 2>&1
}
t0=$(date +%s)
build "$BUILD_A" /tmp/saga_base saga-cli || { tail -20 "$OUT/build_$(basename "$BUILD_A").log"; exit 1; }
targets=(saga-cli)
[ -n "${SAGA_AB_TESTS:-}" ] && targets+=(saga_gpu_tests)
build "$BUILD_B" "$ROOT" "${targets[@]}" || { tail -20 "$OUT/build_$(basename "$BUILD_B").log"; exit 1; }
echo "builds ($BITS-bit offsets): $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ -n "${SAGA_AB_TESTS:-}" ]; then
  (cd "$BUILD_B" && ./tests/saga_gpu_tests -tc="$SAGA_AB_TESTS" > "$OUT/tests.log" 2>&1)
  echo "gpu tests ($SAGA_AB_TESTS): exit $?; $(grep -E '^\[doctest\] (test cases|assertions)' "$OUT/tests.log" | tr -s ' ' | tr '\n' ' ')"
fi
for cfg in $CONFIGS; do
  name=$(basename "$cfg" .yaml)
  for r in $(seq "$ROUNDS"); do
    for side in A B; do
      bin=$BUILD_A/tools/saga
      [ $side = B ] && bin=$BUILD_B/tools/saga
      if [ "${SAGA_AB_SOLVE:-0}" = 1 ]; then
        # shellcheck disable=SC2086
        "$bin" solve "$cfg" --backend cuda --repeat "$REPEAT" --report "$OUT/reports/ab_${name}_${side}_$r.json" \
          ${SAGA_AB_ARGS:-} > "$OUT/reports/ab_${name}_${side}_$r.txt" 2>&1 ||
          echo "$name $side round $r failed: $(tail -1 "$OUT/reports/ab_${name}_${side}_$r.txt")"
        continue
      fi
      # shellcheck disable=SC2086
      "$bin" profile-setup "$cfg" --backend cuda --repeat "$REPEAT" ${SAGA_AB_ARGS:-} > "$OUT/ab_${name}_$side.txt" 2>&1
      echo "$name $side round $r: $(grep -m1 '^setup' "$OUT/ab_${name}_$side.txt")"
    done
  done
done
if [ "${SAGA_AB_SOLVE:-0}" = 1 ]; then  # the reports in one file (a device job returns at most 8)
  python3 "$(dirname "$0")/solve_ab_table.py" "$OUT/reports" | tee "$OUT/solve_table.md"
  tar -czf "$OUT/solve_reports.tar.gz" -C "$OUT" reports && rm -rf "$OUT/reports"
fi
