#!/usr/bin/env bash
# The Debian package (cpack): made from this build into a temporary folder, its control fields
# checked (dependencies with minimum versions only, every shared library's package declared, the
# fonts the aid reads), unpacked into a temporary root with dpkg-deb -x (nothing is installed on
# the machine) and its `westphalia` run from there: --help, a compile, and an aid with CJK text,
# which reads the fonts from the system paths the package depends on.
# Usage: test_deb.sh BUILD_DIR (run from the repository root)
set -euo pipefail
build=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack"; }
deb=$(ls "$tmp"/pkg/westphalia_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { cat "$tmp/cpack.log"; fail "no westphalia_*.deb"; }
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"

depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
echo "Depends: $depends"
echo "Recommends: $recommends"
for p in fonts-dejavu-core fonts-dejavu-extra fonts-ipafont-gothic fonts-arphic-gbsn00lp fonts-nanum libz3-4 libhpdf libqpdf libstdc++6 libc6; do
  grep -q "\b$p" <<<"$depends" || fail "Depends lacks $p"
done
grep -q "g++" <<<"$recommends" || fail "Recommends lacks a C++ compiler (sim --compiled)"
# minimums, never exact pins
if grep -Eq '\((=|<<|<=) ' <<<"$depends, $recommends"; then fail "a dependency is pinned to an exact or maximum version"; fi

dpkg-deb -c "$deb" | grep -q '\./usr/bin/westphalia$' || fail "the package does not hold /usr/bin/westphalia"
dpkg-deb -x "$deb" "$tmp/root"
wp="$tmp/root/usr/bin/westphalia"

# Every shared library the command links directly (NEEDED) comes from a package it depends on.
needed=$(readelf -d "$wp" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || fail "readelf found no NEEDED libraries"
while read -r lib; do
  owner=$(dpkg -S "$(realpath "$lib")" 2>/dev/null | head -n 1 | cut -d: -f1) || true
  [ -n "$owner" ] || owner=$(dpkg -S "$lib" 2>/dev/null | head -n 1 | cut -d: -f1) || true
  [ -n "$owner" ] || fail "no package owns $lib"
  grep -q "\b$owner\b" <<<"$depends" || fail "$lib comes from $owner, which Depends does not name"
  echo "linked: $lib ($owner)"
done < <(ldd "$wp" | while read -r name _ path _; do grep -qxF "$name" <<<"$needed" && echo "$path"; done)

"$wp" --help >"$tmp/help.txt" || fail "westphalia --help exited $?"
grep -q "aid" "$tmp/help.txt" || fail "--help does not list the subcommands"
"$wp" --version
"$wp" compile rulesets/contractor-cards >/dev/null || fail "compile from the unpacked package"
"$wp" aid tests/golden/aid/cjk_fallback.wph -o "$tmp/cjk.pdf" || fail "aid with CJK text from the unpacked package"
echo "ok: the unpacked package runs --help, compile and aid"
