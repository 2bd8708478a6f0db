# Every legal player action in a club écarté position (the bots' and the tests' view of
# the rules): the board never asks, so it loads on first use.
from .events import BANK, STAKE


def legal_actions(g):
    """Every legal player action now (the shoe's are chance)."""
    acts = []
    if g.phase == BANK:
        for c in g.choices():
            if c == "respond":
                acts.append(("respond", g.banker, False))
                acts.append(("respond", g.banker, True))
            else:
                acts.append((c, g.banker, None))
    elif g.phase == STAKE:
        lo, hi = g.stake_range(g.to_act)
        if lo == 0:
            acts.append(("skip", g.to_act, None))
        for a in range(max(lo, 1), hi + 1):
            for t in (1, 2, 3):
                acts.append(("stake", g.to_act, (t, a)))
    return acts
