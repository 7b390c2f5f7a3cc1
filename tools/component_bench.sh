#!/usr/bin/env bash
# The component layer's benchmark of record (docs/components.md), ON THE GPU
# MACHINE after both builds:
#   bash tools/component_bench.sh NEW_BUILD BASELINE_BUILD OUTDIR [REPEATS]
# 1. Regression: every seed config (configs/poisson_*_N*.yaml) on cuda with the
#    baseline binary and the new one, alternating, REPEATS times each (min time).
# 2. Components: every seed config with each registered smoother, cycle and
#    Krylov method (`saga info --names`; cg without a preconditioner left out),
#    via `saga solve --set` (the F-cycle under fcg: it is not symmetric).
# Writes one JSON report per run under OUTDIR/runs and the tables
# (tools/component_table.py) to OUTDIR/components.md.
set -uo pipefail
NEW=${1:?usage: component_bench.sh NEW_BUILD BASELINE_BUILD OUTDIR [REPEATS]}
BASE=${2:?}
OUT=${3:?}
R=${4:-3}
cd "$(dirname "$0")/.."
mkdir -p "$OUT/runs"
run() {  # run NAME BUILD CONFIG [--set ...]
  local name=$1 build=$2 cfg=$3
  shift 3
  "$build/tools/saga" solve "$cfg" --backend cuda --quiet --report "$OUT/runs/$name.json" "$@" \
    > /dev/null 2> "$OUT/runs/$name.err" || echo "FAILED: $name $(tail -1 "$OUT/runs/$name.err")"
}
SMOOTHERS=$("$NEW/tools/saga" info --names smoother)
CYCLES=$("$NEW/tools/saga" info --names cycle)
METHODS=$("$NEW/tools/saga" info --names solver | grep -vx cg)
# The registry order of each group, for the tables.
{ echo smoother $SMOOTHERS; echo cycle $CYCLES; echo krylov $METHODS; } > "$OUT/runs/variants.txt"
for cfg in configs/poisson_*_N*.yaml; do
  p=$(basename "$cfg" .yaml)
  for k in $(seq 1 "$R"); do
    run "reg__${p}__baseline__$k" "$BASE" "$cfg"
    run "reg__${p}__new__$k" "$NEW" "$cfg"
  done
  for k in $(seq 1 "$R"); do
    for sm in $SMOOTHERS; do
      run "smoother__${p}__${sm}__$k" "$NEW" "$cfg" --set "amg.smoother=$sm"
    done
    for cy in $CYCLES; do
      if [ "$cy" = F ]; then
        run "cycle__${p}__${cy}__$k" "$NEW" "$cfg" --set amg.cycle=F --set solver.type=fcg
      else
        run "cycle__${p}__${cy}__$k" "$NEW" "$cfg" --set "amg.cycle=$cy"
      fi
    done
    for m in $METHODS; do
      run "krylov__${p}__${m}__$k" "$NEW" "$cfg" --set "solver.type=$m"
    done
  done
  echo "done $p"
done
# Setup regression inside one process each: profile-setup medians of 10 setups.
mkdir -p "$OUT/profiles"
for p in poisson_2d5_N1024 poisson_3d7_N64 poisson_3d7_N128 poisson_3d27_N101; do
  for k in 1 2; do
    "$BASE/tools/saga" profile-setup "configs/$p.yaml" --backend cuda --repeat 10 --json "$OUT/profiles/${p}__baseline__$k.json" > /dev/null 2>&1
    "$NEW/tools/saga" profile-setup "configs/$p.yaml" --backend cuda --repeat 10 --json "$OUT/profiles/${p}__new__$k.json" > /dev/null 2>&1
  done
done
python3 tools/component_table.py "$OUT/runs" "$OUT/profiles" > "$OUT/components.md"
cat "$OUT/components.md"
