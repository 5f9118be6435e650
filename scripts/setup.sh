#!/usr/bin/env bash
# Installs what Westphalia needs from Debian's packages, only what is missing (idempotent),
# then configures and builds the project into build/ (Release).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build g++ clang
  ccache                  # a fresh clone's build reuses what an earlier build compiled (CMakeLists.txt)
  nlohmann-json3-dev libcli11-dev catch2
  libz3-dev z3 libhpdf-dev poppler-utils qpdf
  libqpdf-dev             # the aid's /ToUnicode maps, rewritten after libharu (docgen/src/to_unicode.hpp)
  nettle-dev              # SHA-256 for the checker's proof cache (check --cache)
  fonts-dejavu-core fonts-dejavu-extra
  fonts-ipafont-gothic fonts-arphic-gbsn00lp fonts-nanum   # the aid's CJK fallbacks (TrueType)
  dpkg-dev file           # cpack's Debian package: dpkg-shlibdeps, and file to find the binaries
  xz-utils                # a unit test's stored Z3 question (tests/unit/data)
  libopenmpi-dev openmpi-bin   # sim --mpi and balance --mpi across processes and machines
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Spirit X3 (header-only) from Boost 1.74 or newer: any installed libboost1.NN-dev will do
# (they conflict with each other); else the distribution's default, libboost-dev.
boost_ok=
while read -r name status; do
  [ "$status" = installed ] || continue
  minor=${name#libboost1.}; minor=${minor%-dev}
  [[ $minor =~ ^[0-9]+$ ]] && ((minor >= 74)) && boost_ok=$name
done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' 'libboost1.*-dev' 2>/dev/null || true)
[ -n "$boost_ok" ] || missing+=(libboost-dev)
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
