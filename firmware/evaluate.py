# The reference evaluator: legal plays, the trick winner and deal scoring.
# This is the pure twin of cython_core/evaluate.pyx: same names, same answers.
# A strength table maps a rank (0..12) to its order in the game; higher wins.
from .cards import rank, suit

# Écarté: K Q J A T 9 8 7 (king high). Unused ranks (2..6) are 0.
ECARTE_STRENGTH = (0, 0, 0, 0, 0, 1, 2, 3, 4, 6, 7, 8, 5)
# Ace high: A K Q J T 9 8 7 ... 2, the natural order (piquet, club écarté, option).
ACE_HIGH = tuple(range(1, 14))


def beats(challenger, holder, trump, strength):
    """True if `challenger` (played later) beats `holder`, the card winning so far."""
    cs = suit(challenger)
    hs = suit(holder)
    if cs == hs:
        return strength[rank(challenger)] > strength[rank(holder)]
    return cs == trump


def trick_winner(lead, follow, trump, strength):
    """0 if the lead wins the trick, 1 if the follower's card does."""
    return 1 if beats(follow, lead, trump, strength) else 0


def legal_plays(hand, led, trump, strength):
    """Écarté play: follow suit and win if able; if void, trump if able; else anything.
    `led` is None when leading: every card is legal."""
    if led is None:
        return list(hand)
    ls = suit(led)
    same = [c for c in hand if suit(c) == ls]
    if same:
        winners = [c for c in same if beats(c, led, trump, strength)]
        return winners or same
    trumps = [c for c in hand if suit(c) == trump]
    return trumps or list(hand)


def follow_plays(hand, led):
    """Piquet play: follow suit if able (no duty to win, no trumps)."""
    if led is None:
        return list(hand)
    same = [c for c in hand if suit(c) == suit(led)]
    return same or list(hand)


def ecarte_points(tricks, vulnerable):
    """(winner, points) for a played-out écarté deal. `tricks` is per seat; `vulnerable`
    is the seat that must win the point or concede 2 (-1 if none). Tricks score at most 2."""
    winner = 0 if tricks[0] >= 3 else 1
    if tricks[winner] == 5 or vulnerable == 1 - winner:
        return winner, 2
    return winner, 1


def game_value(loser_score):
    """Treble if the loser has 0, double if 1-2, single if 3-4."""
    if loser_score == 0:
        return 3
    return 2 if loser_score <= 2 else 1
