#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root, after tools/device_run.sh
# built build-device/:
#   bash tools/device_sanitize.sh OUTDIR [SECONDS] [JOBS] [CASES_DIR]
# Runs every GPU test case under each compute-sanitizer tool (memcheck with
# leak check, racecheck, initcheck, synccheck), one process per (tool, case),
# JOBS (default 14) at a time (the sanitizers are CPU-bound; the processes share
# the machine's cores and its one GPU), each limited to SECONDS (default 300).
# The test sizes are the small ones (SAGA_TEST_SIZE=small, tests/helpers.hpp)
# unless SAGA_TEST_SIZE is set. The tests that fill the device on purpose
# (out-of-memory) are left out: a sanitizer reports their failed allocations.
# TOOLS="memcheck racecheck" runs only those tools; CASES_DIR/<tool>.cases (one
# test case name per line), when given, limits a tool to those cases.
# Writes OUTDIR/sanitize.txt: per tool, the cases clean, with errors, and over
# the time limit (named), and the logs of every case as sanitize_logs.tar.gz.
set -uo pipefail
OUT=${1:?usage: device_sanitize.sh OUTDIR [SECONDS] [JOBS] [CASES_DIR]}
SECONDS_EACH=${2:-300}
JOBS=${3:-14}
CASES_DIR=${4:-}
TOOLS=${TOOLS:-memcheck racecheck initcheck synccheck}
export SAGA_TEST_SIZE=${SAGA_TEST_SIZE:-small}
mkdir -p "$OUT/sanitize"
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
BIN=build-device/tests/saga_gpu_tests
[ -x "$BIN" ] || { echo "no $BIN: run tools/device_run.sh first"; exit 2; }
OOM='*out of device memory*,*half the device memory*,*little free device memory*'
# Test case names, commas made wildcards (doctest filters are comma-separated).
"$BIN" -ltc -tce="$OOM" --no-version | grep -v '^\[doctest\]' | grep -v '^=*$' | sed '/^$/d' | sed 's/,/*/g' > "$OUT/sanitize/all.cases"
jobs_file="$OUT/sanitize/jobs"
: > "$jobs_file"
for tool in $TOOLS; do
  cases="$OUT/sanitize/all.cases"
  [ -n "$CASES_DIR" ] && cases="$CASES_DIR/$tool.cases"
  i=0
  while IFS= read -r c; do
    [ -n "$c" ] && printf '%s\t%03d\t%s\n' "$tool" "$i" "$c" >> "$jobs_file"
    i=$((i + 1))
  done < "$cases"
done
echo "$(wc -l < "$jobs_file") (tool, case) runs, $JOBS at a time, ${SECONDS_EACH}s each, SAGA_TEST_SIZE=$SAGA_TEST_SIZE" \
  > "$OUT/sanitize.txt"
run_one() {  # tool index case
  local extra=""
  [ "$1" = memcheck ] && extra="--leak-check full"
  local log="$OUT/sanitize/$1_$2.log"
  echo "case: $3" > "$log"
  timeout "$SECONDS_EACH" compute-sanitizer --tool "$1" $extra --error-exitcode 99 --print-limit 20 \
    "$BIN" -tc="$3" --duration=true >> "$log" 2>&1
  echo "exit $?" >> "$log"
}
export -f run_one
export OUT SECONDS_EACH BIN
tr '\t' '\n' < "$jobs_file" | xargs -d '\n' -n 3 -P "$JOBS" bash -c 'run_one "$0" "$1" "$2"'
for tool in $TOOLS; do
  clean=0; errors=(); slow=(); failed=()
  for log in "$OUT"/sanitize/${tool}_*.log; do
    [ -e "$log" ] || continue
    c=$(head -1 "$log" | sed 's/^case: //')
    case "$(tail -1 "$log")" in
      "exit 0") clean=$((clean + 1)) ;;
      "exit 99") errors+=("$c") ;;
      "exit 124") slow+=("$c") ;;
      *) failed+=("$c ($(tail -1 "$log"))") ;;
    esac
  done
  {
    echo "== $tool: $clean clean, ${#errors[@]} with sanitizer errors, ${#slow[@]} over the time limit, ${#failed[@]} failed otherwise"
    for c in "${errors[@]}"; do echo "   errors: $c"; done
    for c in "${slow[@]}"; do echo "   time limit: $c"; done
    for c in "${failed[@]}"; do echo "   failed: $c"; done
  } >> "$OUT/sanitize.txt"
done
cat "$OUT/sanitize.txt"
(cd "$OUT" && tar czf sanitize_logs.tar.gz sanitize && rm -rf sanitize)
