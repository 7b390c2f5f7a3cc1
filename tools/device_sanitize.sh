#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root, after tools/device_run.sh
# built build-device/:
#   bash tools/device_sanitize.sh OUTDIR [SECONDS] [SHARDS] [CASES_DIR]
# Runs the whole GPU test suite under each compute-sanitizer tool (memcheck
# with leak check, racecheck, initcheck, synccheck), the suite split into SHARDS
# (default 3) processes per tool, all at once (the sanitizers are CPU-bound:
# 4 x SHARDS processes share the machine's cores and its one GPU), each
# limited to SECONDS (default 500). The tests that fill the device on purpose
# (out-of-memory) are left out: a sanitizer reports their failed allocations.
# TOOLS="memcheck racecheck" runs only those tools.
# Writes OUTDIR/sanitize.txt: per tool and shard, the exit status, the error
# summary and how many test cases finished (doctest --duration lines).
# CASES_DIR/<tool>.cases (one test case name per line), when given, limits each
# tool to those cases (to finish a run that hit the time limit).
set -uo pipefail
OUT=${1:?usage: device_sanitize.sh OUTDIR [SECONDS] [SHARDS]}
SECONDS_EACH=${2:-500}
SHARDS=${3:-3}
CASES_DIR=${4:-}
mkdir -p "$OUT/sanitize"
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
BIN=build-device/tests/saga_gpu_tests
[ -x "$BIN" ] || { echo "no $BIN: run tools/device_run.sh first"; exit 2; }
OOM='*out of device memory*,*half the device memory*'
# Test case names, commas made wildcards (doctest filters are comma-separated).
mapfile -t CASES < <("$BIN" -ltc -tce="$OOM" --no-version | grep -v '^\[doctest\]' | grep -v '^=*$' | sed '/^$/d' | sed 's/,/*/g')
echo "${#CASES[@]} GPU test cases, $SHARDS shards per tool" > "$OUT/sanitize.txt"
pids=()
for tool in ${TOOLS:-memcheck racecheck initcheck synccheck}; do
  extra=""
  [ $tool = memcheck ] && extra="--leak-check full"
  if [ -n "$CASES_DIR" ]; then
    mapfile -t CASES < <(sed '/^$/d; s/,/*/g' "$CASES_DIR/$tool.cases")
  fi
  for ((s = 0; s < SHARDS; s++)); do
    filter=""
    for ((i = s; i < ${#CASES[@]}; i += SHARDS)); do filter+="${CASES[$i]},"; done
    log="$OUT/sanitize/${tool}_$s.log"
    ( timeout "$SECONDS_EACH" compute-sanitizer --tool $tool $extra --error-exitcode 99 --print-limit 20 \
        "$BIN" -tc="${filter%,}" --duration=true > "$log" 2>&1; echo "exit $?" >> "$log" ) &
    pids+=($!)
  done
done
wait "${pids[@]}"
for tool in ${TOOLS:-memcheck racecheck initcheck synccheck}; do
  for ((s = 0; s < SHARDS; s++)); do
    log="$OUT/sanitize/${tool}_$s.log"
    {
      echo "== $tool shard $s: $(tail -1 "$log") (124 = time limit; 99 = sanitizer errors)"
      grep -E "ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|test cases:" "$log" | tail -3
      echo "   test cases finished: $(grep -cE '^[0-9.]+ s: ' "$log")"
    } >> "$OUT/sanitize.txt"
  done
done
cat "$OUT/sanitize.txt"
(cd "$OUT" && tar czf sanitize_logs.tar.gz sanitize && rm -rf sanitize)
