#!/usr/bin/env bash
# The host code under AddressSanitizer + UndefinedBehaviorSanitizer, and the
# libFuzzer targets, in ./build-fuzz (clang, no CUDA backend): builds, runs the
# host tests (the bad-input battery included), then each fuzzer for
# SAGA_FUZZ_SECONDS (default 15) from its seed corpus. Any sanitizer report,
# crash or leak fails. CI runs it after the test command (.ci/run);
# docs/reliability.md has the longer runs of record.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SAGA_FUZZ_BUILD_DIR:-build-fuzz}
# 64-bit row offsets here (SAGA_OFFSET_BITS, docs/design.md "Index widths"), so that CI compiles and
# tests the wide build too; tools/run_tests.sh covers the default 32-bit one.
CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSAGA_CUDA=OFF -DSAGA_FUZZ=ON \
  -DSAGA_OFFSET_BITS="${SAGA_FUZZ_OFFSET_BITS:-64}"
# What the checks run (not the benchmarks): the tests, the binary the battery drives, the fuzzers.
cmake --build "$BUILD_DIR" -j "${SAGA_JOBS:-$(nproc)}" --target saga_tests saga_gmsh_tests saga-cli \
  fuzz_matrix_market fuzz_gmsh fuzz_config
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$BUILD_DIR" && ctest --output-on-failure -L host -E install)
bash tools/fuzz.sh "$BUILD_DIR" "${SAGA_FUZZ_SECONDS:-15}"
