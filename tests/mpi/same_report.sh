#!/usr/bin/env bash
# `sim --mpi` and `balance --mpi` under mpirun with 2 and 4 processes print the report one
# process prints, byte for byte, on Contractor Cards and SPI's Freiburg (ranks beyond the cores
# are oversubscribed: this checks the split, not the speed).
set -euo pipefail
westphalia=$1
# OpenMPI refuses to run as root without these (CI runs as root); they change nothing else.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
compare() {  # name, then the command's arguments
  local name=$1
  shift
  "$westphalia" "$@" -j 1 >"$out/$name.one"
  for ranks in 2 4; do
    mpirun -n "$ranks" "$westphalia" "$@" -j 1 --mpi >"$out/$name.$ranks" 2>"$out/$name.$ranks.err" || {
      echo "FAIL: $name with $ranks processes exited $?"; cat "$out/$name.$ranks.err"; status=1; continue; }
    if cmp -s "$out/$name.one" "$out/$name.$ranks"; then
      echo "ok: $name, $ranks processes: the same report"
    else
      echo "FAIL: $name with $ranks processes differs from one process:"; diff "$out/$name.one" "$out/$name.$ranks" | head -20
      status=1
    fi
  done
}
compare cc_sim sim rulesets/contractor-cards -n 300 --players 3
compare spi_sim sim rulesets/spi-thirty-years-war -n 12
compare cc_balance balance rulesets/contractor-cards -n 100 --vary end_after_exhaustions --vary negative_contract
compare spi_balance balance rulesets/spi-thirty-years-war -n 6 --vary hilltop_sight
exit $status
