#!/usr/bin/env bash
# The main job: set up and build, then compile every bundled ruleset (one summary line each),
# play one seeded game of each, simulate 2000 seeded games of each (summary), check the rules as
# printed (--upto base), and write each one's player aid to out/aids/<ruleset>.pdf.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build_dir=${WP_BUILD_DIR:-build}
status=0
mkdir -p out/aids
for ruleset in rulesets/*/; do
  "$build_dir/app/westphalia" compile "${ruleset%/}" || { status=1; continue; }
  echo "  one game, 4 players, seed 1: $("$build_dir/app/westphalia" play "${ruleset%/}" --players 4 --seed 1 --quiet | head -n 2 | tr '\n' ' ')" || status=1
  "$build_dir/app/westphalia" sim "${ruleset%/}" -n 2000 --players 4 --seed 1 -j "$(nproc)" || status=1
  # The rules as printed: findings (exit 1) are the point, not a failure of the job.
  "$build_dir/app/westphalia" check "${ruleset%/}" --upto base || [ $? -eq 1 ] || status=1
  "$build_dir/app/westphalia" aid "${ruleset%/}" -o "out/aids/$(basename "$ruleset").pdf" || status=1
done
exit $status
