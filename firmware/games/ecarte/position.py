# An écarté position as the solver (and the verdict) take it: the cards checked, each
# refusal quoting what is wrong. Below both: solver.py and verdict.py (their compiled twins
# too, where they do not check inline).
from ...cards import name
from ...deck import deck32

TRICKS = 5  # cards in an écarté hand


def check(hand, turned, n_min=1):
    """The position as a list, or ValueError quoting what is wrong."""
    pack = deck32()
    hand = list(hand)
    if turned not in pack:
        raise ValueError("turned card %r is not an écarté card (7 to ace)" % (turned,))
    seen = []
    for c in hand:
        if c not in pack:
            raise ValueError("card %r is not an écarté card (7 to ace)" % (c,))
        if c in seen:
            raise ValueError("card %s appears twice in the hand" % name(c))
        if c == turned:
            raise ValueError("the turned card %s cannot be in the hand" % name(c))
        seen.append(c)
    if not n_min <= len(hand) <= TRICKS:
        raise ValueError("a hand holds %d to %d cards, got %d" % (n_min, TRICKS, len(hand)))
    return hand


def check_pair(hand, other):
    """ValueError unless both hands hold as many écarté cards, all different."""
    if len(hand) != len(other):
        raise ValueError("both hands must hold as many cards, got %d and %d" % (len(hand), len(other)))
    pack = deck32()
    both = list(hand) + list(other)
    for i, c in enumerate(both):
        if c not in pack:
            raise ValueError("card %r is not an écarté card (7 to ace)" % (c,))
        if c in both[:i]:
            raise ValueError("card %s is dealt twice" % name(c))
