# `tapis eval ecarte --hand H --turned C`: is elder's hand a jeu de règle? (seed 002 lines 39-41)
# Stand (play without proposing) when the exact double-dummy chance of the point is at least
# 2 to 1 (wins >= 2/3 of the 65,780 dealer hands); propose otherwise. Holding the trump king,
# propose unless the vole is probable as well (voles >= 1/2 of them): the dealer cannot draw
# the king, and a refusal gives elder a fine chance of two points (seed 002 line 40).
# With --dealer, H is the dealer's hand and the question is the dealer's jeu de règle: refuse
# when he takes the point at least 2 to 1 against every hand elder may hold, elder leading.
import json
from fractions import Fraction

from tapis.host.odds_ecarte import add_position, position


def register(sub):
    p = sub.add_parser("ecarte", help="stand or propose: is elder's hand a jeu de règle?")
    add_position(p)
    p.add_argument("--dealer", action="store_true",
                   help="advise the dealer answering a proposal instead: refuse or accept "
                        "(H is then the dealer's hand; elder leads)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run, parser=p)


def run(args):
    from tapis.cython_core.twins import ecarte_solver

    hand, turned = position(args)
    stand, wins, voles, total, reason = ecarte_solver.advice(hand, turned, not args.dealer)
    words = ("refuse", "accept") if args.dealer else ("stand", "propose")
    out = {"advice": words[0] if stand else words[1], "probability": wins / total,
           "fraction": str(Fraction(wins, total)), "wins": wins, "voles": voles,
           "vole_probability": voles / total, "total": total, "reason": reason}
    if args.json:
        print(json.dumps(out))
    else:
        from tapis.firmware.cards import name

        print("%s %s, turned %s: %s" % ("dealer" if args.dealer else "elder", " ".join(name(c) for c in hand), name(turned), out["advice"].upper()))
        print("  point %d of %d (%.4f), vole %d (%.4f): %s"
              % (wins, total, wins / total, voles, voles / total, reason))
    return 0
