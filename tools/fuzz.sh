#!/usr/bin/env bash
# tools/fuzz.sh BUILD_DIR SECONDS [TARGET...]: runs the libFuzzer targets (built
# with SAGA_FUZZ=ON) for SECONDS each, starting from the seed corpora in
# fuzz/corpus/ (copied: new inputs go to BUILD_DIR/fuzz-corpus, the repository's
# corpus stays as it is). A crash leaves its input in BUILD_DIR/fuzz-artifacts and
# fails; make it a regression case (fuzz/corpus + the bad-input battery).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:?usage: fuzz.sh BUILD_DIR SECONDS [TARGET...]}
SECONDS_EACH=${2:?usage: fuzz.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(matrix_market gmsh config)
declare -A CORPUS=([matrix_market]=mtx [gmsh]=msh [config]=yaml)
mkdir -p "$BUILD_DIR/fuzz-artifacts"
for t in "${TARGETS[@]}"; do
  work="$BUILD_DIR/fuzz-corpus/$t"
  mkdir -p "$work"
  cp -n "fuzz/corpus/${CORPUS[$t]}/"* "$work/" 2>/dev/null || true
  echo "fuzz_$t: ${SECONDS_EACH} s"
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$BUILD_DIR/fuzz/fuzz_$t" "$work" -max_total_time="$SECONDS_EACH" \
    -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$BUILD_DIR/fuzz-artifacts/$t-" 2>&1 | grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|ERROR|SUMMARY|Test unit written|^Done" || true
  if ls "$BUILD_DIR/fuzz-artifacts/$t-"* > /dev/null 2>&1; then
    echo "fuzz_$t found a failing input: $(ls "$BUILD_DIR/fuzz-artifacts/$t-"*)"
    exit 1
  fi
done
