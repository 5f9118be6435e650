#!/usr/bin/env python3
"""Writes base/map.wph: OUR stand-in for the map of GMT's Thirty Years War. The rulebook text has
no map: it names some areas and cities and gives a few of their ratings, but no connections and
most ratings are absent. Every fact the text states pins the data below (marked "text" with its
line); everything else is invented so that the rules can be played. Rerun after editing:
    python3 rulesets/gmt-thirty-years-war/tools/make_standin_map.py

Pinned by the text:
  - 24 areas (L263-280); the 21 the text names are here, 3 more are ours (Franconia, Württemberg,
    Thuringia) and Baden is named only by the supply-base rule (L3491-3532);
  - 18 independent cities (L332-387): the 15 the text names (Metz is one: L3408-3425 and the
    Apocalypse set-up, L4105-4112) and 3 of ours (Ulm, Erfurt, Dortmund);
  - Bohemia: control rating 3, VP 3, an electorate (L281-331 example);
  - Köln: independent, VP 2, an electorate (L332-387 example); Mainz and Trier electoral cities,
    and the four electoral areas Saxony, Brandenburg, Lower Palatinate, Bohemia (L743-771);
  - the Lower Palatinate: exactly four cities Oppenheim, Mannheim, Heidelberg, Landau, rating 3
    (L488-529 example); Trier and Mainz lie within it but are independent;
  - Würzburg: a fortress inside an area, strength 3, siege modifier 0 (L388-396);
    Nürnberg an independent fortress (L388-396); Hanau a fortress in Hessen-Kassel, Frankfurt an
    independent city beside it (L453-487); Hamburg, Trier and Magdeburg independent fortresses
    (L453-487); Munich fortress strength 5 (L2296-2321); Ingolstadt strength 5, in Bavaria
    (L2384-2424, L1388-1413); Breisach siege modifier -2 (L2425-2446); Leipzig a fortress that
    Torgau and Lützen adjoin (L2005-2099);
  - the cities the set-up names and their areas (L632-661, L3886-4200): Pilsen, Budweis, Prague
    (Bohemia), Pressburg (Hungary), Vienna (Austria), Munich (Bavaria), Brussels (Spanish
    Netherlands), Leipzig, Dresden (Saxony), Bamberg (Upper Palatinate), Rostock (Mecklenburg),
    Stettin, Stralsund (Pomerania), Rendsburg, Kiel (Schleswig-Holstein), Wittstock (Mecklenburg),
    Bärwalde and Frankfurt an der Oder (Brandenburg); Metz an independent city in Lorraine;
  - Lorraine has three cities of its own, control rating 2 and VP 2 (L3459-3469: 2 VPs, two
    Catholic-occupied cities keep it out, "the third city"): Nancy and two of ours;
    supply bases Kassel, Brunswick (L3491-3532);
  - the four cities with a pathway to the United Provinces: Ghent, Antwerp, Wesel, Lingen
    (L3041-3085); the United Provinces themselves are a box off the map (L3041-3123): here the
    space `UP_box`, joined by a pathway to those four cities, so that entering or leaving costs
    the 1 MP of normal movement. It is an independent space with no VP, no fortress, no elector,
    so no area control counts it; ours: it is filed under the Spanish Netherlands, which puts it
    in Spain's zone as 17.Sp.2 does (L3669-3680), and no rule that reads an area's cities counts an
    independent one with no VP (a new area would be a row of the area tables nothing reads);
  - the starting VP total 21 (L689-692) with the extra 2 of the design note and the 2 of the
    electoral majority (L632-661): the VP values below are chosen so the set-up derives it.
  - France (L263-280, L302-303, L1864-1880, L3395-3469): besides the 24 areas, France, which has no
    control box (always Protestant-controlled once at war); its cities on the map and its off-map
    spaces (`off_map = true`), which the text tells apart (L3396, L3468-3469) but does not list.
    Ours: two cities on the map, Châlons beside Verdun, Toul and Luxemburg, Langres beside Toul
    and Dole, and two off-map spaces, Paris behind them and Lyon behind Langres and Besançon
    (normal city spaces: 1 MP a pathway, L1876-1879). None is a fortress or independent. The 4 VPs
    "for French cities" (L3459-3462) are spread one to each of the four (ours), so that P17 gives
    their sum (example france_enters_with_its_vps pins it to 4) and option french_vps = by_city
    can move an on-map city's VP (base/france.wph). France is in the area enum so that its cities
    have a region; it has no row in the area tables (no control box: nothing reads one for it,
    base/france.wph).
Germany (L407-411) is every city outside Austria, Bavaria, France, the Spanish Netherlands, Hungary.
"""
import os

# area: (display, control rating, VP, electorate, [(city id, display, fortress strength, siege mod)])
AREAS = [
    ("Austria", "Austria", 2, 5, False, [("Vienna", "Wien", 5, 1), ("Linz", "Linz", 0, 0), ("Graz", "Graz", 0, 0)]),
    ("Bavaria", "Bavaria", 2, 3, False, [("Munich", "München", 5, 0), ("Ingolstadt", "Ingolstadt", 5, 0), ("Landshut", "Landshut", 0, 0)]),
    ("Bohemia", "Bohemia", 3, 3, True, [("Prague", "Prag", 4, 0), ("Pilsen", "Pilsen", 0, 0), ("Budweis", "Budweis", 0, 0), ("Eger", "Eger", 0, 0)]),
    ("Brandenburg", "Brandenburg", 2, 2, True, [("Berlin", "Berlin", 0, 0), ("Kustrin", "Küstrin", 3, 0), ("Frankfurt_Oder", "Frankfurt an der Oder", 0, 0), ("Barwalde", "Bärwalde", 0, 0)]),
    ("Brunswick_Luneburg", "Brunswick-Lüneburg", 1, 1, False, [("Brunswick", "Braunschweig", 3, 0), ("Celle", "Celle", 0, 0)]),
    ("Franche_Comte", "Franche-Comté", 1, 1, False, [("Besancon", "Besançon", 3, 0), ("Dole", "Dole", 0, 0)]),
    ("Hessen_Kassel", "Hessen-Kassel", 2, 1, False, [("Kassel", "Kassel", 3, 0), ("Hanau", "Hanau", 3, 0), ("Marburg", "Marburg", 0, 0)]),
    ("Hungary", "Hungary", 1, 1, False, [("Pressburg", "Pressburg", 3, 0), ("Kaschau", "Kaschau", 0, 0)]),
    ("Lower_Palatinate", "Lower Palatinate", 3, 2, True, [("Oppenheim", "Oppenheim", 0, 0), ("Mannheim", "Mannheim", 0, 0), ("Heidelberg", "Heidelberg", 0, 0), ("Landau", "Landau", 0, 0)]),
    ("Lorraine", "Lorraine", 2, 2, False, [("Nancy", "Nancy", 3, 0), ("Toul", "Toul (ours)", 0, 0), ("Verdun", "Verdun (ours)", 0, 0)]),
    ("Mecklenburg", "Mecklenburg", 1, 1, False, [("Rostock", "Rostock", 0, 0), ("Wismar", "Wismar", 3, 0), ("Wittstock", "Wittstock", 0, 0)]),
    ("Moravia", "Moravia", 1, 2, False, [("Olmutz", "Olmütz", 3, 0), ("Brunn", "Brünn", 0, 0)]),
    ("Munster", "Münster", 2, 1, False, [("Munster", "Münster", 3, 0), ("Lingen", "Lingen", 0, 0), ("Wesel", "Wesel", 0, 0)]),
    ("Pomerania", "Pomerania", 2, 1, False, [("Stettin", "Stettin", 3, 0), ("Stralsund", "Stralsund", 3, -1), ("Kolberg", "Kolberg", 0, 0)]),
    ("Saxony", "Saxony", 2, 3, True, [("Leipzig", "Leipzig", 3, 0), ("Dresden", "Dresden", 4, 0), ("Torgau", "Torgau", 0, 0), ("Lutzen", "Lützen", 0, 0)]),
    ("Schleswig_Holstein", "Schleswig-Holstein", 1, 1, False, [("Rendsburg", "Rendsburg", 0, 0), ("Kiel", "Kiel", 0, 0)]),
    ("Silesia", "Silesia", 2, 2, False, [("Breslau", "Breslau", 4, 0), ("Glogau", "Glogau", 0, 0), ("Oppeln", "Oppeln", 0, 0)]),
    ("Spanish_Netherlands", "Spanish Netherlands", 2, 3, False, [("Brussels", "Brüssel", 4, 0), ("Ghent", "Gent", 0, 0), ("Antwerp", "Antwerpen", 3, 0), ("Luxembourg", "Luxemburg", 4, 0)]),
    ("Tyrol", "Tyrol", 1, 1, False, [("Innsbruck", "Innsbruck", 3, 0), ("Bregenz", "Bregenz", 0, 0)]),
    ("Upper_Palatinate", "Upper Palatinate", 2, 2, False, [("Amberg", "Amberg", 3, 0), ("Bamberg", "Bamberg", 0, 0), ("Cham", "Cham", 0, 0)]),
    # ours: the text names no more areas
    ("Franconia", "Franconia (ours)", 1, 1, False, [("Wurzburg", "Würzburg", 3, 0), ("Schweinfurt", "Schweinfurt", 0, 0)]),
    ("Wurttemberg", "Württemberg (ours)", 1, 1, False, [("Stuttgart", "Stuttgart", 0, 0), ("Tubingen", "Tübingen", 0, 0)]),
    ("Baden", "Baden", 1, 1, False, [("Breisach", "Breisach", 3, -2), ("Colmar", "Colmar", 0, 0)]),
    ("Thuringia", "Thuringia (ours)", 1, 1, False, [("Gotha", "Gotha", 0, 0), ("Jena", "Jena", 0, 0)]),
]
# France (L263-280, L302-303): not one of the 24 areas, no control box. Its cities: (id, display,
# fortress strength, siege mod, off the map) -- all ours but for France having both kinds (L3396, L3468-3469)
FRANCE = ("France", "France (no control box)", [
    ("Chalons", "Châlons (ours)", 0, 0, False), ("Langres", "Langres (ours)", 0, 0, False),
    ("Paris", "Paris (ours; off the map)", 0, 0, True), ("Lyon", "Lyon (ours; off the map)", 0, 0, True)])
# ours: the on-map cities border Lorraine, the Spanish Netherlands and Franche-Comté; the off-map
# spaces are behind them, Lyon beside Besançon. Every space stays within 14 of every other, the
# widest distance the peace withdrawal reckons with (base/peace.wph)
FRANCE_VP = 1      # ours: the 4 VPs of the French cities (L3459-3462), one a space
FRANCE_EDGES = """
Chalons-Verdun Chalons-Luxembourg Chalons-Toul Langres-Toul Langres-Dole Chalons-Langres
Paris-Chalons Paris-Langres Lyon-Langres Lyon-Besancon Paris-Lyon
"""
# independent city: (id, display, area it sits in, VP, electorate, fortress strength, siege mod)
INDEPENDENT = [
    ("Koln", "Köln", "Munster", 2, True, 3, 0),
    ("Mainz", "Mainz", "Lower_Palatinate", 2, True, 3, 0),
    ("Trier", "Trier", "Lower_Palatinate", 2, True, 3, 0),
    ("Nurnberg", "Nürnberg", "Franconia", 1, False, 4, 0),
    ("Frankfurt", "Frankfurt", "Hessen_Kassel", 1, False, 0, 0),
    ("Magdeburg", "Magdeburg", "Brandenburg", 1, False, 4, 0),
    ("Hamburg", "Hamburg", "Schleswig_Holstein", 1, False, 4, 0),
    ("Bremen", "Bremen", "Brunswick_Luneburg", 1, False, 0, 0),
    ("Lubeck", "Lübeck", "Mecklenburg", 1, False, 0, 0),
    ("Salzburg", "Salzburg", "Austria", 1, False, 0, 0),
    ("Regensburg", "Regensburg", "Bavaria", 1, False, 0, 0),
    ("Augsburg", "Augsburg", "Bavaria", 1, False, 0, 0),
    ("Aachen", "Aachen", "Spanish_Netherlands", 1, False, 0, 0),
    ("Strasbourg", "Straßburg", "Baden", 1, False, 3, 0),
    ("Metz", "Metz", "Lorraine", 1, False, 3, 0),
    ("Ulm", "Ulm (ours)", "Wurttemberg", 1, False, 0, 0),
    ("Erfurt", "Erfurt (ours)", "Thuringia", 1, False, 0, 0),
    ("Dortmund", "Dortmund (ours)", "Munster", 1, False, 0, 0),
]
# pathways (ours, except Leipzig-Torgau and Leipzig-Lützen, which the combat example needs)
EDGES = """
Brussels-Ghent Brussels-Antwerp Brussels-Luxembourg Brussels-Aachen Ghent-Antwerp Antwerp-Aachen
Aachen-Koln Luxembourg-Trier Luxembourg-Metz Metz-Nancy Nancy-Strasbourg Metz-Trier Nancy-Dole
Metz-Verdun Verdun-Toul Toul-Nancy Luxembourg-Verdun
Dole-Besancon Besancon-Breisach Breisach-Colmar Colmar-Strasbourg Strasbourg-Landau Breisach-Tubingen
Koln-Wesel Koln-Dortmund Wesel-Dortmund Wesel-Lingen Lingen-Munster Munster-Dortmund Munster-Bremen
Koln-Mainz Trier-Mainz Trier-Oppenheim Mainz-Oppenheim Mainz-Frankfurt Oppenheim-Mannheim
Mannheim-Heidelberg Mannheim-Landau Heidelberg-Stuttgart Heidelberg-Wurzburg
Frankfurt-Hanau Frankfurt-Marburg Hanau-Wurzburg Marburg-Kassel Kassel-Dortmund Kassel-Gotha Kassel-Celle
Stuttgart-Tubingen Stuttgart-Ulm Tubingen-Bregenz Ulm-Augsburg Ulm-Nurnberg
Wurzburg-Schweinfurt Schweinfurt-Bamberg Schweinfurt-Gotha Bamberg-Nurnberg Bamberg-Eger Nurnberg-Amberg
Amberg-Cham Amberg-Regensburg Cham-Pilsen Regensburg-Ingolstadt Regensburg-Landshut Ingolstadt-Augsburg
Augsburg-Munich Munich-Landshut Munich-Innsbruck Munich-Salzburg Innsbruck-Bregenz Innsbruck-Salzburg
Landshut-Linz Salzburg-Linz Linz-Vienna Linz-Budweis Vienna-Graz Vienna-Pressburg Vienna-Brunn
Pressburg-Kaschau Pressburg-Brunn Kaschau-Oppeln Brunn-Olmutz Olmutz-Oppeln Olmutz-Prague Brunn-Budweis
Oppeln-Breslau Breslau-Glogau Glogau-Frankfurt_Oder Breslau-Dresden Budweis-Pilsen Budweis-Prague
Pilsen-Prague Pilsen-Eger Prague-Dresden Eger-Leipzig Eger-Jena
Gotha-Erfurt Erfurt-Jena Erfurt-Lutzen Jena-Lutzen Lutzen-Leipzig Leipzig-Torgau Leipzig-Magdeburg
Torgau-Dresden Torgau-Berlin Magdeburg-Brunswick Magdeburg-Berlin Brunswick-Celle Celle-Bremen
Bremen-Hamburg Celle-Hamburg Hamburg-Lubeck Hamburg-Rendsburg Rendsburg-Kiel Kiel-Lubeck Lubeck-Wismar
Wismar-Rostock Rostock-Stralsund Stralsund-Stettin Stettin-Kolberg Stettin-Kustrin Kustrin-Berlin
Kustrin-Frankfurt_Oder Berlin-Frankfurt_Oder Wismar-Wittstock Wittstock-Berlin Rostock-Wittstock
Stettin-Barwalde Barwalde-Kustrin Graz-Innsbruck
"""
TO_UP = {"Ghent", "Antwerp", "Wesel", "Lingen"}          # text: L3041-3085
# the three port cities with an arrow to Sweden (L3716-3730): Stettin is the text's (the scenarios'
# Swedish base, L3886-4200), Stralsund and Wismar are ours
TO_SWEDEN = ["Stettin", "Stralsund", "Wismar"]
NOT_GERMANY = {"Austria", "Bavaria", "Spanish_Netherlands", "Hungary", "France"}   # L407-411
# the United Provinces box (L3041-3123): an independent space filed under the Spanish Netherlands,
# a pathway to each "To UP" city
UP_BOX = ("UP_box", "United Provinces (box)", "Spanish_Netherlands")

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    w = out.append
    w("// GENERATED by tools/make_standin_map.py -- do not edit; edit the script and rerun it.")
    w("// OUR stand-in for the map (the text has none): see the script for what the text pins.")
    w("")
    w("// The 24 areas of the map (§L263-280); the last four are ours. Then France, which has no control")
    w("// box (§L302-303): its cities on the map and its off-map spaces (base/france.wph).")
    w("enum area §L263-280 §L302-303 {")
    w(",\n".join('  %s "%s"' % (a[0], a[1]) for a in AREAS + [FRANCE]))
    w("}")
    w("enum pathway §L397-406 { Pathway }")
    w("")
    w("// Each area's control rating (cities needed to control it), VP value and electorate (§L281-331).")
    w("// France has no control box (§L302-303), so no row: its VPs are its cities' (below, and P17's).")
    w("table control_rating §L281-331 §L488-529 : key a: area standin \"our ratings; the text gives Bohemia's and the Lower Palatinate's\" {")
    for a in AREAS: w("  %s : %d" % (a[0], a[2]))
    w("}")
    w("table area_vp §L281-331 : key a: area standin \"our VP values; the text gives Bohemia's; chosen so the campaign set-up derives 21\" {")
    for a in AREAS: w("  %s : %d" % (a[0], a[3]))
    w("}")
    w("predicate electoral_area(a: area) §L743-771 = %s;" % " or ".join("a == %s" % a[0] for a in AREAS if a[4]))
    w("predicate in_germany(a: area) §L407-411 = not (%s);" % " or ".join("a == %s" % x for x in sorted(NOT_GERMANY)))
    w("")
    w("map germany : areas §L263-280 §L332-396 §L1864-1880 standin \"our own stand-in: the text has no map; the cities it names keep what it says of them, France's unnamed ones are ours\" {")
    names = set()
    for a in AREAS:
        for (cid, disp, fort, sm) in a[5]:
            attrs = ["region = %s" % a[0], "independent = false", "fortress = %d" % fort, "siege_mod = %d" % sm,
                     "vp = 0", "elector = false", "to_up = %s" % ("true" if cid in TO_UP else "false"),
                     "to_sweden = %s" % ("true" if cid in TO_SWEDEN else "false"), "off_map = false"]
            w('  area %s "%s" { %s }' % (cid, disp, ", ".join(attrs))); names.add(cid)
    for (cid, disp, fort, sm, off) in FRANCE[2]:
        attrs = ["region = %s" % FRANCE[0], "independent = false", "fortress = %d" % fort, "siege_mod = %d" % sm,
                 "vp = %d" % FRANCE_VP, "elector = false", "to_up = false", "to_sweden = false", "off_map = %s" % ("true" if off else "false")]
        w('  area %s "%s" { %s }' % (cid, disp, ", ".join(attrs))); names.add(cid)
    for (cid, disp, reg, vp, el, fort, sm) in INDEPENDENT:
        attrs = ["region = %s" % reg, "independent = true", "fortress = %d" % fort, "siege_mod = %d" % sm,
                 "vp = %d" % vp, "elector = %s" % ("true" if el else "false"), "to_up = false", "to_sweden = false", "off_map = false"]
        w('  area %s "%s" { %s }' % (cid, disp, ", ".join(attrs))); names.add(cid)
    attrs = ["region = %s" % UP_BOX[2], "independent = true", "fortress = 0", "siege_mod = 0",
             "vp = 0", "elector = false", "to_up = false", "to_sweden = false", "off_map = false"]
    w('  area %s "%s" { %s }' % (UP_BOX[0], UP_BOX[1], ", ".join(attrs))); names.add(UP_BOX[0])
    up_edges = " ".join("%s-%s" % (c, UP_BOX[0]) for c in sorted(TO_UP))
    seen = set()
    for e in (EDGES + " " + FRANCE_EDGES + " " + up_edges).split():
        a, b = e.split("-")
        assert a in names and b in names, e
        k = tuple(sorted((a, b))); assert k not in seen, e; seen.add(k)
        w("  edge %s -- %s : Pathway" % (a, b))
    w("}")
    # connectivity check
    adj = {n: set() for n in names}
    for a, b in seen: adj[a].add(b); adj[b].add(a)
    stack, reach = ["Vienna"], {"Vienna"}
    while stack:
        for n in adj[stack.pop()]:
            if n not in reach: reach.add(n); stack.append(n)
    assert reach == names, names - reach
    # the widest distance stays within the 14 bands of the peace withdrawal (base/peace.wph)
    def far(n):
        d = {n: 0}; fr = [n]
        while fr:
            nx = []
            for x in fr:
                for y in adj[x]:
                    if y not in d: d[y] = d[x] + 1; nx.append(y)
            fr = nx
        return max(d.values())
    widest = max(far(n) for n in names)
    assert widest <= 14, widest
    assert len(INDEPENDENT) == 18 and len(AREAS) == 24
    assert all(c in names for c in TO_SWEDEN)
    assert FRANCE_VP * len(FRANCE[2]) == 4          # L3459-3462
    open(os.path.join(here, "..", "base", "map.wph"), "w").write("\n".join(out) + "\n")
    print("wrote base/map.wph: %d cities, %d pathways, widest distance %d" % (len(names), len(seen), widest))

main()
