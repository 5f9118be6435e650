#!/usr/bin/env python3
"""Writes freiburg/map.wph: OUR stand-in for the Freiburg map (its hex-by-hex terrain is not in
the rulebook text). It is invented so that every terrain type, hexside feature, deployment area
and exit hex the rules name exists and every rule can fire. Rerun after editing:
    python3 rulesets/spi-thirty-years-war/tools/make_standin_map.py
Layout (ours): columns 01-22, rows 01-22; row 01 is the east edge, lower columns are north.

The size is a parameter for the checker's scale benchmark (bench/scale/): --cols and --rows grow
the map beyond 22 x 22 with the same features in the same places (the extra hexes clear country,
the 3 August Line running on to the last column), --line-rows thickens the 3 August Line eastwards
for bigger orders of battle, and --out writes elsewhere. The defaults write the ruleset's map.
"""
import argparse
import os

ap = argparse.ArgumentParser()
ap.add_argument("--cols", type=int, default=22)
ap.add_argument("--rows", type=int, default=22)
ap.add_argument("--line-rows", type=int, default=1)
ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "freiburg", "map.wph"))
args = ap.parse_args()
assert args.cols >= 22 and args.rows >= 22, "the features need at least 22 x 22 hexes"
assert 1 <= args.line_rows <= 8, "the 3 August Line can be 1 to 8 rows deep"
COLS, ROWS = range(1, args.cols + 1), range(1, args.rows + 1)


def neighbours(c, r):
    # Odd columns sit half a hex higher (the engine's convention, language.md section 4).
    if c % 2 == 1:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    else:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    return [(x, y) for x, y in cand if x in COLS and y in ROWS]


def line_row(c, a, b):
    """Row of the straight line of hexes from hex a to hex b at column c (None outside it)."""
    (c1, r1), (c2, r2) = a, b
    if not min(c1, c2) <= c <= max(c1, c2):
        return None
    return r1 + (r2 - r1) * (c - c1) / (c2 - c1)


hill = {(c, r) for c in range(17, 22) for r in range(6, 11)}          # the Hill 1707-1710-2108-2106
hill_rim = {h for h in hill if any(n not in hill for n in neighbours(*h))}
aug3_line = {(c, r) for c in range(3, args.cols + 1)                  # the 3 August Line (20 hexes)
             for r in range(10 - args.line_rows, 10)}
town_sections = {1: [(c, r) for c in range(12, 15) for r in (17, 18)],
                 2: [(c, r) for c in range(12, 15) for r in (19, 20)],
                 3: [(c, r) for c in range(12, 15) for r in (21, 22)]}
section_of = {h: s for s, hs in town_sections.items() for h in hs}
forest = {(c, r) for c in (5, 6) for r in (15, 16, 17)} | {(15, 3), (15, 4), (16, 3)} | {(2, 20), (3, 20)}
woods = {(20, 16), (21, 16)}
towns = {(4, 4)}
marsh = {(8, 20), (9, 20)}
rough = {(20, 20)}
ditch = {(2, 12)}


def terrain(h):
    if h in aug3_line: return "Entrenchment"
    if h in forest: return "Forest"
    if h in woods: return "Woods"
    if h in towns: return "Town"
    if h in marsh: return "Marsh"
    if h in rough: return "Rough"
    if h in ditch: return "Ditch"
    return "Clear"


def attrs(h):
    c, r = h
    a = {}
    if h in hill_rim: a["slope"] = "true"
    if h in hill: a["hill"] = "true"
    if h in aug3_line: a["aug3_line"] = "true"
    if r >= 10: a["beyond_aug3_line"] = "true"        # west (higher rows) of the 3 August Line
    lr = line_row(c, (11, 13), (21, 8))
    if lr is not None and r <= lr + 1e-9: a["bav_5aug"] = "true"
    lr = line_row(c, (11, 16), (20, 11))
    if lr is not None and r >= lr - 1e-9: a["fr_5aug"] = "true"
    if r == 1 and 11 <= c <= 16: a["exit_9aug"] = "true"
    if r == 1 and 6 <= c <= 9: a["exit_east"] = "true"
    if c <= 10: a["north_of_dreisam"] = "true"
    if h in section_of: a["section"] = str(section_of[h])
    return a


def name(h):
    return "%02d%02d" % h


pairs = sorted({tuple(sorted((h, n))) for h in [(c, r) for c in COLS for r in ROWS] for n in neighbours(*h)})
sides = {}


def add(p, f):
    sides.setdefault(p, []).append(f)


for a, b in pairs:
    # The Dreisam: between columns 10 and 11, bridged at three crossings.
    if a[0] == 10 and b[0] == 11:
        add((a, b), "River")
        if a[1] in (4, 12, 19) and b[1] == a[1]:
            add((a, b), "Bridge")
    # A stream across the west of the map, between rows 15 and 16 (columns 15-22).
    if min(a[0], b[0]) >= 15 and min(a[1], b[1]) <= 15 < max(a[1], b[1]):
        add((a, b), "Stream")
    # The Hill's contour: slope hexsides between its rim and the hexes inside it.
    if (a in hill_rim) != (b in hill_rim) and a in hill and b in hill:
        add((a, b), "Slope")
    # A road up column 12 into Freiburg.
    if a[0] == b[0] == 12:
        add((a, b), "Road")
    # Freiburg's fortifications: around the town and between its three sections; gates on the road.
    sa, sb = section_of.get(a, 0), section_of.get(b, 0)
    if sa != sb:
        add((a, b), "Gate" if a[0] == b[0] == 12 else "Fortification")

out = []
out.append("// GENERATED by tools/make_standin_map.py: do not edit by hand.")
out.append("// OUR STAND-IN for the Freiburg map: the rulebook text has only the Terrain Key (§2.1 §12.0),")
out.append("// not the map. Every terrain, hexside feature and named place the rules use is here so every")
out.append("// rule can fire; none of it is the printed map. Row 01 is the east edge.")
out.append("// The exclusive rules give the game's map (§2.1): it takes the place of the standard layer's")
out.append("// stand-in (standard/series_standins.wph).")
out.append('errata addition "Freiburg: the map of the game" §2.1 {')
out.append('  replace map series_map with map freiburg §2.1 : hexgrid standin "invented: the Freiburg map\'s hex-by-hex terrain is not in the rulebook text" {')
for c in COLS:
    for r in ROWS:
        h = (c, r)
        a = attrs(h)
        body = (" { " + ", ".join("%s = %s" % kv for kv in a.items()) + " }") if a else ""
        out.append("    hex %s : %s%s" % (name(h), terrain(h), body))
for (a, b), fs in sorted(sides.items()):
    out.append("    hexside %s %s : %s" % (name(a), name(b), ", ".join(fs)))
out.append("  }")
out.append("}")
path = args.out
with open(path, "w") as f:
    f.write("\n".join(out) + "\n")
print("wrote", os.path.normpath(path), len(COLS) * len(ROWS), "hexes", len(sides), "hexsides")
