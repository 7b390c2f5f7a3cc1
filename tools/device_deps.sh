#!/usr/bin/env bash
# Run HERE (a Debian machine with apt): downloads the dependencies' .deb files
# and unpacks them into .deps/ (git-ignored) for the GPU machine, which has no
# package manager and no network. Pass `.deps` in the device tool's carry list.
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS=(libeigen3-dev libyaml-cpp-dev libyaml-cpp0.7 libspdlog-dev libspdlog1.10 libfmt-dev libfmt9 doctest-dev
      libcli11-dev nlohmann-json3-dev)
if [ -f .deps/.complete ]; then echo "device_deps: .deps already prepared"; exit 0; fi
rm -rf .debs .deps && mkdir -p .debs .deps
(cd .debs && apt-get download "${PKGS[@]}")
for f in .debs/*.deb; do dpkg -x "$f" .deps; done
rm -rf .deps/usr/share/doc .deps/usr/share/man
touch .deps/.complete
du -sh .deps
