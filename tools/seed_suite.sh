#!/usr/bin/env bash
# Runs `saga solve` on every seed config (configs/poisson_*_N*.yaml) on the given
# backends, with b = A x* and with b = 1, writing one JSON report per run into
# OUTDIR/reports and a Markdown table (tools/seed_table.py) to OUTDIR.
#   bash tools/seed_suite.sh BUILD_DIR OUTDIR [backends...]   (default: cuda host)
set -uo pipefail
BUILD=${1:?usage: seed_suite.sh BUILD_DIR OUTDIR [backends...]}
OUT=${2:?usage: seed_suite.sh BUILD_DIR OUTDIR [backends...]}
shift 2
BACKENDS=${*:-cuda host}
cd "$(dirname "$0")/.."
mkdir -p "$OUT/reports"
for cfg in configs/poisson_*_N*.yaml; do
  name=$(basename "$cfg" .yaml)
  for b in $BACKENDS; do
    for rhs in random_solution ones; do
      tmp=$(mktemp --suffix .yaml)
      sed "s/rhs: random_solution/rhs: $rhs/" "$cfg" > "$tmp"
      "$BUILD/tools/saga" solve "$tmp" --backend "$b" --report "$OUT/reports/${name}_${b}_${rhs}.json" \
        > "$OUT/reports/${name}_${b}_${rhs}.txt" 2>&1 || echo "FAILED: $name $b $rhs"
      rm -f "$tmp"
    done
  done
  echo "done $name"
done
python3 tools/seed_table.py "$OUT/reports" > "$OUT/seed_table.md"
cat "$OUT/seed_table.md"
