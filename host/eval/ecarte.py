# `tapis eval ecarte --hand H --turned C`: is elder's hand a jeu de règle? Two answers, named
# apart (SPEC §4):
# - the seed's verdict (firmware/offboard/ecarte_verdict.py, docs/rules.md): a jeu de règle is sure of
#   the point, by one way of playing on what elder sees, against every dealer hand holding
#   fewer than two trumps (002:39), and still so with the lowest trumps unless three are held
#   (002:46). Elder stands on it, unless he holds the trump king and the vole is not sure
#   (002:39-40). "advice", "jeu_de_regle" and "reason" come from this verdict.
# - the double-dummy odds ("double_dummy": what `tapis odds ecarte --json` gives, with the same
#   keys): perfect play with all cards seen, which is how Foster's 44,724 is counted and which
#   flatters the leader; its own 2-to-1 advice ("advice", "reason") beside.
# With --dealer, H is the dealer's hand and the question is his answer to a proposal. Seed 002
# names the dealer's jeux de règle (002:6, 002:37) but defines only the player's, so there is
# no seed verdict ("jeu_de_regle": null): the advice is the double-dummy one, refuse when he
# takes the point at least 2 to 1 against every hand elder may hold, elder leading.
import json

from tapis.host.odds.ecarte import add_position, double_dummy, position

SCHEMA = "tapis.eval.ecarte/1"

DEALER_HAS_NO_VERDICT = ("none: seed 002 names the dealer's jeux de règle (002:6, 002:37) but "
                         "defines only the player's (002:39-46); the advice is the double-dummy one")


def register(sub):
    p = sub.add_parser("ecarte", help="stand or propose: is elder's hand a jeu de règle?")
    add_position(p)
    p.add_argument("--dealer", action="store_true",
                   help="advise the dealer answering a proposal instead: refuse or accept "
                        "(H is then the dealer's hand; elder leads)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run, parser=p)


def evaluate(hand, turned, dealer=False):
    """The command's JSON object for one hand: the seed's verdict at the top, the double-dummy
    odds and their own advice under "double_dummy"."""
    from tapis.firmware.cards import KING, name, names, suit
    from tapis.cython_core.twins import ecarte_solver, ecarte_verdict

    stand, wins, voles, total, why = ecarte_solver.advice(hand, turned, not dealer)
    words = ("refuse", "accept") if dealer else ("stand", "propose")
    dd = double_dummy(hand, turned, (total, wins, voles))
    dd.update(advice=words[0] if stand else words[1], reason=why)
    out = {"schema": SCHEMA, "hand": names(hand), "turned": name(turned), "seat": "dealer" if dealer else "elder"}
    if dealer:
        out.update(advice=dd["advice"], reason=why, jeu_de_regle=None, verdict=DEALER_HAS_NO_VERDICT,
                   advice_from="double_dummy", double_dummy=dd)
        return out
    split = dd["dealer_trumps"]
    jeu, stands, point, plain, vole, reason = ecarte_verdict.verdict(hand, turned)
    trump = suit(turned)
    out.update(advice="stand" if stands else "propose", jeu_de_regle=jeu, reason=reason, advice_from="seed_002",
               verdict={"sure_point": point, "plain_suits": plain, "sure_vole": vole,
                        "elder_trumps": sum(1 for c in hand if suit(c) == trump),
                        "trump_king": (trump << 4 | KING) in hand,
                        "dealer_fewer_than_two_trumps": split[0] + split[1]},
               double_dummy=dd)
    return out


def run(args):
    hand, turned = position(args)
    out = evaluate(hand, turned, args.dealer)
    if args.json:
        print(json.dumps(out))
        return 0
    from tapis.firmware.cards import name

    dd = out["double_dummy"]
    who = "dealer" if args.dealer else "elder"
    print("%s %s, turned %s: %s" % (who, " ".join(name(c) for c in hand), name(turned), out["advice"].upper()))
    if args.dealer:
        print("  seed 002 verdict: %s" % DEALER_HAS_NO_VERDICT)
    else:
        print("  seed 002 verdict, jeu de règle %s: %s" % ("yes" if out["jeu_de_regle"] else "no", out["reason"]))
    print("  double dummy (all cards seen): point %d of %d (%.4f), vole %d (%.4f); its 2-to-1 rule: %s (%s)"
          % (dd["wins"], dd["total"], dd["probability"], dd["voles"], dd["vole_probability"], dd["advice"],
             dd["reason"]))
    return 0
