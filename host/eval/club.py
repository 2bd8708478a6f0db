# `tapis eval club --banker C1,C2,C3,C4 --punter C1,C2,C3,C4 --trump SUIT`: the trump
# duel of two tableaux under perfect play (SPEC §4, seed 004).
import argparse
import json
from collections import Counter

from tapis.firmware.cards import SUITS, name, names, suit
from tapis.host import args as A
from tapis.cython_core import twins as core


def tableau(text):
    cs = A.cards(text)
    if len(cs) != 4:
        raise argparse.ArgumentTypeError("a tableau is 4 cards, got %d in %r" % (len(cs), text))
    return cs


def trump_suit(text):
    """A suit (S, ♠, s), or the turned card as a deal record's "trump" prints it (8H): its suit."""
    t = text.strip().upper()
    t = A.SUIT_SYMBOLS.get(t, t)
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    try:
        cards = A.parse_cards(text)
    except A.CardError:
        cards = []
    if len(cards) == 1:
        return suit(cards[0])
    raise argparse.ArgumentTypeError("a trump suit is one of %s (or the turned card, e.g. 8H), got %r"
                                     % (" ".join(SUITS), text))


def register(sub):
    p = sub.add_parser("club", help="the trump duel of the banker's tableau against a punter's")
    p.add_argument("--banker", type=tableau, required=True, help="the banker's 4 cards, e.g. KS,JS,9S,2H")
    p.add_argument("--punter", type=tableau, required=True, help="the punter's 4 cards")
    p.add_argument("--trump", type=trump_suit, required=True,
                   help="the trump suit: S H D C (or ♠ ♥ ♦ ♣), or the turned card, e.g. 8H")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run, parser=p)


def run(args):
    both = Counter(args.banker + args.punter)
    twice = [(name(c), n) for c, n in both.items() if n > 2]
    if twice:
        args.parser.error("a 2x52 shoe has each card twice; %s appears %d times" % twice[0])
    duel = core.duel
    result, bt, pt = duel.duel(args.banker, args.punter, args.trump)
    out = {"schema": "tapis.eval.club/1", "banker": names(args.banker), "punter": names(args.punter),
           "trump_suit": SUITS[args.trump], "result": duel.RESULT_NAMES[result], "banker_tricks": bt,
           "punter_tricks": pt}
    if args.json:
        print(json.dumps(out))
    else:
        print("%s wins" % out["result"] if result else "en carte (push)", "· tricks banker %d, punter %d" % (bt, pt))
    return 0
