# A seeded écarté match driven by random legal actions, in code that runs unchanged
# under CPython and MicroPython: the parity tests compare the two event logs.
from firmware import deck
from firmware.rng import Seeded
from firmware.rules import ecarte as R


def play(seed, deals, game=None):
    """Play `deals` deals: the shoe deals a seeded shuffle, each seat picks a random
    legal action. Returns the game."""
    g = game or R.Ecarte()
    rng = Seeded(seed)
    pack = []
    while g.deal_no <= deals:
        if g.to_act == R.CHANCE:
            if g.phase == R.DEAL and g.delivered == 0:
                pack = deck.shuffle(deck.deck32(), rng.below)
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
        print(json.dumps(jsonable(play(seed, 30).log)))
