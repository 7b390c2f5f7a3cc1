#!/usr/bin/env bash
# Installs saga's build dependencies from Debian packages (non-interactive,
# idempotent: does nothing when everything is already installed).
set -euo pipefail
PACKAGES=(cmake ninja-build g++ libeigen3-dev libyaml-cpp-dev libspdlog-dev libfmt-dev doctest-dev libcli11-dev gmsh python3-matplotlib
          nlohmann-json3-dev gfortran  # gfortran: the Fortran example (examples/)
          pybind11-dev python3-dev python3-numpy python3-scipy python3-pytest  # the Python package (python/)
          clang libomp-dev libclang-rt-dev)  # the sanitizer and fuzzing build (tools/sanitize.sh)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
