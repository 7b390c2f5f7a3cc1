#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried): the
# kernels of one V(1,1) cycle, each timed by Nsight Compute, against the cycle's
# measured time — how much of a small problem's cycle is its kernels and how
# much the gaps between them.
#   bash tools/device_cycle_profile.sh OUTDIR [PROBLEM ...]     (default: "3d7 N=64" "3d7 N=128")
# PROBLEM is a saga-bench-spmv --solve-only name ("2d5 N=1024", "3d27 N=101").
# saga-bench-spmv --profile-cycle runs one cycle (kernel by kernel, dependent
# launches) with the profiler's collection on; ncu (clocks and caches left
# alone) times each kernel by itself. Everything goes into OUTDIR/cycle_profile.tar.gz;
# the table (tools/cycle_profile_table.py) is printed last.
# SAGA_OFFSET_BITS=64 builds and profiles the 64-bit-offset build (build-device64)
# instead, so that two calls compare the widths kernel by kernel.
set -uo pipefail
OUT=${1:?usage: device_cycle_profile.sh OUTDIR [PROBLEM ...]}
shift
PROBLEMS=("$@")
[ ${#PROBLEMS[@]} -eq 0 ] && PROBLEMS=("3d7 N=64" "3d7 N=128")
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
O=$(mktemp -d)
trap 'tar -czf "$OUT/cycle_profile.tar.gz" -C "$O" .' EXIT
# shellcheck source=tools/device_env.sh
source "$(dirname "$0")/device_env.sh"
BITS=${SAGA_OFFSET_BITS:-32}
BUILD=build-device
[ "$BITS" = 64 ] && BUILD=build-device64
{ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DSAGA_OFFSET_BITS="$BITS" \
    > "$O/build.log" 2>&1 &&
  cmake --build "$BUILD" -j 16 --target saga-bench-spmv >> "$O/build.log" 2>&1; } || { tail -20 "$O/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/gpu.txt"
echo "$BITS-bit offsets" > "$O/offsets.txt"
BENCH=./$BUILD/benchmarks/saga-bench-spmv
i=0
for p in "${PROBLEMS[@]}"; do
  i=$((i + 1))
  echo "$p" > "$O/p$i.name"
  # The cycle's measured time, without the profiler.
  "$BENCH" --rmat-scale 0 --only none --solve-only "$p" --repeat 20 --solves 1 --json "$O/p$i.json" > "$O/p$i.log" 2>&1 ||
    echo "$p: bench failed: $(tail -1 "$O/p$i.log")"
  ncu --profile-from-start off --clock-control none --cache-control none --csv --page raw \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,dram__bytes_read.sum,dram__bytes_write.sum \
    "$BENCH" --rmat-scale 0 --only none --solve-only "$p" --repeat 1 --solves 1 --profile-cycle \
    --json "$O/p$i.ncu.json" > "$O/p$i.csv" 2> "$O/p$i.ncu.err" || echo "$p: ncu failed: $(tail -3 "$O/p$i.ncu.err")"
done
python3 tools/cycle_profile_table.py "$O" | tee "$O/table.md"
