#!/usr/bin/env bash
# Configures and builds saga in ./build (CUDA backend when nvcc is found,
# compiled for sm_90). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SAGA_BUILD_DIR:-build}
JOBS=${SAGA_JOBS:-$(nproc)}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "$@"
cmake --build "$BUILD_DIR" -j "$JOBS"
