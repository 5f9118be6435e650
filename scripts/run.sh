#!/usr/bin/env bash
# The main job: set up and build, then compile every bundled ruleset (one summary line each),
# play one seeded game of each, simulate 2000 seeded games of each (summary; again on every other scenario it offers, and with every expansion it declares), check the rules as
# printed (--upto its last base or exclusive layer, and a series' standard rules alone under it,
# and what the exclusive layer changes in them without declaring it; reports in out/checks/), and write each one's player aid to
# out/aids/<ruleset>.pdf, and one per scenario to out/aids/<ruleset>-<scenario>.pdf. Games are played with 4 players, or the most the ruleset allows.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build_dir=${WP_BUILD_DIR:-build}
status=0
mkdir -p out/aids out/checks
budget=${WP_CHECK_SECONDS:-300}
# check_upto RULESET LAYER REPORT: the check of the layers up to LAYER, its report in REPORT and
# its summary lines here. Findings (exit 1) are not a failure; the outer timeout only guards
# against a hang.
check_upto() {
  local rc=0
  echo "  check --upto $2 (report in $3):"
  # With -o, check prints only its summary lines (the report goes to the file).
  timeout $(( budget + 600 )) "$build_dir/app/westphalia" check "${1%/}" --upto "$2" \
    --max-time "$budget" -o "$3" | sed 's/^/    /' || rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    echo "  check --upto $2: failed (exit $rc)"
    status=1
  fi
}
# compare_layers RULESET LOWER UPPER REPORT: what the layers above LOWER change in its rules
# without declaring it (check --compare, undeclared-change warnings), its report in REPORT.
compare_layers() {
  local rc=0
  echo "  check --compare $2 $3 (report in $4):"
  timeout $(( budget + 600 )) "$build_dir/app/westphalia" check "${1%/}" --checks obligations \
    --compare "$2" "$3" --max-time "$budget" -o "$4" | sed 's/^/    /' || rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    echo "  check --compare $2 $3: failed (exit $rc)"
    status=1
  fi
}
for ruleset in rulesets/*/; do
  "$build_dir/app/westphalia" compile "${ruleset%/}" || { status=1; continue; }
  info=$("$build_dir/app/westphalia" info "${ruleset%/}")
  most=$(sed -n 's/^players *[0-9]*\.\.\([0-9]*\)$/\1/p' <<<"$info")
  players=$(( most < 4 ? most : 4 ))
  printed=$(sed -n 's/^  \([A-Za-z0-9_]*\) (\(base\|exclusive\)):.*/\1/p' <<<"$info" | tail -n 1)
  echo "  one game, $players players, seed 1: $("$build_dir/app/westphalia" play "${ruleset%/}" --players "$players" --seed 1 --quiet | head -n 2 | tr '\n' ' ')" || status=1
  "$build_dir/app/westphalia" sim "${ruleset%/}" -n 2000 --players "$players" --seed 1 -j "$(nproc)" || status=1
  # Every other scenario the ruleset offers (option `scenario`), the same games on its set-up.
  scenarios=$(sed -n 's/^  scenario : \(.*\)  default .*/\1/p' <<<"$info" | tr -d ' ' | tr '|' ' ')
  default_scenario=$(sed -n 's/^  scenario : .*  default \([A-Za-z0-9_]*\).*/\1/p' <<<"$info")
  for scenario in $scenarios; do
    [ "$scenario" = "$default_scenario" ] && continue
    echo "  scenario $scenario:"
    "$build_dir/app/westphalia" sim "${ruleset%/}" -n 2000 --players "$players" --seed 1 -j "$(nproc)" \
      --option "scenario=$scenario" | sed 's/^/    /' || status=1
  done
  # With every expansion the manifest declares (they combine): the same games, the expansions' rules too.
  expansions=$(sed -n 's/^  \([A-Za-z0-9_]*\)\( after [^:]*\)\?: .*(not selected)$/\1/p' <<<"$info" | paste -sd, -)
  if [ -n "$expansions" ]; then
    "$build_dir/app/westphalia" sim "${ruleset%/}" -n 2000 --players "$players" --seed 1 -j "$(nproc)" --with "$expansions" || status=1
  fi
  # The rules as printed: findings (exit 1) are the point, not a failure of the job. The check gets
  # ${WP_CHECK_SECONDS:-300} s (--max-time): on the SPI hex game (a 484-hex map) that runs out,
  # and every question left is reported as unknown.
  check_upto "$ruleset" "$printed" "out/checks/$(basename "$ruleset").txt"
  # A series' standard rules under a game's exclusive rules are checked alone too, on their own
  # stand-ins (docs/language.md §11): out/checks/<ruleset>-<layer>.txt.
  for series in $(sed -n 's/^  \([A-Za-z0-9_]*\) (base):.*/\1/p' <<<"$info"); do
    [ "$series" = "$printed" ] && continue
    check_upto "$ruleset" "$series" "out/checks/$(basename "$ruleset")-$series.txt"
    # and what the game's exclusive rules change in them without saying so
    compare_layers "$ruleset" "$series" "$printed" "out/checks/$(basename "$ruleset")-$series-$printed.txt"
  done
  "$build_dir/app/westphalia" aid "${ruleset%/}" -o "out/aids/$(basename "$ruleset").pdf" || status=1
  # One aid per scenario, each with that scenario's setup and victory: out/aids/<ruleset>-<scenario>.pdf.
  for scenario in $scenarios; do
    "$build_dir/app/westphalia" aid "${ruleset%/}" --option "scenario=$scenario" \
      -o "out/aids/$(basename "$ruleset")-$scenario.pdf" || status=1
  done
done
exit $status
