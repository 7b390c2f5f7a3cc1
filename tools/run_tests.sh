#!/usr/bin/env bash
# Second Quick-start command: install dependencies, build, run the whole test
# suite (GPU tests report "skipped" when there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
cd "${SAGA_BUILD_DIR:-build}"
ctest --output-on-failure
