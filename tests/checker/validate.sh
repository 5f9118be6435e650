#!/usr/bin/env bash
# Checks the checker corpus itself (not the checker): every file compiles, carries exactly one
# `// expect:` line, names a subject that occurs in the file, and plays with seed 1 without an
# engine error unless its header says the engine trips on the planted defect.
# Usage: tests/checker/validate.sh [path/to/westphalia]   (from the repository root)
set -u
wp=${1:-build/app/westphalia}
here=$(dirname "$0")
status=0
for f in "$here"/*/*.wph; do
  kind=$(basename "$(dirname "$f")")
  expects=$(grep -c '^// expect:' "$f")
  if [ "$expects" -ne 1 ]; then echo "$f: $expects expect lines (want 1)"; status=1; fi
  line=$(grep -m1 '^// expect:' "$f" | sed 's|^// expect: *||')
  if [ "$kind" = clean ]; then
    [ "$line" = nothing ] || { echo "$f: a clean file must say 'expect: nothing'"; status=1; }
  elif [ "$kind" = accepted ]; then
    case "${line%% *}" in accepted|stale-accept) ;; *) echo "$f: an accepted file expects 'accepted …' or 'stale-accept …'"; status=1 ;; esac
  else
    [ "${line%% *}" = "$kind" ] || { echo "$f: expect kind '${line%% *}' is not its folder '$kind'"; status=1; }
    for subject in ${line#* }; do
      case "$kind" in
        unreachable|stuck-state|dead-branch) subject=${subject##*.} ;;   # a block path: its last name is in the file
      esac
      grep -q -- "$subject" <(grep -v '^//' "$f") || { echo "$f: subject '$subject' does not occur in the rules"; status=1; }
    done
  fi
  if ! "$wp" compile "$f" > /dev/null; then echo "$f: does not compile"; status=1; continue; fi
  # (an invariant the file breaks on purpose makes `play` exit 1 too: only engine errors count here)
  if ! "$wp" play "$f" --players 2 --seed 1 --quiet --no-check-invariants > /dev/null 2>&1; then
    grep -q '^// The engine trips on this very defect' "$f" || { echo "$f: engine error in play"; status=1; }
  elif grep -q '^// The engine trips on this very defect' "$f"; then
    echo "$f: says the engine trips, but play succeeded"; status=1
  fi
done
[ $status -eq 0 ] && echo "corpus ok: $(ls "$here"/*/*.wph | wc -l) files"
exit $status
