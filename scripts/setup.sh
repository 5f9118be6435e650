#!/usr/bin/env bash
# Installs what Westphalia needs from Debian's packages, only what is missing (idempotent),
# then configures and builds the project into build/ (Release).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build g++ clang
  libboost1.74-dev        # Spirit X3 (header-only); pinned: X3's position API moved between versions
  nlohmann-json3-dev libcli11-dev catch2
  libz3-dev z3 libhpdf-dev fonts-dejavu-core fonts-dejavu-extra poppler-utils qpdf
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir=${WP_BUILD_DIR:-build}
# Configuring again is quick and keeps the cache in step with WP_CMAKE_ARGS.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWP_WERROR=ON ${WP_CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
