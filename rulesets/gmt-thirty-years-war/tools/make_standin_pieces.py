#!/usr/bin/env python3
"""Writes base/pieces.wph: OUR stand-in counter mix, leader ratings and card values for GMT's
Thirty Years War. The rulebook text has no counter sheet and no card faces. Rerun after editing:
    python3 rulesets/gmt-thirty-years-war/tools/make_standin_pieces.py

Pinned by the text:
  - combat factors and loss factors from the combat and siege examples (L2005-2099, L2296-2321,
    L2384-2424): a full Veteran has CF 4 and each step LF 3 (five Veterans and two full Militia
    make 24; reducing one Veteran gives 3 LFs); a full Mercenary CF 3, reduced CF 2, LF 3 a step
    (four full and three reduced make 18; three reduced give 9 LFs); a full Militia CF 2, LF 2 a
    step (eliminating one gives 4 LFs);
  - one English unit, treated as a German Protestant unit (L3379-3388); its kind is ours;
  - Denmark's army is Christian IV and Danish units (L3335-3348), its only leader Christian
    (L3307-3309); its size (three Mercenaries, two Militia) and his ratings are ours;
  - Mansfeld leadership 5 and Anhalt leadership 2 (L1570-1616); Tilly battle rating +2 and
    Gustavus +3 (net DRMs of the combat example); Tilly survives a loss roll of 6, Pappenheim a 4;
  - every leader moves 8 (L530-552);
  - four Imperial Veterans: the set-up places three (L632-661), optional rule 19.2a adds "the 4th"
    (L4638);
  - 55 cards a side (L150-160); 15 Catholic and 14 Protestant Early War cards (L239-262);
    card values 1 to 3 (L1146-1155);
  - card names where the card history (L4293-4633) or the rules name them;
  - P9's aid as printed, France 7, England 3, UP 8 (L4706-4710); 8.5's correction to 0/5/8
    is the errata layer's (errata/living_rules.wph).
Everything else (counts, movement factors, other ratings, card values and aid, which group a card
belongs to, which cards are Combat Cards and what they need) is ours. The Combat Cards (9.5,
L1511-1554) are the cards whose history (L4293-4633) tells of a battlefield tactic; one named for a
nation's troops needs a unit of that nation in the combat (9.52: many have conditions).
"""
import os, re, hashlib

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = os.environ.get("GMT_SEED", "/work/shared/seeds/000_77395888093fe9bc.txt")

def h(s, n):  # a deterministic stand-in value 0..n-1
    return int(hashlib.sha256(s.encode()).hexdigest(), 16) % n

# kind: (full CF, reduced CF, LF a step, movement factor)
KINDS = {"Veteran": (4, 2, 3, 5), "Mercenary": (3, 2, 3, 5), "Militia": (2, 1, 2, 4)}
# (id, display, side, nation, kind, count)
UNITS = [
    ("imp_vet", "Imperial Veteran", "Catholic", "Imperial", "Veteran", 4),   # 19.2a's 4th (L4638)
    ("imp_mer", "Imperial Mercenary", "Catholic", "Imperial", "Mercenary", 8),
    ("imp_mil", "Imperial Militia", "Catholic", "Imperial", "Militia", 4),
    ("bav_mer", "Bavarian Mercenary", "Catholic", "Bavarian", "Mercenary", 8),
    ("bav_mil", "Bavarian Militia", "Catholic", "Bavarian", "Militia", 4),
    ("spa_vet", "Spanish Veteran", "Catholic", "Spanish", "Veteran", 7),
    ("spa_mer", "Spanish Mercenary", "Catholic", "Spanish", "Mercenary", 3),
    ("sax_mil", "Saxon Militia", "Catholic", "Saxon", "Militia", 6),
    ("pro_mer", "Protestant Mercenary", "Protestant", "German", "Mercenary", 12),
    ("pro_mil", "Protestant Militia", "Protestant", "German", "Militia", 10),
    ("hun_mil", "Hungarian Militia", "Protestant", "Hungarian", "Militia", 5),
    # the Swedish and French armies (Sweden's and France's entries, the later scenarios)
    ("swe_vet", "Swedish Veteran", "Protestant", "Swedish", "Veteran", 8),
    ("fre_mer", "French Mercenary", "Protestant", "French", "Mercenary", 4),
    ("fre_mil", "French Militia", "Protestant", "French", "Militia", 4),
    # the English unit (17.E.2, L3379-3388: "the English unit", treated as a Protestant German
    # unit); its kind is ours
    ("eng_mer", "English Mercenary", "Protestant", "German", "Mercenary", 1),
    # Denmark's army (17.D.3, L3335-3348: "Christian IV and all Danish units"): ours, a small one
    ("dan_mer", "Danish Mercenary", "Protestant", "Danish", "Mercenary", 3),
    ("dan_mil", "Danish Militia", "Protestant", "Danish", "Militia", 2),
]
# (id, display, side, nation, activation, leadership, battle, loss, dynamic)
LEADERS = [
    ("mansfeld", "Mansfeld", "Protestant", "German", 2, 5, 1, 7, False),
    ("anhalt", "Anhalt", "Protestant", "German", 1, 2, 0, 8, False),
    ("thurn", "Thurn", "Protestant", "German", 2, 3, 0, 8, False),
    ("schlick", "Schlick", "Protestant", "German", 1, 2, 0, 8, False),
    ("bethlen", "Bethlen Gabor", "Protestant", "Hungarian", 2, 4, 1, 9, False),
    ("bucquoy", "Bucquoy", "Catholic", "Imperial", 2, 4, 1, 8, False),
    ("tilly", "Tilly", "Catholic", "Bavarian", 2, 6, 2, 7, False),
    ("pappenheim", "Pappenheim", "Catholic", "Bavarian", 1, 3, 1, 5, True),
    ("spinola", "Spinola", "Catholic", "Spanish", 2, 5, 1, 9, False),
    ("john_george", "John George", "Catholic", "Saxon", 3, 3, 0, 9, False),
    # off the map at the start; only card events bring them in
    ("wallenstein", "Wallenstein", "Catholic", "Imperial", 1, 8, 2, 8, False),
    ("piccolomini", "Piccolomini", "Catholic", "Imperial", 2, 4, 1, 8, False),
    # the leaders the later scenarios set up (L3886-4200) and war entries and events bring in;
    # Gustavus is the text's double star (L1620-1643); the others' nations follow the set-ups'
    # stacks (Aldringer, Goetz and Werth with Bavarian units)
    ("gustavus", "Gustavus Adolphus", "Protestant", "Swedish", 1, 8, 3, 6, True),
    ("baner", "Baner", "Protestant", "Swedish", 2, 5, 1, 8, False),
    ("horn", "Horn", "Protestant", "Swedish", 2, 4, 1, 8, False),
    ("bernard", "Bernard of Saxe-Weimar", "Protestant", "Swedish", 2, 5, 1, 7, False),
    ("leslie", "Leslie", "Protestant", "Swedish", 2, 3, 0, 8, False),
    ("william_hk", "William of Hesse-Kassel", "Protestant", "German", 2, 3, 0, 8, False),
    ("george_bl", "George of Brunswick-Lüneburg", "Protestant", "German", 2, 3, 0, 8, False),
    ("la_force", "La Force", "Protestant", "French", 2, 3, 0, 8, False),
    ("savelli", "Savelli", "Catholic", "Imperial", 3, 2, 0, 9, False),
    ("aldringer", "Aldringer", "Catholic", "Bavarian", 2, 4, 1, 8, False),
    ("charles_lorraine", "Charles of Lorraine", "Catholic", "Imperial", 2, 3, 0, 8, False),
    ("gallas", "Gallas", "Catholic", "Imperial", 2, 4, 0, 8, False),
    ("cordoba", "Córdoba", "Catholic", "Spanish", 2, 4, 1, 8, False),
    ("hatzfeld", "Hatzfeld", "Catholic", "Imperial", 2, 3, 0, 8, False),
    ("leopold", "Archduke Leopold", "Catholic", "Imperial", 2, 4, 1, 8, False),
    ("cardinal_infante", "Cardinal Infante", "Catholic", "Spanish", 1, 6, 2, 7, False),
    ("werth", "Werth", "Catholic", "Bavarian", 2, 5, 1, 7, False),
    ("goetz", "Goetz", "Catholic", "Bavarian", 2, 3, 0, 8, False),
    # optional 19.2b (L4638-4642): his counter is in the game, its ratings are not in the text;
    # he enters with France only when the option is chosen (base/events.wph)
    ("guebriant", "Guebriant", "Protestant", "French", 2, 3, 0, 8, False),
    # Denmark's only leader (17.D.2, L3307-3309), off the map until his entry (17.D.3)
    ("christian", "Christian IV", "Protestant", "Danish", 2, 5, 0, 8, False),
    # the New Leader cards' other leaders (base/new_leaders.wph): the card history (L4578-4627)
    # names them and their nations (Holk with Aldringer, Bavarian; Mercy, Groenfeld, Melander
    # Bavarian; Feria Spanish; Wrangel, Königsmarck Swedish; Condé, l'Hôpital, Gassion French);
    # Christian of Brunswick and George Frederick of Baden ("George F. of BD.", counter note 1,
    # L190-200) lead German Protestants; Torstennson is Swedish (17.Sw.1, L3762-3764). Ratings ours (those of
    # a leader of the same nation already in the mix, so that the aid's leader table stays short).
    ("holk", "Holk", "Catholic", "Bavarian", 2, 3, 0, 8, False),
    ("feria", "Duke of Feria", "Catholic", "Spanish", 2, 4, 1, 8, False),
    ("mercy", "Mercy", "Catholic", "Bavarian", 2, 5, 1, 7, False),
    ("groenfeld", "Groenfeld", "Catholic", "Bavarian", 2, 3, 0, 8, False),
    ("melander", "Melander", "Catholic", "Bavarian", 2, 4, 1, 8, False),
    ("brunswick", "Christian of Brunswick", "Protestant", "German", 2, 3, 0, 8, False),
    ("baden", "George F. of BD.", "Protestant", "German", 2, 3, 0, 8, False),
    ("torstensson", "Torstennson", "Protestant", "Swedish", 2, 5, 1, 7, False),
    ("wrangel", "Wrangel", "Protestant", "Swedish", 2, 4, 1, 8, False),
    ("konigsmarck", "Königsmarck", "Protestant", "Swedish", 2, 3, 0, 8, False),
    ("conde", "Condé", "Protestant", "French", 2, 4, 1, 8, False),
    ("lhopital", "l’Hôpital", "Protestant", "French", 2, 3, 0, 8, False),
    ("gassion", "Gassion", "Protestant", "French", 2, 4, 1, 8, False),
    # 12.42's example (L2126-2140): Enkevoort is on the back of Piccolomini's counter; he enters
    # only as that replacement (base/replacement_leaders.wph). Imperial, as Piccolomini; ratings ours.
    ("enkevoort", "Enkevoort", "Catholic", "Imperial", 2, 3, 0, 8, False),
    # 16.22 (L3096-3123): the unnamed German Protestant leader on the back of a Protestant counter
    # off the map replaces Christian IV or Anhalt removed from the UP box by a card
    # (base/united_provinces.wph). One piece: a second removal while he is in play finds none.
    # Ratings ours (those of Christian of Brunswick, so that the aid's leader table stays short).
    ("gpr", "German Protestant replacement", "Protestant", "German", 2, 3, 0, 8, False),
]

# The rules name one card of a pair the card manifest names together: 14.4 (L2594-2600) says P1
# and P39 close the Val Telline passes and C1 and C38 open them; 9.x's Dutch War (L1426-1427) says
# C4 besieges Breda and C3 Bergen.
NAMED_BY_RULES = {
    "P1": "Val Telline Passes Closed", "P39": "Val Telline Passes Closed",
    "C1": "Val Telline Passes Open", "C38": "Val Telline Passes Open",
    "C3": "Spinola Besieges Bergen", "C4": "Spinola Besieges Breda",
}

# OUR stand-in Combat Cards: key -> the nation whose units the combat needs (None: no condition).
COMBAT_CARDS = {
    "C32": None,        # Flanking Maneuver
    "C33": "Imperial",  # Croats
    "C35": "Spanish",   # Spanish Tercios
    "C47": None,        # Cavalry Charge
    "C50": None,        # Field Fortifications
    "P31": "Swedish",   # Massed Artillery (Gustavus' grand battery)
    "P32": None,        # Flanking Maneuver
    "P33": None,        # Cavalry Charge
    "P34": "Swedish",   # Swedish Firepower
    "P47": "French",    # Furia Franchese
    "P49": None,        # Hesitation
}

def tidy(nm):
    nm = re.sub(r"\s+", " ", nm).strip()
    nm = re.sub(r"(\b[A-Z]) (?=[a-z])", r"\1", nm)      # "M aximilian" -> "Maximilian"
    return nm.replace(" -", "-").replace(" ’", "’")

def card_names():
    txt = re.sub(r"<\|[^|]*\|>", " ", open(SEED, encoding="utf-8").read())
    names = dict(NAMED_BY_RULES)
    # The card manifest (L4293-4633): "Name (C14, C41/P16, P41): ..." at the start of a line.
    manifest = txt[txt.index("CARD MANIFEST"):]
    for m in re.finditer(r"(?m)^([A-Z][^\n():]{2,60}?)\s*\(([CP]\d+(?:\s*[,/]\s*[CP]\d+)*)\)\s*:", manifest):
        for key in re.findall(r"[CP]\d+", m.group(2)):
            names.setdefault(key, tidy(m.group(1)))
    # The rest where the rules name them: "Name (C11)" or "Name Event (C11)".
    flat = txt.replace("\n", " ")
    for m in re.finditer(r"([A-Z][^():.\[\]]{2,60}?)\s*\(((?:C|P))-?(\d+)\)", flat):
        nm = re.sub(r"^The (Protestant|Catholic) player plays ", "", tidy(m.group(1)))
        nm = re.sub(r"\s*Event$", "", nm)
        if len(nm) > 45 or "card" in nm.lower() or "Event" in nm: continue
        names.setdefault(m.group(2) + m.group(3), nm)
    return names

def main():
    names = card_names()
    out = []; w = out.append
    w("// GENERATED by tools/make_standin_pieces.py -- do not edit; edit the script and rerun it.")
    w("// OUR stand-in counter mix, leader ratings and card faces: see the script for what the text pins.")
    w("")
    w("record unit_face §L161-183 { side: side = Protestant, nation: nation = German, kind: unit_kind = Mercenary,")
    w("  cf_full: 0..9 error = 0, cf_half: 0..9 error = 0, lf: 0..9 error = 0, mf: 0..9 error = 0 }")
    w("record leader_face §L184-238 { side: side = Protestant, nation: nation = German, activation: 1..3 error = 1,")
    w("  leadership: 0..9 error = 0, battle: -3..3 error = 0, loss: 0..10 error = 9, dynamic: bool = false }")
    w("record card_face §L239-262 { side: side = Protestant, group: card_group = Early, value: 1..3 error = 1,")
    w("  aid_france: 0..9 error = 0, aid_england: 0..9 error = 0, aid_up: 0..9 error = 0, aid_savoy: 0..9 error = 0,")
    w("  aid_sweden: 0..9 error = 0, aid_spain: 0..9 error = 0, aid_pope: 0..9 error = 0,")
    w("  combat_card: bool = false, needs_troops: bool = false, troops: nation = German }")
    w("")
    w('pieces unit of unit_face §L161-183 standin "the counter mix is not in the text; CF/LF pinned by the examples" {')
    for (i, d, s, n, k, c) in UNITS:
        f, hf, lf, mf = KINDS[k]
        w('  %s "%s" { side = %s, nation = %s, kind = %s, cf_full = %d, cf_half = %d, lf = %d, mf = %d } x%d'
          % (i, d, s, n, k, f, hf, lf, mf, c))
    w("}")
    w('pieces leader of leader_face §L184-238 standin "leader ratings are not in the text; a few are pinned by its examples" {')
    for (i, d, s, n, a, l, b, lo, dy) in LEADERS:
        w('  %s "%s" { side = %s, nation = %s, activation = %d, leadership = %d, battle = %d, loss = %d, dynamic = %s }'
          % (i, d, s, n, a, l, b, lo, "true" if dy else "false"))
    w("}")
    w('cards card of card_face §L239-262 standin "card faces are not in the text: names from its card history, values and aid ours" {')
    for side, letter, early in (("Catholic", "C", 15), ("Protestant", "P", 14)):
        for k in range(1, 56):
            key = "%s%d" % (letter, k)
            grp = "Early" if k <= early else ("Intervention" if k <= 35 else "Apocalypse")
            val = 1 + h(key + "v", 3)
            nm = names.get(key, "card")
            disp = "%s %s" % (key, nm) if nm != "card" else "%s (no name in the text)" % key
            if side == "Catholic":
                aid = "aid_spain = %d, aid_pope = %d" % (h(key + "s", 4), h(key + "p", 3))
            elif key == "P9":
                aid = "aid_france = 7, aid_england = 3, aid_up = 8"
            else:
                aid = "aid_france = %d, aid_england = %d, aid_up = %d, aid_savoy = %d, aid_sweden = %d" % (
                    h(key + "f", 3), h(key + "e", 3), h(key + "u", 4), h(key + "y", 2), h(key + "w", 2))
            if key in COMBAT_CARDS:
                need = COMBAT_CARDS[key]
                aid += ", combat_card = true" + (", needs_troops = true, troops = %s" % need if need else "")
            w('  %s "%s" { side = %s, group = %s, value = %d, %s }' % (key.lower(), disp.replace('"', "'"), side, grp, val, aid))
    w("}")
    open(os.path.join(HERE, "..", "base", "pieces.wph"), "w").write("\n".join(out) + "\n")
    print("wrote base/pieces.wph: %d named cards" % len(names))

main()
