# `tapis eval piquet --elder "12 CARDS" --younger "12 CARDS"`: the declarations of two
# piquet hands as if everything were declared (SPEC §4, seed 003): point, sequence and
# sets in the scoring order, carte blanche (10, first in the order: it counts toward the
# repique, 003:39, 003:100), the repique, and each side's total. The play is not counted.
import json

from tapis.firmware.cards import names
from tapis.firmware.offboard.deck import PIQUET_RANKS
from tapis.host import args as A

SIDES = {0: "elder", 1: "younger", -1: None}


def register(sub):
    p = sub.add_parser("piquet", help="score the declarations of an elder and a younger hand")
    p.add_argument("--elder", type=A.cards, required=True, help='elder\'s 12 cards, e.g. "AS KS QS ..."')
    p.add_argument("--younger", type=A.cards, required=True, help="younger's 12 cards")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run, parser=p)


def check(parser, who, hand):
    if len(hand) != 12:
        parser.error("%s must hold 12 cards, got %d: %s" % (who, len(hand), " ".join(names(hand))))
    dup = sorted({c for c in hand if hand.count(c) > 1})
    if dup:
        parser.error("%s names a card twice: %s" % (who, " ".join(names(dup))))
    bad = [c for c in hand if (c & 15) not in PIQUET_RANKS]
    if bad:
        parser.error("%s holds %s, outside the 32-card piquet pack (7 to ace)" % (who, " ".join(names(bad))))


def twin():
    """The declarations twin the host core chose (cython_core/twins.py): compiled or pure."""
    from tapis.cython_core import twins as core
    return core.declarations


def evaluate(elder, younger):
    """The command's JSON object: "hands" and "totals" by side, each category's winner and
    score with carte blanche put first in the scoring order (the twin leaves it out: it
    adds 10 to its holder and may make his repique), who scores a repique (a side's name,
    or null)."""
    from tapis.firmware.games.piquet import declarations as D

    r = twin().declare(elder, younger)
    blanche = [s for s, h in ((0, elder), (1, younger)) if D.is_carte_blanche(h)]
    out = {"schema": "tapis.eval.piquet/2", "hands": {"elder": names(elder), "younger": names(younger)},
           "carte_blanche": {"winner": SIDES[blanche[0]] if blanche else None,
                             "score": D.CARTE_BLANCHE if blanche else 0}}
    awards = [(s, D.CARTE_BLANCHE) for s in blanche]
    for i, cat in enumerate(("point", "sequence", "sets")):
        out[cat] = {"winner": SIDES[r[2 * i]], "score": r[2 * i + 1]}
        awards.append((r[2 * i], r[2 * i + 1]))
    rq = D.repique(awards)
    tot = [0, 0]
    for seat, points in awards:
        if seat in (0, 1):
            tot[seat] += points
    if rq in (0, 1):
        tot[rq] += D.REPIQUE
    out["repique"] = SIDES[rq]
    out["totals"] = {"elder": tot[0], "younger": tot[1]}
    return out


def run(args):
    p = args.parser
    check(p, "--elder", args.elder)
    check(p, "--younger", args.younger)
    both = set(args.elder) & set(args.younger)
    if both:
        p.error("a card cannot be in both hands: %s" % " ".join(names(sorted(both))))
    out = evaluate(args.elder, args.younger)
    if args.json:
        print(json.dumps(out))
        return 0
    if out["carte_blanche"]["winner"]:
        print("%-9s %s scores 10" % ("blanche", out["carte_blanche"]["winner"]))
    for cat in ("point", "sequence", "sets"):
        w = out[cat]["winner"]
        print("%-9s %s" % (cat, "%s scores %d" % (w, out[cat]["score"]) if w else "nobody scores"))
    if out["repique"]:
        print("repique   %s scores 60" % out["repique"])
    print("total     elder %d, younger %d" % (out["totals"]["elder"], out["totals"]["younger"]))
    return 0
