# The atlas's summary: how many positions are jeux de règle, by elder's trumps; how the
# double-dummy 2-to-1 rule compares with the seed's verdict (issue 14.5: the hands it stands on
# that fail 002:39); and the one example of Foster's that seed 002 gives (002:42-45).
# Counts are of positions (a class weighs its multiplicity), classes beside them.
from tapis.host.atlas import classes as K

# 002:42: "one trump, a winning sequence of three cards in one suit and one small card in
# another; hearts trumps". The picture is lost (002:43 is "1"); the lowest trump is the seven
# (002:46: trumps are chosen the lowest possible), and a "small card" is taken as 7 to 10.
FOSTER = "7H KS QS JS 7D"
FOSTER_WINS = 44724  # 002:44-45


def foster_family():
    """Every position the description of 002:42 fits, hearts trump: (hand, turned) codes."""
    from tapis.firmware.cards import HEARTS, JACK, KING, QUEEN

    out = []
    hearts = [HEARTS << 4 | r for r in K.ORDER]
    for trump in hearts:
        for turned in hearts:
            if turned == trump:
                continue
            for s in (0, 2, 3):
                tierce = [s << 4 | KING, s << 4 | QUEEN, s << 4 | JACK]
                for o in (0, 2, 3):
                    if o != s:
                        out += [([trump] + tierce + [o << 4 | r], turned) for r in K.ORDER[:4]]
    return out


def _foster(rows_by_key):
    from tapis.firmware.cards import parse, parse_list
    from tapis.host.atlas.row import row

    def get(k):
        return rows_by_key[k] if k in rows_by_key else row(k)

    literal = [get(K.key(parse_list(FOSTER), parse(t))) for t in ("8H", "9H", "TH", "AH", "JH", "QH", "KH")]
    family = {}
    for hand, turned in foster_family():
        family.setdefault(K.key(hand, turned), 0)
    rows = [get(k) for k in family]
    return {"hand": FOSTER, "source": "002:42-45", "dd_wins": sorted({r["dd_wins"] for r in literal}),
            "reproduces_44724": all(r["dd_wins"] == FOSTER_WINS for r in literal),
            "jeu_de_regle": all(r["jeu_de_regle"] for r in literal),
            "advice": sorted({r["advice"] for r in literal}),
            "family_classes": len(rows), "family_jeux_de_regle": sum(1 for r in rows if r["jeu_de_regle"]),
            "family_dd_wins": [min(r["dd_wins"] for r in rows), max(r["dd_wins"] for r in rows)]}


def summarise(rows, complete=True):
    by = {}
    dd = {"positions": 0, "no_king": 0, "no_king_fail_002_39": 0, "no_king_fail_002_46": 0, "no_king_jeux": 0,
          "no_king_classes": 0, "no_king_fail_002_39_classes": 0}
    for r in rows:
        m = r["multiplicity"]
        b = by.setdefault(r["elder_trumps"], {"elder_trumps": r["elder_trumps"], "classes": 0, "positions": 0,
                                              "jeu_classes": 0, "jeux_de_regle": 0, "stand": 0, "dd_stand": 0})
        b["classes"] += 1
        b["positions"] += m
        b["jeu_classes"] += bool(r["jeu_de_regle"])
        b["jeux_de_regle"] += m if r["jeu_de_regle"] else 0
        b["stand"] += m if r["advice"] == "stand" else 0
        b["dd_stand"] += m if r["dd_advice"] == "stand" else 0
        if r["dd_advice"] == "stand":
            dd["positions"] += m
            if not r["trump_king"]:
                dd["no_king"] += m
                dd["no_king_classes"] += 1
                dd["no_king_fail_002_39"] += m if not r["sure_point"] else 0
                dd["no_king_fail_002_39_classes"] += not r["sure_point"]
                dd["no_king_fail_002_46"] += m if r["sure_point"] and not r["plain_suits"] else 0
                dd["no_king_jeux"] += m if r["jeu_de_regle"] else 0
    positions = sum(r["multiplicity"] for r in rows)
    out = {"classes": len(rows), "positions": positions, "complete": complete,
           "by_trumps": [by[k] for k in sorted(by)],
           "jeux_de_regle": {"classes": sum(b["jeu_classes"] for b in by.values()),
                             "positions": sum(b["jeux_de_regle"] for b in by.values())},
           "stand_positions": sum(b["stand"] for b in by.values()), "double_dummy_stands": dd,
           "foster": _foster({K.key(*_codes(r)): r for r in rows})}
    if complete and positions != K.TOTAL_POSITIONS:
        raise AssertionError("the classes stand for %d positions, not %d" % (positions, K.TOTAL_POSITIONS))
    return out


def _codes(r):
    from tapis.firmware.cards import parse, parse_list

    return parse_list(r["hand"]), parse(r["turned"])


def render(s):
    lines = ["écarté atlas: %d classes standing for %d positions%s (elder leads without proposing; "
             "65,780 dealer hands each)" % (s["classes"], s["positions"], "" if s["complete"] else " (a subset)"),
             "  %-13s %8s %10s %14s %10s %12s" % ("elder trumps", "classes", "positions", "jeux de règle",
                                                  "stand", "dd 2-to-1")]
    for b in s["by_trumps"]:
        lines.append("  %-13d %8d %10d %14d %10d %12d" % (b["elder_trumps"], b["classes"], b["positions"],
                                                          b["jeux_de_regle"], b["stand"], b["dd_stand"]))
    j, dd, f = s["jeux_de_regle"], s["double_dummy_stands"], s["foster"]
    lines.append("  jeux de règle (seed 002:39 and 002:46): %d positions (%.2f %%), %d classes; stand on %d"
                 % (j["positions"], 100.0 * j["positions"] / s["positions"], j["classes"], s["stand_positions"]))
    if dd["no_king"]:
        lines.append("  the double-dummy 2-to-1 rule stands on %d positions; of the %d without the trump king, "
                     "%d (%.1f %%) fail 002:39 and %d more fail 002:46 only"
                     % (dd["positions"], dd["no_king"], dd["no_king_fail_002_39"],
                        100.0 * dd["no_king_fail_002_39"] / dd["no_king"], dd["no_king_fail_002_46"]))
    lines.append("  Foster's example (%s, %s), any heart turned: double dummy %s of 65,780 (%s), jeu de règle %s, %s"
                 % (f["hand"], f["source"], "/".join(str(w) for w in f["dd_wins"]),
                    "Foster's 44,724 reproduced" if f["reproduces_44724"] else "NOT Foster's 44,724",
                    "yes" if f["jeu_de_regle"] else "no", "/".join(f["advice"])))
    lines.append("  hands of its description (a trump, K Q J of a plain suit, a 7 to 10 of another): %d classes, "
                 "%d jeux de règle; double dummy %d to %d"
                 % (f["family_classes"], f["family_jeux_de_regle"], f["family_dd_wins"][0], f["family_dd_wins"][1]))
    lines.append("  table: %s (workers %d, %s core)" % (s["out"], s["workers"], s["core"]))
    return "\n".join(lines)
