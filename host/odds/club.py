# `tapis odds club`: the exact chances of one punter tableau against the banker's from a
# fresh 2x52 shoe (SPEC §4, §7), as reduced fractions: host/odds/club_count.py counts them.
import json

from tapis.cython_core import twins as cores
from tapis.host.odds.club_count import odds


def register(sub):
    p = sub.add_parser("club", help="exact chances of one punter tableau against the banker's, fresh 2x52 shoe")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw the outcomes by the trumps each tableau holds (matplotlib)")
    p.set_defaults(func=run, parser=p)


SCHEMA = "tapis.odds.club/2"  # /1: each outcome a fraction string (docs/schemas.md)


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
        from tapis.host.odds import split as odds_split
        from tapis.host import plot

        split = odds_split.club_by_pattern()
        plot.club_by_pattern(split, args.plot)
    if args.json:  # each outcome's probability and its exact fraction (host/odds/ecarte.py's words)
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
