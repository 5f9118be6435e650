#!/usr/bin/env python3
"""Writes one member of the checker's scale family: SPI's Freiburg rules, unchanged, on a bigger
stand-in map and with a bigger order of battle. It is a benchmark input, not a game anyone
published: the map is the ruleset's own stand-in grown by its generator
(rulesets/spi-thirty-years-war/tools/make_standin_map.py), and the counter mix and the deployments
are the ruleset's multiplied by a whole factor.

    python3 bench/scale/make_spi_family.py --hexes 1000 --units 100 --out /tmp/spi-1000-100

What changes against the ruleset, and nothing else:
  - freiburg/map.wph: about --hexes hexes (a square of columns x rows, at least 22 x 22), the
    3 August Line as deep as the Bavarian deployment needs;
  - freiburg/counters.wph: every combat unit's count times the factor (54 units at factor 1),
    so --units is rounded to a multiple of 54 (50 -> 54, 100 -> 108, 250 -> 270); leaders and
    guns as printed;
  - freiburg/scenarios.wph: every deploy_units count times the factor, and the counter it uses;
  - the ranges that count units or strength points (casualties, dx_paid) times the factor.
It prints one line: the folder, its hexes, its units, and the factor.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RULESET = os.path.normpath(os.path.join(HERE, "..", "..", "rulesets", "spi-thirty-years-war"))
UNITS_AT_FACTOR_1 = 54   # the Freiburg counter sheet's combat units (freiburg/counters.wph)
BAVARIANS_ON_LINE = 18   # the most the 3 August order of battle puts on the Line (§17.11)


def scaled(text, pattern, factor, path):
    """Multiplies the number in group 2 of each match of pattern by factor; at least one match."""
    out, n = re.subn(pattern, lambda m: m.group(1) + str(int(m.group(2)) * factor) + m.group(3), text)
    if n == 0:
        sys.exit("make_spi_family: %s no longer matches %r: update this script" % (path, pattern))
    return out


def edit(path, *edits):
    with open(path) as f:
        text = f.read()
    for pattern, factor in edits:
        text = scaled(text, pattern, factor, path)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hexes", type=int, required=True)
    ap.add_argument("--units", type=int, required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    side = max(22, math.ceil(math.sqrt(a.hexes)))
    cols, rows = side, max(22, math.ceil(a.hexes / side))
    factor = max(1, round(a.units / UNITS_AT_FACTOR_1))
    line_rows = math.ceil((BAVARIANS_ON_LINE * factor + 1) / (cols - 2))
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    shutil.copytree(RULESET, a.out, ignore=shutil.ignore_patterns("tools"))
    fb = os.path.join(a.out, "freiburg")
    subprocess.run([sys.executable, os.path.join(RULESET, "tools", "make_standin_map.py"), "--cols", str(cols),
                    "--rows", str(rows), "--line-rows", str(line_rows), "--out", os.path.join(fb, "map.wph")],
                   check=True, stdout=subprocess.DEVNULL)
    if factor > 1:
        # the combat units' counts: `{ … allowance = N } xK` on the unit lines only
        edit(os.path.join(fb, "counters.wph"), (r"(\"(?:French|Bavarian)[^\"]*\d-\d\"\s*\{[^}]*\} x)(\d+)()", factor))
        edit(os.path.join(fb, "scenarios.wph"),
             (r"(deploy_units\(p, \w+, \w+, )(\d+)(, where\))", factor),
             (r"(then )(\d+)( else)", factor),
             (r"(else )(\d+)(, where\))", factor),
             (r"(placed: 0\.\.)(\d+)( )", factor))
        edit(os.path.join(fb, "morale.wph"), (r"(casualties: army -> 0\.\.)(\d+)( )", factor))
        edit(os.path.join(a.out, "standard", "combat.wph"), (r"(dx_paid: 0\.\.)(\d+)( )", factor))
    print("%s %d hexes (%d x %d) %d units (factor %d)" % (a.out, cols * rows, cols, rows, UNITS_AT_FACTOR_1 * factor, factor))


if __name__ == "__main__":
    main()
