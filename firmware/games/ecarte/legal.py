# Every legal player action in an écarté position (the bots' and the tests' view of the
# rules, as OpenSpiel's legal_actions): the board never asks, so it loads on first use.
from .events import ANSWER, CHOOSE, DISCARD, PLAY, PROPOSE, RESPOND


def legal_actions(g):
    """Every legal player action now (chance actions are the shoe's; bets the gallery's)."""
    acts = []
    s = g.to_act
    if g.phase == PROPOSE:
        acts = [("propose", s, None), ("stand", s, None)]
    elif g.phase in (RESPOND, ANSWER):
        acts = [("accept", s, None), ("refuse", s, None)]
    elif g.phase == CHOOSE:
        acts = [("choose", s, c) for c in g.choices]
    elif g.phase == DISCARD:
        lo, hi = g.discard_range(s)
        hand = g.hands[s]
        for mask in range(1 << len(hand)):
            pick = tuple(hand[i] for i in range(len(hand)) if mask >> i & 1)
            if lo <= len(pick) <= hi and g.can(("discard", s, pick)):
                acts.append(("discard", s, pick))
    elif g.phase == PLAY:
        acts = [("play", s, c) for c in g.legal_cards(s)]  # type: list
    if g.phase in (PROPOSE, RESPOND, DISCARD, PLAY):
        for seat in (0, 1):
            for kind, value in (("abandon", None), ("abandon", "point"), ("claim", None),
                                ("double", None), ("offer", None)):
                if g.can((kind, seat, value)):
                    acts.append((kind, seat, value))
    return acts + [("king", seat, None) for seat in (0, 1) if g.king_open(seat)]
