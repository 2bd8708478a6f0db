# `tapis odds ecarte --hand H --turned C`: the exact double-dummy count (SPEC §5, §7).
# Elder holds H (5 cards) and plays without proposing; C is the turned trump. Over every
# dealer hand of 5 from the 26 unseen cards (65,780), both sides play perfectly with all
# cards seen (elder maximises his tricks, dealer minimises them), obeying the play rules.
# `wins` counts the dealer hands against which elder takes 3 or more tricks, `voles` all 5.
#
# The JSON vocabulary of odds and eval (the same keys, the same meanings): a probability is
# `probability` (a float) beside `fraction` (the same, exact, "n/d"), prefixed by what it is
# of when it is not the point (`vole_probability`, `vole_fraction`); `total` dealer hands,
# `wins` and `voles` among them; `dealer_trumps` the dealer hands by how many trumps they hold.
import json
from fractions import Fraction

from tapis.host import args as A


def register(sub):
    p = sub.add_parser("ecarte", help="exact double-dummy count for elder's hand and the turned trump")
    add_position(p, required=False)
    p.add_argument("--all", action="store_true",
                   help="the atlas: every distinct hand and turned card, odds and seed-002 verdict (a CSV and a summary)")
    p.add_argument("--out", metavar="FILE.csv", help="with --all: where the table goes (default ecarte-atlas.csv)")
    p.add_argument("--workers", type=A.workers, help="with --all: worker processes (default 1)")
    p.add_argument("--limit", type=A.positive, metavar="N", help="with --all: only N classes, spread evenly (a quick look)")
    p.add_argument("--quiet", action="store_true", help="with --all: no progress bar")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw elder's chances against the dealer's trump count (matplotlib)")
    p.set_defaults(func=run, parser=p)


def add_position(p, required=True):
    p.add_argument("--hand", type=A.cards, required=required,
                   help="elder's 5 cards, comma or space separated, e.g. 'KH,QH,7S,8D,9C'")
    p.add_argument("--turned", type=A.card, required=required, help="the turned trump card, e.g. '8H'")


def position(args):
    """Elder's hand and the turned card, checked: exits 2 with a clear message if wrong."""
    from tapis.firmware.cards import name

    hand, turned = args.hand, args.turned
    if len(hand) != 5:
        args.parser.error("--hand must hold 5 cards, got %d: %s" % (len(hand), " ".join(name(c) for c in hand)))
    for c in hand:
        if not 5 <= c & 15 <= 12:
            args.parser.error("--hand: %s is not in the écarté pack (7 to ace)" % name(c))
        if hand.count(c) > 1:
            args.parser.error("--hand: %s appears twice" % name(c))
        if c == turned:
            args.parser.error("--hand: %s is the turned card; the turned card never goes into a hand" % name(c))
    if not 5 <= turned & 15 <= 12:
        args.parser.error("--turned: %s is not in the écarté pack (7 to ace)" % name(turned))
    return hand, turned


def count(hand, turned, dealers=None):
    """(total, wins, voles) as the command prints them: over every dealer hand, or over the
    given `dealers` only (the tests compare a brute force on such a subset)."""
    from tapis.cython_core.twins import ecarte_solver

    if dealers is None:
        return ecarte_solver.odds(hand, turned, True)
    return ecarte_solver.odds_against(hand, turned, dealers, True)


SCHEMA = "tapis.odds.ecarte/1"


def double_dummy(hand, turned, counts=None):
    """The double-dummy odds of a position, in the vocabulary above (eval carries the same
    under "double_dummy")."""
    from tapis.cython_core.twins import ecarte_solver

    total, wins, voles = counts or count(hand, turned)
    return {"total": total, "wins": wins, "voles": voles,
            "probability": wins / total, "fraction": fraction(wins, total),
            "vole_probability": voles / total, "vole_fraction": fraction(voles, total),
            "dealer_trumps": list(ecarte_solver.dealer_trumps(hand, turned))}


def fraction(n, d):
    f = Fraction(n, d)
    return "%d/%d" % (f.numerator, f.denominator)


def run(args):
    if args.plot is not None:
        from tapis.host import plot

        if args.all:
            args.parser.error("--plot goes with --hand and --turned: it draws one hand's odds")
        why = plot.cannot_write(args.plot)
        if why:
            args.parser.error("--plot: " + why)
    if args.all:
        if args.hand is not None or args.turned is not None:
            args.parser.error("--all takes no --hand or --turned: it covers every hand")
        from tapis.host.atlas import run as atlas_ecarte

        return atlas_ecarte.run(args)
    if args.hand is None or args.turned is None:
        args.parser.error("give --hand and --turned, or --all for the atlas")
    for flag in ("out", "workers", "limit", "quiet"):
        if getattr(args, flag) not in (None, False):
            args.parser.error("--%s goes with --all" % flag)
    from tapis.firmware.cards import name, names

    hand, turned = position(args)
    total, wins, voles = count(hand, turned)
    split = plotted(args, hand, turned) if args.plot else None
    if args.json:
        out = dict(schema=SCHEMA, hand=names(hand), turned=name(turned),
                   **double_dummy(hand, turned, (total, wins, voles)))
        if split:
            out.update(plot=args.plot, by_dealer_trumps=[
                {"trumps": k, "total": n, "wins": w, "voles": v} for k, n, w, v in split])
        print(json.dumps(out))
    else:
        print("elder %s, turned %s, elder leads without proposing; double dummy over %d dealer hands"
              % (" ".join(name(c) for c in hand), name(turned), total))
        print("  point (3+ tricks)  %6d  %.4f  (odds %d to %d)" % (wins, wins / total, wins, total - wins))
        print("  vole (5 tricks)    %6d  %.4f" % (voles, voles / total))
        from tapis.cython_core.twins import ecarte_solver

        split = ecarte_solver.dealer_trumps(hand, turned)
        print("  the dealer holds 0..5 trumps in %s hands; fewer than two in %d"
              % (", ".join(str(k) for k in split), split[0] + split[1]))
        if args.plot:
            print("  plot: %s (elder's chances against the dealer's trump count)" % args.plot)
    return 0


def plotted(args, hand, turned):
    """Draw --plot: the count split by the dealer's trumps (host/odds/split.py)."""
    from tapis.firmware.cards import name
    from tapis.host.odds import split as odds_split
    from tapis.host import plot

    split = odds_split.ecarte_by_trumps(hand, turned)
    plot.ecarte_by_trumps(split, " ".join(name(c) for c in hand), name(turned), args.plot)
    return split
