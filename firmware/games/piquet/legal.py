# Every legal player action in a piquet position (the bots' and the tests' view of the
# rules): the board never asks, so it loads on first use.
from .events import BLANCHE, CATEGORIES, DECLARE, EXCHANGE, LOOK, PLAY


def legal_actions(g):
    """Every legal player action now (chance actions are the shoe's)."""
    s, ph = g.to_act, g.phase
    if ph == BLANCHE:
        return [("blanche", s, True), ("blanche", s, False)]
    if ph == LOOK:
        return [("look", s, True), ("look", s, False)]
    if ph == DECLARE:
        return [("declare", s, CATEGORIES[g.cat]), ("sink", s, CATEGORIES[g.cat])]
    if ph == PLAY:
        return [("play", s, c) for c in g.legal_cards(s)]
    if ph == EXCHANGE:
        lo, hi = g.exchange_range(s)
        hand = g.hands[s]
        acts = []
        for mask in range(1 << len(hand)):
            pick = tuple(hand[i] for i in range(len(hand)) if mask >> i & 1)
            if lo <= len(pick) <= hi:
                acts.append(("exchange", s, pick))
        return acts
    return []
