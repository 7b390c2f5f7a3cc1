# Sourced by the scripts that run on the GPU machine (device_run.sh,
# device_ab.sh, ...): goes to the repository root (ROOT) and puts the unpacked
# Debian dependencies (.deps, tools/device_deps.sh; carried with the tree) on
# CMake's and the loader's paths.
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
ROOT=$PWD
[ -d .deps/usr ] || { echo "no .deps: run tools/device_deps.sh here and carry .deps"; exit 2; }
export CMAKE_PREFIX_PATH=$ROOT/.deps/usr
export LD_LIBRARY_PATH=$ROOT/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}

# For the A/B scripts (device_ab.sh, device_spmv_ab.sh; device_spmv_ab_variants.sh
# through the latter): a base tree's tar that is not a file (e.g. the rounds
# given in its place) stops the job here, before any build. The path is the
# one the script reads, from the repository root.
require_base_tar() {
  [ -f "$1" ] || { echo "$(basename "$0"): the base tree's tar '$1' is not a file (git archive <rev> > ab_base.tar, carried)" >&2; exit 2; }
}

# For the scripts that take groups of arguments (OUTDIR -- ARGS [-- ARGS ...]:
# device_spmv_variants.sh, device_spmv_ncu.sh): for_each_group -- A... [-- B...]
# calls the script's run_group once a group, in order, with the group's
# arguments in the array `args` (g counts the groups run, from 1).
for_each_group() {
  g=0
  args=()
  local a
  shift  # the first "--"
  for a in "$@"; do
    if [ "$a" = "--" ]; then
      g=$((g + 1))
      run_group
      args=()
    else
      args+=("$a")
    fi
  done
  g=$((g + 1))
  run_group
}
