#!/usr/bin/env python3
"""Writes base/map.wph: OUR stand-in for the Cuius Regio map. The rulebook text refers to a
34" x 33" hex map (§L50) but contains none of it. Everything here is invented, except what the
text states, which pins the stand-in:
  - Brünn is a Major City (the supply example, §L460-462);
  - Prag, Budweis and Iglau are cities joined by roads, Prag to both others (§L357);
  - Wien is a city where an Imperial army can be raised (§L335), Trier a city (§L180, §L281);
  - the provinces Austria, Bohemia, Moravia, Palatinate, Bavaria and Brunswick exist (§L527);
  - cities are Minor, Major or Great, some are Electorate cities, some sit on rivers (§L629-650).
The size is a parameter (the checker's time grows with the map): the city layout needs at least
10 columns and 8 rows; extra columns and rows are clear country.
    python3 rulesets/cuius-regio/tools/make_standin_map.py [--cols 10] [--rows 8]
Layout (ours): column 01 is the west edge, row 01 the north edge; the river (our "Danube") runs
between rows 05 and 06 and can be crossed only at its four river cities.
"""
import argparse
import os
from collections import deque

ap = argparse.ArgumentParser()
ap.add_argument("--cols", type=int, default=10)
ap.add_argument("--rows", type=int, default=8)
args = ap.parse_args()
assert args.cols >= 10 and args.rows >= 8, "the city layout needs at least 10 x 8 hexes"
COLS, ROWS = range(1, args.cols + 1), range(1, args.rows + 1)


def neighbours(c, r):
    # Odd columns sit half a hex higher (the engine's convention, language.md section 4).
    if c % 2 == 1:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    else:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    return [(x, y) for x, y in cand if x in COLS and y in ROWS]


# name: (hex, size, province, electorate, on the river)
CITIES = {
    "braunschweig": ((2, 2), "MajorCity", "Brunswick", False, False),
    "wolfenbuettel": ((3, 3), "MinorCity", "Brunswick", False, False),
    "trier": ((1, 7), "MinorCity", "Palatinate", True, False),
    "heidelberg": ((3, 6), "MajorCity", "Palatinate", True, True),
    "amberg": ((4, 4), "MinorCity", "Palatinate", False, False),
    "pilsen": ((4, 2), "MinorCity", "Bohemia", False, False),
    "prag": ((5, 3), "GreatCity", "Bohemia", False, False),
    "budweis": ((6, 5), "MinorCity", "Bohemia", False, False),
    "regensburg": ((5, 6), "MinorCity", "Bavaria", False, True),
    "muenchen": ((5, 8), "GreatCity", "Bavaria", True, False),
    "iglau": ((7, 4), "MinorCity", "Moravia", False, False),
    "bruenn": ((9, 3), "MajorCity", "Moravia", False, False),
    "olmuetz": ((10, 2), "MinorCity", "Moravia", False, False),
    "linz": ((7, 6), "MinorCity", "Austria", False, True),
    "wien": ((9, 6), "GreatCity", "Austria", False, True),
    "graz": ((9, 8), "MinorCity", "Austria", False, False),
}
NAMES = {"bruenn": "Brünn", "muenchen": "München", "wolfenbuettel": "Wolfenbüttel", "olmuetz": "Olmütz"}
city_at = {v[0]: k for k, v in CITIES.items()}
river_cities = {v[0] for v in CITIES.values() if v[4]}
# Who holds each city when our stand-in scenario starts (1618): 1 Imperial, 2 Protestant, else neutral.
START = {"wien": 1, "linz": 1, "graz": 1, "muenchen": 1, "regensburg": 1, "budweis": 1,
         "prag": 2, "pilsen": 2, "heidelberg": 2, "amberg": 2, "trier": 2}
HILLS = {(4, 3), (3, 4), (6, 7), (7, 7), (8, 2), (6, 1), (7, 1)}
HILLS -= set(city_at)

# Provinces: three bands of columns, two of rows (north of the river, south of it).
def province(c, r):
    h = (c, r)
    if h in city_at:
        return CITIES[city_at[h]][2]
    west, east = c <= 3, c >= 8
    north = r <= 5
    if west:
        return "Brunswick" if north else "Palatinate"
    if east:
        return "Moravia" if north else "Austria"
    return "Bohemia" if north else "Bavaria"


def bank(h):
    if h in river_cities:
        return 0
    return 1 if h[1] <= 5 else 2


# River hexsides: between a north-bank and a south-bank hex, except at the river cities.
river = set()
for c in COLS:
    for r in ROWS:
        for n in neighbours(c, r):
            a, b = (c, r), n
            if {bank(a), bank(b)} == {1, 2}:
                river.add(tuple(sorted([a, b])))

# Roads (ours, except Prag-Budweis and Prag-Iglau, §L357): shortest hex paths that never cross
# a river hexside, so they cross the river only through river cities.
ROADS = [("prag", "budweis"), ("prag", "iglau"), ("iglau", "bruenn"), ("bruenn", "wien"),
         ("wien", "linz"), ("linz", "budweis"), ("linz", "regensburg"), ("regensburg", "muenchen"),
         ("muenchen", "graz"), ("wien", "graz"), ("prag", "pilsen"), ("pilsen", "amberg"),
         ("amberg", "regensburg"), ("amberg", "heidelberg"), ("heidelberg", "trier"),
         ("pilsen", "braunschweig"), ("braunschweig", "wolfenbuettel"), ("bruenn", "olmuetz")]


def path(a, b):
    prev = {a: None}
    q = deque([a])
    while q:
        h = q.popleft()
        if h == b:
            break
        for n in neighbours(*h):
            if n in prev or tuple(sorted([h, n])) in river:
                continue
            if n in city_at and n != b:
                continue        # a road leads from city to city, not through a third
            prev[n] = h
            q.append(n)
    out, h = [], b
    while h is not None:
        out.append(h)
        h = prev[h]
    return out[::-1]


road = set()
for a, b in ROADS:
    p = path(CITIES[a][0], CITIES[b][0])
    assert p[0] == CITIES[a][0], (a, b)
    for x, y in zip(p, p[1:]):
        road.add(tuple(sorted([x, y])))

hexname = lambda h: "%02d%02d" % h
here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "..", "base", "map.wph")
with open(out, "w", encoding="utf-8") as f:
    f.write("// GENERATED by tools/make_standin_map.py --cols %d --rows %d: do not edit by hand.\n" % (args.cols, args.rows))
    f.write("// OUR STAND-IN for the Cuius Regio map (§L50): the rulebook text contains no map. The\n")
    f.write("// cities, provinces, roads, river and hills are invented, except what the text states (the\n")
    f.write("// script's docstring lists it). bank: 1 north of the river, 2 south, 0 a river city;\n")
    f.write("// start_holder: who holds the city when our stand-in scenario begins (1 Imperial, 2 Protestant).\n")
    f.write('map europe §L50 §L605-614 : hexgrid standin "invented: the map is not in the rulebook text; %d x %d hexes" {\n' % (args.cols, args.rows))
    for c in COLS:
        for r in ROWS:
            h = (c, r)
            if h in city_at:
                name, (hh, size, prov, elect, onriver) = city_at[h], CITIES[city_at[h]]
                t = size
            else:
                prov, elect, onriver = province(c, r), False, False
                t = "Hills" if h in HILLS else "Clear"
            attrs = ["province = %s" % prov, "bank = %d" % bank(h)]
            if elect:
                attrs.append("electorate = true")
            if onriver:
                attrs.append("river_city = true")
            if h in city_at and city_at[h] in START:
                attrs.append("start_holder = %d" % START[city_at[h]])
            comment = ("   // " + NAMES.get(city_at[h], city_at[h].capitalize())) if h in city_at else ""
            f.write("  hex %s : %s { %s }%s\n" % (hexname(h), t, ", ".join(attrs), comment))
    for a, b in sorted(river | road):
        feats = []
        if (a, b) in river:
            feats.append("River")
        if (a, b) in road:
            feats.append("Road")
        f.write("  hexside %s %s : %s\n" % (hexname(a), hexname(b), ", ".join(feats)))
    f.write("}\n\n// The cities the rules and our set-up name.\nstate §L460-462 §L357 {\n")
    for k, v in CITIES.items():
        f.write("  %s: hex = %s\n" % (k, hexname(v[0])))
    f.write("}\n")
print("wrote", out, len(COLS) * len(ROWS), "hexes,", len(river), "river and", len(road), "road hexsides")
