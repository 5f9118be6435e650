#!/usr/bin/env bash
# Builds the Debian package of the `westphalia` command: installs what is missing and builds
# (scripts/setup.sh), runs cpack, and prints the .deb's path. Install it with
#   sudo apt-get install ./build/package/westphalia_<version>_<arch>.deb
# (apt brings its dependencies: Z3, libharu, the fonts; g++ as a recommendation).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2   # its progress to standard error: standard output is the path
build_dir=${WP_BUILD_DIR:-build}
out=${WP_PACKAGE_DIR:-$build_dir/package}
mkdir -p "$out"
# The package is made from a Release build (setup.sh's); cpack installs only the command.
cpack --config "$build_dir/CPackConfig.cmake" -B "$out" >"$out/cpack.log" 2>&1 || {
  cat "$out/cpack.log" >&2
  echo "package: cpack failed" >&2
  exit 1
}
deb=$(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' "$out/cpack.log" | tail -n 1)
[ -n "$deb" ] && [ -f "$deb" ] || { cat "$out/cpack.log" >&2; echo "package: no .deb was made" >&2; exit 1; }
echo "$deb"
