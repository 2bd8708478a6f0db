# A seeded écarté match driven by random legal actions, in code that runs unchanged
# under CPython and MicroPython: the parity tests compare the two event logs.
from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded
from tapis.firmware.games.ecarte import rules as R


def misdeal(g, pack, pick):
    """A shoe fault the laws handle (firmware/games/ecarte/laws.py), or None."""
    fresh = pack[g.delivered:]  # the cards still in the shoe, in order
    if pick % 7 == 6 and g.delivered:  # a card again: an imperfect pack
        return ("shoe", R.CHANCE, pack[0])
    kind = R.SHOE_FAULTS[pick % len(R.SHOE_FAULTS)]
    value = {"exposed": fresh[0], "double feed": tuple(fresh[:2]), "outofturn": pick % 2}.get(kind)
    a = (kind, R.CHANCE, value)
    return a if g.can(a) else None


def play(seed, deals, game=None, faults=False):
    """Play `deals` deals: the shoe deals a seeded shuffle, each seat picks a random
    legal action; with `faults`, the shoe now and then misdeals. Returns the game."""
    g = game or R.Ecarte()
    rng = Seeded(seed)
    pack = []
    while g.deal_no <= deals:
        if g.to_act == R.CHANCE:
            if g.cards_due()[1]:  # a fresh pack: the cut, or a new deal
                pack = deck.shuffle(deck.deck32(), rng.below)
            fault = misdeal(g, pack, rng.below(60)) if faults and rng.below(12) == 0 else None
            if fault:
                g.apply(fault)
                continue
            g.apply(("shoe", R.CHANCE, pack[g.delivered]))
        else:
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
    return g


def jsonable(events):
    return [[k, s, list(v) if isinstance(v, tuple) else v] for k, s, v in events]


if __name__ == "__main__":  # under MicroPython: print each game's log as JSON
    import json
    import sys

    for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 5):
        print(json.dumps(jsonable(play(seed, 30, faults=sys.argv[2:] == ["faults"]).log)))
