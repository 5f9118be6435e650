#!/usr/bin/env bash
# The main job: set up and build, then compile every bundled ruleset (one summary line each).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build_dir=${WP_BUILD_DIR:-build}
status=0
for ruleset in rulesets/*/; do
  "$build_dir/app/westphalia" compile "${ruleset%/}" || status=1
done
exit $status
