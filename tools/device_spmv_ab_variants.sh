#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried): several
# candidate changes against one base in one device job. Each PATCH (a
# `git diff` of the tree, carried as an untracked file) is applied to the tree
# in turn, measured by tools/device_spmv_ab.sh against BASE.tar (B = the tree
# with the patch), and reverted; the base is built once for all of them.
#   git archive HEAD > ab_base.tar; git diff > v1.patch; git checkout .; ...
#   bash tools/device_spmv_ab_variants.sh OUTDIR ab_base.tar ROUNDS v1.patch v2.patch [-- BENCH ARGS...]
# Results: OUTDIR/<patch name>/spmv_ab.tar.gz each; the comparison tables are
# printed one after the other. SAGA_AB_TESTS (the GPU test cases run on each B)
# is passed through. A patch that does not apply is reported and skipped.
set -uo pipefail
OUT=${1:?usage: device_spmv_ab_variants.sh OUTDIR BASE.tar ROUNDS PATCH... [-- BENCH ARGS...]}
TAR=${2:?base tree tar}
ROUNDS=${3:?rounds}
shift 3
PATCHES=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  PATCHES+=("$1")
  shift
done
[ ${#PATCHES[@]} -eq 0 ] && { echo "device_spmv_ab_variants.sh: no patch given" >&2; exit 2; }
for p in "${PATCHES[@]}"; do
  name=$(basename "$p" .patch)
  if ! git apply "$p" 2>"/tmp/apply_$name.log"; then
    echo "== $name: does not apply: $(head -1 "/tmp/apply_$name.log")"
    continue
  fi
  echo "== $name"
  bash "$(dirname "$0")/device_spmv_ab.sh" "$OUT/$name" "$TAR" "$ROUNDS" "$@"
  git apply -R "$p" || { echo "== $name: could not be reverted; stopping" >&2; exit 1; }
done
