#!/usr/bin/env bash
# --color=auto on a real terminal (a pseudo-terminal from util-linux's `script`): the diagnostics
# are coloured; with NO_COLOR set, into a pipe or into a file they are not.
set -u
bin=$1
typo=tests/golden/diagnostics/semantic/fail_unknown_roll.wph
esc=$'\033'
fail() { echo "color_terminal: $*"; exit 1; }
on_terminal() { TERM=xterm script -qec "$1" /dev/null; }

out=$(on_terminal "$bin compile $typo")
[[ $out == *"${esc}[1;31merror:${esc}[0m unknown roll"* ]] || fail "no colour on a terminal: $out"
[[ $out == *"${esc}[1;32m^~~~~~~~~~~~${esc}[0m"* ]] || fail "no green caret on a terminal: $out"
out=$(NO_COLOR=1 on_terminal "$bin compile $typo")
[[ $out != *"$esc"* ]] || fail "coloured despite NO_COLOR=1"
out=$(NO_COLOR= on_terminal "$bin compile $typo")
[[ $out == *"$esc"* ]] || fail "an empty NO_COLOR turned colour off"
out=$(on_terminal "$bin compile $typo --color=never")
[[ $out != *"$esc"* ]] || fail "coloured despite --color=never"
out=$(TERM=xterm "$bin" compile $typo 2>&1 | cat)
[[ $out != *"$esc"* ]] || fail "coloured into a pipe"
tmp=$(mktemp)
TERM=xterm "$bin" compile $typo 2> "$tmp"
grep -q "$esc" "$tmp" && { rm -f "$tmp"; fail "coloured into a file"; }
rm -f "$tmp"
out=$(TERM=xterm "$bin" compile $typo --color=always 2>&1 | cat)
[[ $out == *"${esc}[1;31merror:"* ]] || fail "--color=always did not colour a pipe"
echo "color_terminal: ok"
