#!/usr/bin/env bash
# First Quick-start command: install dependencies, build, run the main job
# (saga solve configs/default.yaml; on the GPU when there is one).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
"${SAGA_BUILD_DIR:-build}/tools/saga" solve configs/default.yaml "$@"
