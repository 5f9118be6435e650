#!/usr/bin/env bash
# The main job: set up and build, then compile every bundled ruleset (one summary line each),
# play one seeded game of each, and simulate 2000 seeded games of each (summary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build_dir=${WP_BUILD_DIR:-build}
status=0
for ruleset in rulesets/*/; do
  "$build_dir/app/westphalia" compile "${ruleset%/}" || { status=1; continue; }
  echo "  one game, 4 players, seed 1: $("$build_dir/app/westphalia" play "${ruleset%/}" --players 4 --seed 1 --quiet | head -n 2 | tr '\n' ' ')" || status=1
  "$build_dir/app/westphalia" sim "${ruleset%/}" -n 2000 --players 4 --seed 1 -j "$(nproc)" || status=1
done
exit $status
