#!/usr/bin/env bash
# Compares the wall time and peak memory of `westphalia check` between two builds, in one run:
# the two are run alternately (so both see the same load) on the same command, and the medians
# are compared. The reports of the two must be the same for the ratio to mean "faster at the same
# answer"; the script says whether they are.
# Usage: bench/check_compare.sh BASE_WP NEW_WP ROUNDS -- CHECK ARGS...
#   BASE_WP, NEW_WP: two westphalia binaries (e.g. one built in a worktree at the base commit)
#   e.g. bench/check_compare.sh /tmp/wp_base build/app/westphalia 3 -- rulesets/contractor-cards --upto base
# Prints each run, then per build the median seconds and MB, then new/base ratios.
set -euo pipefail
[ $# -ge 4 ] && [ "$4" = "--" ] || { echo "usage: $0 BASE_WP NEW_WP ROUNDS -- CHECK ARGS..." >&2; exit 2; }
base=$1 new=$2 rounds=$3
shift 4
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "$0: ROUNDS must be a whole number above 0, not '$rounds'" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A secs mb
for ((i = 0; i < rounds; ++i)); do
  for which in base new; do
    bin=$base; [ "$which" = new ] && bin=$new
    # exit 1 (findings) is the check's usual answer; only 2 and above are failures
    rc=0
    /usr/bin/time -f "%e %M" -o "$work/time" "$bin" check "$@" -o "$work/$which.txt" >/dev/null 2>&1 || rc=$?
    ((rc <= 1)) || { echo "$0: $bin check $* exited $rc" >&2; exit 1; }
    read -r s kb < <(tail -n 1 "$work/time")  # after "Command exited with non-zero status 1"
    secs[$which]+="$s "
    mb[$which]+="$((kb / 1024)) "
    echo "round $((i + 1)) $which: $s s, $((kb / 1024)) MB"
  done
done
# The summary line names the time only through --stats, which the caller may pass: compare the
# findings, not the stage timings.
strip() { grep -vE '^  [a-z ]+ +[0-9]+ queries +[0-9.]+ ms$|^  encoder:' "$1"; }
if cmp -s <(strip "$work/base.txt") <(strip "$work/new.txt"); then
  echo "reports: the same"
else
  echo "reports: differ (diff <(base) <(new), first lines):"
  diff <(strip "$work/base.txt") <(strip "$work/new.txt") | head -20 || true
fi
median() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for which in base new; do
  echo "$which: ${secs[$which]}s -> median $(median "${secs[$which]}") s; ${mb[$which]}MB -> median $(median "${mb[$which]}") MB"
done
awk -v b="$(median "${secs[base]}")" -v n="$(median "${secs[new]}")" -v bm="$(median "${mb[base]}")" -v nm="$(median "${mb[new]}")" \
  'BEGIN {printf "ratio new/base: time %.3f, peak memory %.3f\n", n / b, nm / bm}'
