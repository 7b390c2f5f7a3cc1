#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root, after tools/device_run.sh
# built build-device/ (or SAGA_BUILD_DIR):
#   bash tools/device_sanitize.sh OUTDIR [SECONDS] [JOBS] [CASES_DIR] [TOTAL_SECONDS]
# Runs every GPU test case under each compute-sanitizer tool (memcheck with
# leak check, racecheck, initcheck, synccheck), one process per (tool, case),
# JOBS (default 14) at a time (the sanitizers are CPU-bound; the processes share
# the machine's cores and its one GPU), each limited to SECONDS (default 300).
# The test sizes are the small ones (SAGA_TEST_SIZE=small, tests/helpers.hpp)
# unless SAGA_TEST_SIZE is set. The tests that fill the device on purpose
# (out-of-memory) are left out: a sanitizer reports their failed allocations.
# TOOLS="memcheck racecheck" runs only those tools; CASES_DIR/<tool>.cases (one
# test case name per line), where it exists, limits that tool to those cases.
# TOTAL_SECONDS (default 540) bounds the whole run: a case that would start
# after it is recorded as not run, and the summary is always written.
# Writes OUTDIR/sanitize.txt: per tool, the cases clean, and each case with
# errors, over the time limit, failed or not run (named); the logs of every case
# as sanitize_logs.tar.gz.
set -uo pipefail
OUT=${1:?usage: device_sanitize.sh OUTDIR [SECONDS] [JOBS] [CASES_DIR]}
SECONDS_EACH=${2:-300}
JOBS=${3:-14}
CASES_DIR=${4:-}
DEADLINE=$(( $(date +%s) + ${5:-540} - 15 ))
TOOLS=${TOOLS:-memcheck racecheck initcheck synccheck}
export SAGA_TEST_SIZE=${SAGA_TEST_SIZE:-small}
mkdir -p "$OUT/sanitize"
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
BIN=${SAGA_BUILD_DIR:-build-device}/tests/saga_gpu_tests  # SAGA_BUILD_DIR=build-device64: the 64-bit-offset build
[ -x "$BIN" ] || { echo "no $BIN: run tools/device_run.sh first"; exit 2; }
OOM='*out of device memory*,*out-of-memory names*,*half the device memory*,*little free device memory*,*runs out of memory*'
# Test case names, commas made wildcards (doctest filters are comma-separated).
"$BIN" -ltc -tce="$OOM" --no-version | grep -v '^\[doctest\]' | grep -v '^=*$' | sed '/^$/d' | sed 's/,/*/g' > "$OUT/sanitize/all.cases"
jobs_file="$OUT/sanitize/jobs"
: > "$jobs_file"
for tool in $TOOLS; do
  cases="$OUT/sanitize/all.cases"
  [ -n "$CASES_DIR" ] && [ -f "$CASES_DIR/$tool.cases" ] && cases="$CASES_DIR/$tool.cases"
  i=0
  while IFS= read -r c; do
    # commas made wildcards here too (a given list's names are doctest filters as well)
    [ -n "$c" ] && printf '%s\t%03d\t%s\n' "$tool" "$i" "${c//,/*}" >> "$jobs_file"
    i=$((i + 1))
  done < "$cases"
done
# Case-major order: the heavy cases (listed first) start first under every tool.
sort -t$'\t' -k2,2 -s -o "$jobs_file" "$jobs_file"
echo "$(wc -l < "$jobs_file") (tool, case) runs, $JOBS at a time, ${SECONDS_EACH}s each, SAGA_TEST_SIZE=$SAGA_TEST_SIZE" \
  > "$OUT/sanitize.txt"
run_one() {  # tool index case: one line "tool<TAB>status<TAB>case" to results
  local extra="" left=$((DEADLINE - $(date +%s)))
  if [ "$left" -lt 20 ]; then printf '%s\tnot run\t%s\n' "$1" "$3" >> "$OUT/sanitize/results"; return; fi
  [ "$left" -gt "$SECONDS_EACH" ] && left=$SECONDS_EACH
  [ "$1" = memcheck ] && extra="--leak-check full"
  local log="$OUT/sanitize/$1_$2.log" status
  echo "case: $3" > "$log"
  timeout "$left" compute-sanitizer --tool "$1" $extra --error-exitcode 99 --print-limit 20 \
    "$BIN" -tc="$3" --duration=true >> "$log" 2>&1
  local rc=$?
  # A filter that matches no test case runs nothing and exits 0: not "clean".
  [ $rc = 0 ] && grep -q 'test cases: *0 |' "$log" && rc=98
  case $rc in
    0) status=clean ;;
    98) status="no such test case" ;;
    99) status=errors ;;
    124) status="time limit (${left}s)" ;;
    *) status="failed" ;;
  esac
  printf '%s\t%s\t%s\n' "$1" "$status" "$3" >> "$OUT/sanitize/results"
}
export -f run_one
export OUT SECONDS_EACH BIN DEADLINE
: > "$OUT/sanitize/results"
tr '\t' '\n' < "$jobs_file" | xargs -d '\n' -n 3 -P "$JOBS" bash -c 'run_one "$0" "$1" "$2"'
for tool in $TOOLS; do
  {
    echo "== $tool: $(awk -F'\t' -v t="$tool" '$1 == t && $2 == "clean"' "$OUT/sanitize/results" | wc -l) clean of" \
      "$(awk -F'\t' -v t="$tool" '$1 == t' "$OUT/sanitize/results" | wc -l) cases"
    awk -F'\t' -v t="$tool" '$1 == t && $2 != "clean" { print "   " $2 ": " $3 }' "$OUT/sanitize/results"
  } >> "$OUT/sanitize.txt"
done
cat "$OUT/sanitize.txt"
(cd "$OUT" && tar czf sanitize_logs.tar.gz sanitize && rm -rf sanitize)
