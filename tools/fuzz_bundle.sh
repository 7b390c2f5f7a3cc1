#!/usr/bin/env bash
# Long fuzz runs on the GPU machine's 16 cores (it has no clang): packs the
# fuzzers built here by tools/sanitize.sh (debug info stripped), their shared
# libraries and the seed corpora into build-fuzzdev/ (ignored), with run.sh.
# Then, with the device tool and carry ["build-fuzzdev"]:
#   bash build-fuzzdev/run.sh $OUT SECONDS WORKERS      (e.g. 540 5: 45 CPU-minutes per fuzzer)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build-fuzz}
rm -rf build-fuzzdev && mkdir -p build-fuzzdev/lib
for t in matrix_market gmsh config; do strip -g -o build-fuzzdev/fuzz_$t "$B/fuzz/fuzz_$t"; done
for lib in $(ldd "$B/fuzz/fuzz_config" | awk '/=>/ {print $3}' | grep -E "libstdc\+\+|libomp|yaml-cpp|spdlog|libfmt|libgcc_s"); do
  cp "$lib" build-fuzzdev/lib/
done
cp -r fuzz/corpus build-fuzzdev/corpus
cp tools/fuzz_bundle_run.sh build-fuzzdev/run.sh
