# `tapis odds club`: the exact chances of one punter tableau against the banker's from a
# fresh 2x52 shoe (SPEC §4, §7), as reduced fractions.
#
# The structure that makes it fast: only trumps count, and after the equal trumps cancel
# the duel depends only on the order of the remaining trumps from high to low and on
# whose each is (firmware/duel.py's pattern). So the count walks the ranks of the trump
# suit from the ace down, keeping per (pattern so far, banker's trumps, punter's trumps)
# the number of ways to pick the physical cards (two decks: a rank has 2 copies, 1 if
# it is the turned card's), and multiplies in the ways to fill each tableau with
# non-trumps at the end. By symmetry of the suits the trump is spades; the turned card's
# rank is uniform. About 13 x 13 x a few hundred states instead of C(103,4) x C(99,4).
import json
from fractions import Fraction
from math import comb

from tapis.cython_core import twins as cores


def register(sub):
    p = sub.add_parser("club", help="exact chances of one punter tableau against the banker's, fresh 2x52 shoe")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw the outcomes by the trumps each tableau holds (matplotlib)")
    p.set_defaults(func=run, parser=p)


def counts(solve, ranks=13, suits=4, copies=2, tableau=4, split=None):
    """{BANKER: ways, PUSH: ways, PUNTER: ways} over (turned card's rank, banker's tableau,
    punter's tableau), cards told apart; and the total. `solve(pattern)` is the duel's
    minimax (banker tricks - punter tricks). The parameters shrink the shoe for tests.
    split: a dict to receive the same ways by the trumps each tableau holds,
    {(banker's, punter's): [punter wins, pushes, banker wins]}."""
    others = (suits - 1) * ranks * copies  # non-trumps in the shoe
    left = suits * ranks * copies - 1  # the turned card is out
    ways = {1: 0, 0: 0, -1: 0}
    for turned in range(ranks):
        states = {(1, 0, 0): 1}  # (pattern, banker's trumps, punter's trumps) -> ways
        for r in range(ranks - 1, -1, -1):
            m = copies - (r == turned)
            nxt = {}
            for (code, i, j), w in states.items():
                for b in range(min(m, tableau - i) + 1):
                    for p in range(min(m - b, tableau - j) + 1):
                        ww = w * comb(m, b) * comb(m - b, p)
                        d = b - p
                        c = (code << d) | ((1 << d) - 1) if d > 0 else code << -d
                        key = (c, i + b, j + p)
                        nxt[key] = nxt.get(key, 0) + ww
            states = nxt
        for (code, i, j), w in states.items():
            fill = comb(others, tableau - i) * comb(others - (tableau - i), tableau - j)
            d = solve(code)
            ways[1 if d > 0 else (-1 if d < 0 else 0)] += w * fill
            if split is not None:
                split.setdefault((i, j), [0, 0, 0])[1 if d == 0 else (2 if d > 0 else 0)] += w * fill
    total = ranks * comb(left, tableau) * comb(left - tableau, tableau)
    assert sum(ways.values()) == total
    return ways, total


def odds(solve, **shoe):
    ways, total = counts(solve, **shoe)
    return {"punter_win": Fraction(ways[-1], total), "push": Fraction(ways[0], total),
            "banker_win": Fraction(ways[1], total)}


SCHEMA = "tapis.odds.club/1"


def run(args):
    if args.plot is not None:
        from tapis.host import plot

        why = plot.cannot_write(args.plot)
        if why:
            args.parser.error("--plot: " + why)
    duel, core = cores.duel, cores.CORE
    o = odds(duel.solve)
    text = {k: "%d/%d" % (v.numerator, v.denominator) for k, v in o.items()}
    if args.plot:
        from tapis.host import odds_split, plot

        split = odds_split.club_by_pattern()
        plot.club_by_pattern(split, args.plot)
    if args.json:  # each outcome's probability and its exact fraction (host/odds_ecarte.py's words)
        out = dict({k: {"probability": float(v), "fraction": text[k]} for k, v in o.items()}, schema=SCHEMA, core=core)
        if args.plot:
            out.update(plot=args.plot, by_trumps=[
                {"banker_trumps": b, "punter_trumps": p, "punter_win": "%d/%d" % (v[0].numerator, v[0].denominator),
                 "push": "%d/%d" % (v[1].numerator, v[1].denominator),
                 "banker_win": "%d/%d" % (v[2].numerator, v[2].denominator)} for (b, p), v in split.items()])
        print(json.dumps(out))
    else:
        print("One punter tableau against the banker's, fresh 2x52 shoe (%s core):" % core)
        for k, v in o.items():
            print("  %-11s %-28s %.6f" % (k, text[k], float(v)))
        if args.plot:
            print("  plot: %s (outcomes by the trumps each tableau holds)" % args.plot)
    return 0
