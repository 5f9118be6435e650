#!/usr/bin/env bash
# Compares the games per second of two builds of westphalia-bench on Contractor Cards, in one
# run: the two are run alternately (so both see the same load), each time with the same seeds,
# and the medians are compared. Used to hold a change to "within 5% of the commit before it".
# Usage: bench/compare.sh BASE_BENCH NEW_BENCH [ROUNDS] [GAMES] [PLAYERS]
#   BASE_BENCH, NEW_BENCH: paths to westphalia-bench binaries (e.g. one built in a worktree at
#   the base commit: git worktree add /tmp/base <commit>; build its westphalia-bench target).
# Prints per build the median interpreted and compiled games/s, then new/base ratios.
set -euo pipefail
base=$1 new=$2 rounds=${3:-5} games=${4:-2000} players=${5:-4}
root=$(cd "$(dirname "$0")/.." && pwd)
declare -A runs
for ((i = 0; i < rounds; ++i)); do
  for which in base new; do
    bin=$base; [ "$which" = new ] && bin=$new
    line=$("$bin" -n "$games" -r 1 --no-tools --players "$players" --root "$root" | grep "^$players players: engine interpreting")
    interp=$(sed -E 's/.*engine interpreting ([0-9]+) games.*/\1/' <<<"$line")
    compiled=$(sed -E 's/.*engine compiled ([0-9]+) games.*/\1/' <<<"$line")
    runs[$which.interp]+="$interp "
    runs[$which.compiled]+="$compiled "
  done
done
median() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for which in base new; do
  echo "$which: interpreting ${runs[$which.interp]}-> median $(median "${runs[$which.interp]}") games/s;" \
       "compiled ${runs[$which.compiled]}-> median $(median "${runs[$which.compiled]}") games/s"
done
for kind in interp compiled; do
  b=$(median "${runs[base.$kind]}") n=$(median "${runs[new.$kind]}")
  awk -v k="$kind" -v b="$b" -v n="$n" 'BEGIN {printf "ratio new/base %s: %.3f\n", k, n / b}'
done
