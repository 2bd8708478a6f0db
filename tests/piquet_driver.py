# Random legal piquet, the shoe dealing seeded shuffles, in code that runs unchanged
# under CPython and MicroPython (tests/firmware/games/piquet/test_piquet_rules.py compares the two).
from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded
from tapis.firmware.games.rules import CHANCE
from tapis.firmware.games.piquet import rules as R


def drive(seed, deals, options=None, first_dealer=0, declare_all=False, check=None):
    """Play until `deals` deals are finished; check(game) after every action. With
    first_dealer=None the players cut for the deal."""
    g = R.Piquet(options, first_dealer=first_dealer)
    rng = Seeded(seed)
    pack = []
    while g.finished < deals:
        if g.to_act == CHANCE:
            if g.delivered == 0:
                pack = deck.shuffle(deck.deck(range(g.options.low_rank, 13)), rng.below)
            g.apply(("shoe", CHANCE, pack[g.delivered]))
        elif g.phase == R.EXCHANGE:
            lo, hi = g.exchange_range(g.to_act)
            h = deck.shuffle(list(g.hands[g.to_act]), rng.below)
            g.apply(("exchange", g.to_act, tuple(h[:lo + rng.below(hi - lo + 1)])))
        elif g.phase == R.DECLARE and declare_all:
            g.apply(("declare", g.to_act, R.CATEGORIES[g.cat]))
        else:
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
        if check:
            check(g)
    return g
