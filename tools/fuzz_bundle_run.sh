#!/usr/bin/env bash
# Long fuzz runs on the 16-core GPU machine (no clang there: prebuilt binaries
# and their libraries travel in build-fuzzdev/, tools/fuzz_bundle.sh). usage: run.sh OUT SECONDS WORKERS
set -uo pipefail
OUT=$1 SECS=$2 W=$3
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib ASAN_OPTIONS=detect_leaks=1
declare -A C=([matrix_market]=mtx [gmsh]=msh [config]=yaml)
mkdir -p "$OUT/artifacts"
for t in matrix_market gmsh config; do
  mkdir -p work/$t
  cp -n corpus/${C[$t]}/* work/$t/ 2>/dev/null
  [ -d grown/$t ] && cp -n grown/$t/* work/$t/ 2>/dev/null
  ./fuzz_$t work/$t -fork=$W -max_total_time=$SECS -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$OUT/artifacts/$t-" > "$OUT/$t.log" 2>&1 &
done
wait
for t in matrix_market gmsh config; do echo "== $t"; grep -E "INFO: fuzzed for|DONE|cov:" "$OUT/$t.log" | tail -2; done
ls -la "$OUT/artifacts"
