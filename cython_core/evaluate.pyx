# cython: language_level=3, boundscheck=False, wraparound=False
# Compiled twin of firmware/evaluate.py: same names, same answers (tests/cython_core/test_twins.py).

ECARTE_STRENGTH = (0, 0, 0, 0, 0, 1, 2, 3, 4, 6, 7, 8, 5)
ACE_HIGH = tuple(range(1, 14))

cdef inline bint _beats(int challenger, int holder, int trump, int* strength):
    cdef int cs = challenger >> 4, hs = holder >> 4
    if cs == hs:
        return strength[challenger & 15] > strength[holder & 15]
    return cs == trump

cdef void _load(object table, int* out):
    cdef int i
    for i in range(13):
        out[i] = table[i]


def beats(int challenger, int holder, int trump, strength):
    """True if `challenger` (played later) beats `holder`, the card winning so far."""
    cdef int st[13]
    _load(strength, st)
    return _beats(challenger, holder, trump, st)


def trick_winner(int lead, int follow, int trump, strength):
    """0 if the lead wins the trick, 1 if the follower's card does."""
    cdef int st[13]
    _load(strength, st)
    return 1 if _beats(follow, lead, trump, st) else 0


def legal_plays(hand, led, trump, strength):
    """Écarté play: follow suit and win if able; if void, trump if able; else anything."""
    if led is None:
        return list(hand)
    cdef int st[13]
    _load(strength, st)
    cdef int ld = led, tr = trump, ls = ld >> 4, c
    cdef list same = [], winners = [], trumps = []
    for c in hand:
        if c >> 4 == ls:
            same.append(c)
            if _beats(c, ld, tr, st):
                winners.append(c)
        elif c >> 4 == tr:
            trumps.append(c)
    if same:
        return winners or same
    return trumps or list(hand)


def follow_plays(hand, led):
    """Piquet play: follow suit if able (no duty to win, no trumps)."""
    if led is None:
        return list(hand)
    cdef int ls = (<int>led) >> 4, c
    cdef list same = [c for c in hand if c >> 4 == ls]
    return same or list(hand)


def ecarte_points(tricks, int vulnerable):
    """(winner, points) for a played-out écarté deal; tricks score at most 2."""
    cdef int t0 = tricks[0], t1 = tricks[1]
    cdef int winner = 0 if t0 >= 3 else 1
    cdef int won = t0 if winner == 0 else t1
    if won == 5 or vulnerable == 1 - winner:
        return winner, 2
    return winner, 1


def game_value(int loser_score):
    """Treble if the loser has 0, double if 1-2, single if 3-4."""
    if loser_score == 0:
        return 3
    return 2 if loser_score <= 2 else 1
