#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried): this
# tree's saga-bench-spmv alone (no base, no A/B) on one or more argument groups,
# each printing the SpMV table against cuSPARSE and the table of binned policy
# variants — the measurement of a policy option's columns in one binary, the
# cheapest device job there is (one build, one run a group).
#   bash tools/device_spmv_variants.sh OUTDIR -- --rmat-scale 21 --rmat-edges 8 --repeat 10 --only R-MAT --no-solves \
#                                             -- --rmat-scale 0 --repeat 7 --no-solves --only 3d27
# SAGA_VARIANTS_TESTS="*SpMV*" also builds the GPU tests and runs those cases
# first. Each group's Markdown and JSON go to OUTDIR/gN.md / gN.json (a device
# job returns at most 8 files: OUTDIR/variants.tar.gz holds them all).
set -uo pipefail
OUT=${1:?usage: device_spmv_variants.sh OUTDIR -- BENCH ARGS [-- BENCH ARGS ...]}
shift
if [ $# -eq 0 ] || [ "$1" != "--" ]; then
  echo "device_spmv_variants.sh: no '-- BENCH ARGS' group" >&2
  exit 2
fi
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
O=$(mktemp -d)
trap 'tar -czf "$OUT/variants.tar.gz" -C "$O" .' EXIT
# shellcheck source=tools/device_env.sh
source "$(dirname "$0")/device_env.sh"
t0=$(date +%s)
targets=(saga-bench-spmv)
[ -n "${SAGA_VARIANTS_TESTS:-}" ] && targets+=(saga_gpu_tests)
{ cmake -S "$ROOT" -B "$ROOT/build-device" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    > "$O/build.log" 2>&1 &&
  cmake --build "$ROOT/build-device" -j 16 --target "${targets[@]}" >> "$O/build.log" 2>&1; } ||
  { tail -20 "$O/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(git -C "$ROOT" log --oneline -1 2>/dev/null | cut -c1-60)"
if [ -n "${SAGA_VARIANTS_TESTS:-}" ]; then
  (cd "$ROOT/build-device" && ./tests/saga_gpu_tests -tc="$SAGA_VARIANTS_TESTS" > "$O/tests.log" 2>&1)
  echo "gpu tests ($SAGA_VARIANTS_TESTS): exit $?; $(grep -m1 'test cases:' "$O/tests.log")"
fi
# One group of arguments (for_each_group, tools/device_env.sh: args, g).
run_group() {
  echo "## group $g: ${args[*]}"
  "$ROOT/build-device/benchmarks/saga-bench-spmv" "${args[@]}" --markdown "$O/g$g.md" --json "$O/g$g.json" \
    > "$O/g$g.log" 2>&1 || { echo "group $g failed: $(tail -1 "$O/g$g.log")"; return; }
  grep -A1000 '^| matrix | rows | nnz' "$O/g$g.md" | awk 'NF == 0 {exit} {print}'
  echo
  awk '/^### Binned SpMV policy variants/{on=1; next} on && /^### /{exit} on && NF' "$O/g$g.md"
  echo
  awk '/^### Sorted slices by chunk/{on=1; next} on && /^### /{exit} on && NF' "$O/g$g.md"
  echo "($(($(date +%s) - t0)) s)"
}
for_each_group "$@"
