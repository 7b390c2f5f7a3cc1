#!/usr/bin/env bash
# Run ON THE GPU MACHINE from the repository root (with .deps carried): Nsight
# Compute's view of the SpMV kernels on the matrices of saga-bench-spmv
# arguments — the binned component's kernels (row blocks, long rows, and any
# variant the bench's table runs) beside cuSPARSE's, one line each with time,
# registers, occupancy, issue rate, L1 hits, L2 and DRAM throughput, L2 read and
# write sectors, DRAM bytes read and written, executed instructions and the
# largest stall reasons (tools/spmv_ncu_table.py).
#   bash tools/device_spmv_ncu.sh OUTDIR -- --rmat-scale 20 --rmat-edges 4 --only Laplacian [-- ARGS ...]
# Each group runs the bench once (--no-solves --repeat 1 added) under ncu
# (clocks left alone, caches flushed between kernels), profiling up to
# SAGA_NCU_COUNT (150) launches of the kernels matching SAGA_NCU_KERNELS.
# OUTDIR/spmv_ncu.tar.gz holds each group's raw CSV (gN.csv) and table (gN.md).
set -uo pipefail
OUT=${1:?usage: device_spmv_ncu.sh OUTDIR -- BENCH ARGS [-- BENCH ARGS ...]}
shift
if [ $# -eq 0 ] || [ "$1" != "--" ]; then
  echo "device_spmv_ncu.sh: no '-- BENCH ARGS' group" >&2
  exit 2
fi
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
O=$(mktemp -d)
trap 'tar -czf "$OUT/spmv_ncu.tar.gz" -C "$O" .' EXIT
# shellcheck source=tools/device_env.sh
source "$(dirname "$0")/device_env.sh"
{ cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > "$O/build.log" 2>&1 &&
  cmake --build build-device -j 16 --target saga-bench-spmv >> "$O/build.log" 2>&1; } || { tail -20 "$O/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/gpu.txt"
BENCH=./build-device/benchmarks/saga-bench-spmv
KERNELS=${SAGA_NCU_KERNELS:-'regex:^rows_kernel|^long_rows|^lane_rows|^merge_|^sorted_rows|csrmv'}
SECTIONS=(--section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats
          --section MemoryWorkloadAnalysis --section SchedulerStats --section InstructionStats
          --metrics lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum)
# One group of arguments (for_each_group, tools/device_env.sh: args, g).
run_group() {
  echo "## group $g: ${args[*]}"
  ncu --clock-control none --print-units base -k "$KERNELS" -c "${SAGA_NCU_COUNT:-150}" "${SECTIONS[@]}" --csv --page raw \
    "$BENCH" "${args[@]}" --no-solves --repeat 1 > "$O/g$g.csv" 2> "$O/g$g.err" ||
    { echo "ncu failed: $(tail -3 "$O/g$g.err")"; return; }
  python3 tools/spmv_ncu_table.py "$O/g$g.csv" | tee "$O/g$g.md"
}
for_each_group "$@"
