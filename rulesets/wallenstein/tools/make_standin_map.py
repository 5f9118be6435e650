#!/usr/bin/env python3
"""Writes base/map.wph: OUR stand-in for the Wallenstein board. The rulebook text names the five
regions (§L5) and, through the default line-ups (§L903-938), all 45 counties, but not which region
holds which county, nor the borders between counties, nor the grain, taxes and building sites
printed on the county cards (§L315, §L353). Everything below that the text does not state is ours.

What the text pins, and this map keeps:
  - 5 regions of 9 counties each (§L5);
  - the 8 counties out of play with three players (§L122);
  - Burgund yields 7 Thalers in taxes (§L291, §L423);
  - Bremen has 2 building sites (§L343: after one church, one site is left);
  - Anhalt borders Kursachsen (§L637: Blue moves from one to the other).
Ours: the region of each county (roughly historical), its position (rough longitude and latitude,
used only to draw borders between near neighbours), grain 1-4, taxes 2-7 and sites 1-3.
Rerun after editing:  python3 rulesets/wallenstein/tools/make_standin_map.py
"""
import hashlib
import math
import os

# id, display name, region, longitude, latitude
COUNTIES = [
    ("altmark", "Altmark", "Brandenburg", 11.6, 52.7),
    ("mittelmark", "Mittelmark", "Brandenburg", 13.2, 52.4),
    ("neumark", "Neumark", "Brandenburg", 15.2, 52.6),
    ("vorpommern", "Vorpommern", "Brandenburg", 13.6, 54.0),
    ("mecklenburg", "Mecklenburg", "Brandenburg", 11.8, 53.7),
    ("holstein", "Holstein", "Brandenburg", 10.0, 54.2),
    ("gft_mark", "Gft. Mark", "Brandenburg", 7.6, 51.4),
    ("osnabrueck", "Osnabrück", "Brandenburg", 8.0, 52.3),
    ("bremen", "Bremen", "Brandenburg", 8.8, 53.1),
    ("kursachsen", "Kursachsen", "Sachsen", 13.2, 51.2),
    ("saechs_lande", "Sächs. Lande", "Sachsen", 11.4, 51.0),
    ("anhalt", "Anhalt", "Sachsen", 12.1, 51.8),
    ("lausitz", "Lausitz", "Sachsen", 14.4, 51.6),
    ("vogtland", "Vogtland", "Sachsen", 12.1, 50.4),
    ("wolfenbuettel", "Wolfenbüttel", "Sachsen", 10.5, 52.1),
    ("lueneburg", "Lüneburg", "Sachsen", 10.4, 53.0),
    ("paderborn", "Hm. Paderborn", "Sachsen", 8.8, 51.7),
    ("hessen_kassel", "Hessen-Kassel", "Sachsen", 9.5, 51.1),
    ("niederoesterreich", "Niederösterreich", "Österreich", 15.8, 48.2),
    ("oberoesterreich", "Oberösterreich", "Österreich", 14.0, 48.1),
    ("steiermark", "Steiermark", "Österreich", 15.2, 47.2),
    ("kaernten", "Kärnten", "Österreich", 14.0, 46.7),
    ("tirol", "Tirol", "Österreich", 11.4, 47.2),
    ("salzburg", "Salzburg", "Österreich", 13.0, 47.6),
    ("boehmen", "Böhmen", "Österreich", 14.4, 50.0),
    ("maehren", "Mähren", "Österreich", 16.8, 49.3),
    ("schlesien", "Schlesien", "Österreich", 17.0, 51.0),
    ("fm_bayern", "Fm. Bayern", "Bayern", 11.6, 48.2),
    ("oberpfalz", "Oberpfalz", "Bayern", 12.0, 49.5),
    ("regensburg", "Regensburg", "Bayern", 12.8, 48.9),
    ("passau", "Passau", "Bayern", 13.6, 48.6),
    ("augsburg", "Augsburg", "Bayern", 10.7, 48.4),
    ("wuerzburg", "Würzburg", "Bayern", 9.9, 49.8),
    ("wuerttemberg", "Württemberg", "Bayern", 9.2, 48.8),
    ("konstanz", "Bm. Konstanz", "Bayern", 9.2, 47.7),
    ("breisgau", "Breisgau", "Bayern", 7.9, 47.9),
    ("koeln", "Erzbm. Köln", "Kurpfalz", 7.0, 50.9),
    ("trier", "Erzbm. Trier", "Kurpfalz", 6.7, 49.8),
    ("luettich", "Bm. Lüttich", "Kurpfalz", 5.6, 50.6),
    ("lothringen", "Lothringen", "Kurpfalz", 6.2, 48.8),
    ("zweibruecken", "Bm. Zweibrücken", "Kurpfalz", 7.4, 49.3),
    ("strassburg", "Strassburg", "Kurpfalz", 7.7, 48.6),
    ("burgund", "Burgund", "Kurpfalz", 6.0, 47.3),
    ("hessen_darmstadt", "Hessen-Darmstadt", "Kurpfalz", 8.6, 49.9),
    ("baden", "Baden", "Kurpfalz", 8.4, 48.9),
]
OUT_AT_THREE = {"bremen", "holstein", "luettich", "burgund", "konstanz", "fm_bayern", "steiermark", "tirol"}  # §L122
PINNED = {"burgund": {"tax": 7}, "bremen": {"sites": 2}}                                                  # §L291 §L343
PINNED_EDGES = {("anhalt", "kursachsen")}                                                                 # §L637
REACH = 1.5   # two counties border when their positions are nearer than this (degrees, longitude scaled)


def h(name, salt, n):
    return int(hashlib.sha256((salt + name).encode()).hexdigest(), 16) % n


def dist(a, b):
    (_, _, _, x1, y1), (_, _, _, x2, y2) = a, b
    return math.hypot((x1 - x2) * math.cos(math.radians(50)), y1 - y2)


def main():
    assert len(COUNTIES) == 45 and len({c[0] for c in COUNTIES}) == 45
    for r in ("Brandenburg", "Sachsen", "Österreich", "Bayern", "Kurpfalz"):
        assert sum(1 for c in COUNTIES if c[2] == r) == 9, r
    edges = set()
    for i, a in enumerate(COUNTIES):
        for b in COUNTIES[i + 1:]:
            if dist(a, b) < REACH:
                edges.add((a[0], b[0]))
    # every county borders at least two others: add the nearest ones
    for a in COUNTIES:
        near = sorted((dist(a, b), b[0]) for b in COUNTIES if b[0] != a[0])
        for _, b in near[:2]:
            if (a[0], b) not in edges and (b, a[0]) not in edges:
                edges.add((a[0], b))
    for e in PINNED_EDGES:
        assert e in edges or (e[1], e[0]) in edges, e
    # the 37 counties in play with three players stay connected
    for excluded in (set(), OUT_AT_THREE):
        ids = [c[0] for c in COUNTIES if c[0] not in excluded]
        seen, todo = {ids[0]}, [ids[0]]
        while todo:
            x = todo.pop()
            for a, b in edges:
                for u, v in ((a, b), (b, a)):
                    if u == x and v not in seen and v not in excluded:
                        seen.add(v)
                        todo.append(v)
        assert len(seen) == len(ids), (len(seen), len(ids))
    lines = [
        "// GENERATED by tools/make_standin_map.py: do not edit by hand.",
        "// OUR STAND-IN for the Wallenstein board (§L5) and the county cards' numbers (§L353): the text",
        "// names the regions and, in the default line-ups, the counties, but gives no region of a county,",
        "// no borders, and no grain, taxes or building sites. Pinned by the text: 9 counties a region (§L5),",
        "// the 8 counties out of play with three players (§L122), Burgund's 7 Thalers (§L291), Bremen's",
        "// 2 sites (§L343), Anhalt bordering Kursachsen (§L637). Everything else is invented.",
        "",
        "enum region §L5 { Brandenburg, Sachsen, Österreich, Bayern, Kurpfalz }",
        "",
        'map germany §L3-7 §L9-15 §L347-357 : areas standin "invented: the board\'s regions, borders and the county cards\' grain, taxes and sites are not in the rulebook text" {',
    ]
    for cid, name, region, _, _ in COUNTIES:
        grain = PINNED.get(cid, {}).get("grain", 1 + h(cid, "grain", 4))
        tax = PINNED.get(cid, {}).get("tax", 2 + h(cid, "tax", 6))
        sites = PINNED.get(cid, {}).get("sites", 1 + h(cid, "sites", 3))
        out = "true" if cid in OUT_AT_THREE else "false"
        lines.append(f'  area {cid} "{name}" {{ region = {region}, grain = {grain}, tax = {tax}, sites = {sites}, out_at_three = {out} }}')
    lines.append("")
    for a, b in sorted(edges):
        lines.append(f"  edge {a} -- {b}")
    lines.append("}")
    lines += [
        "",
        "// One card per county (§L9), with the county it names. The grain and taxes a card shows (§L353)",
        "// are read from its county's attributes above (ours).",
        "record county_face { land: area }",
        "cards county_card of county_face §L9-15 {",
    ]
    for cid, name, _, _, _ in COUNTIES:
        lines.append(f'  card_{cid} "{name}" {{ land = {cid} }}')
    lines.append("}")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "base", "map.wph"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(COUNTIES)} counties, {len(edges)} borders")


if __name__ == "__main__":
    main()
