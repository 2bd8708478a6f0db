# The écarté double-dummy solver and odds enumerator (pure twin of cython_core/ecarte_solver.pyx:
# same names, same answers). Play follows firmware/evaluate.py: follow suit and win the trick if
# able; if void, trump if able; else any card (SPEC §4, seed 002 line 23). King high.
#
# Perfect play: the hand's side maximises the tricks it takes, the other side minimises them.
# Under that objective "takes >= 3" and "takes 5" are exactly what each side can force, so the
# counts are the same as for a side that first secures the point, then plays for the vole.
#
# The enumeration does not visit the C(26,5) = 65,780 opposing hands one by one. Only the order
# of the cards held matters to the play, so in each suit the unseen cards fall into gaps between
# the hand's cards, and two opposing hands with as many cards in every gap play identically.
# The enumerator solves one hand per way of spreading the cards over the gaps and weighs it by
# the product of binomials (at most C(13,5) = 1,287 solves, usually a few hundred).
# The search of one deal is search.py's, the checks of a position position.py's (the
# compiled twin keeps both inline).
from ..cards import KING, name, rank, suit
from .deck import deck32
from ..evaluate import ECARTE_STRENGTH
from .ecarte_search import TRICKS, check, check_pair, reach, value


def _comb(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


def tricks(hand, other, trump, leads):
    """Double dummy: the tricks `hand` takes against `other` (as many cards) with `trump` the
    trump suit (0..3), when both play perfectly; `leads` says whether `hand` leads first."""
    hand = sorted(hand)
    other = sorted(other)
    check_pair(hand, other)
    if trump not in (0, 1, 2, 3):
        raise ValueError("trump is a suit 0..3 (S H D C), got %r" % (trump,))
    return value(hand, other, trump, bool(leads), {})


def _gaps(hand, turned):
    """The unseen cards, in runs that no card of `hand` separates (each run low to high)."""
    out = []
    for s in range(4):
        cards = [c for c in deck32() if suit(c) == s]
        cards.sort(key=lambda c: ECARTE_STRENGTH[rank(c)])
        run = []
        for c in cards:
            if c == turned:
                continue
            if c in hand:
                if run:
                    out.append(run)
                run = []
            else:
                run.append(c)
        if run:
            out.append(run)
    return out


def _spread(gaps, i, left, picked, weight, visit):
    if left == 0:
        visit(picked, weight)
        return
    if i == len(gaps):
        return
    room = 0
    for g in gaps[i:]:
        room += len(g)
    if room < left:
        return
    g = gaps[i]
    for k in range(min(left, len(g)) + 1):
        _spread(gaps, i + 1, left - k, picked + g[:k], weight * _comb(len(g), k), visit)


def odds(hand, turned, leads):
    """(total, wins, voles) over every opposing hand of len(hand) cards from the unseen cards:
    `wins` counts those against which `hand` takes a majority of the tricks (3 of 5), `voles`
    those where it takes them all. `turned` is the turned trump card; `leads` as in tricks()."""
    hand = check(hand, turned)
    trump = suit(turned)
    n = len(hand)
    tally = [0, 0, 0]

    def visit(other, weight):
        t = tricks(hand, other, trump, leads)
        tally[0] += weight
        if 2 * t > n:
            tally[1] += weight
        if t == n:
            tally[2] += weight

    _spread(_gaps(hand, turned), 0, n, [], 1, visit)
    return tally[0], tally[1], tally[2]


def dealer_trumps(hand, turned):
    """How many opposing hands (of len(hand) cards from the unseen ones) hold 0, 1, 2, ...
    trumps: the counts behind seed 002's 44,574 and 50,274 (002:39, SPEC §7)."""
    hand = check(hand, turned)
    n = len(hand)
    t = 7 - sum(1 for c in hand if suit(c) == suit(turned))  # unseen trumps
    u = 31 - n  # unseen cards
    return tuple(_comb(t, k) * _comb(u - t, n - k) for k in range(n + 1))


def odds_against(hand, turned, others, leads):
    """(total, wins, voles) as odds(), over the given opposing hands only."""
    hand = check(hand, turned)
    trump = suit(turned)
    n = len(hand)
    total = wins = voles = 0
    for other in others:
        other = list(other)
        check_pair(hand, other)
        if turned in other:
            raise ValueError("the turned card %s cannot be in the opposing hand" % name(turned))
        t = tricks(hand, other, trump, leads)
        total += 1
        wins += 1 if 2 * t > n else 0
        voles += 1 if t == n else 0
    return total, wins, voles


def advice(hand, turned, leads):
    """(stand, wins, voles, total, reason) for a jeu de règle (seed 002 lines 39-41).
    Elder (`leads`) stands when the point comes at least 2 to 1 (wins >= 2/3 of total); holding
    the trump king he proposes unless the vole is also probable (voles >= 1/2 of total). The
    dealer (not `leads`) refuses on the same 2 to 1, against every hand elder may hold."""
    total, wins, voles = odds(hand, turned, leads)
    point = 3 * wins >= 2 * total
    king = any(suit(c) == suit(turned) and rank(c) == KING for c in hand)
    if not point:
        return False, wins, voles, total, "the point is less than 2 to 1"
    if leads and king and 2 * voles < total:
        return False, wins, voles, total, "holding the trump king and the vole is not probable"
    if leads and king:
        return True, wins, voles, total, "holding the trump king and the vole is probable"
    return True, wins, voles, total, "the point is at least 2 to 1"


def _spreads(hand, turned):
    """Every (opposing hand, weight) of the enumeration, heaviest first."""
    out = []
    _spread(_gaps(hand, turned), 0, len(hand), [], 1, lambda o, w: out.append((w, o)))
    out.sort(key=lambda wo: -wo[0])
    return out


def _at_least(spreads, hand, trump, leads, need, num, den):
    """Whether the weight of opposing hands against which `hand` takes `need` tricks is at
    least num/den of the whole; stops as soon as the answer is known."""
    total = 0
    for w, o in spreads:
        total += w
    got = 0
    left = total
    mine = sorted(hand)
    for w, o in spreads:
        left -= w
        if reach(mine, sorted(o), trump, bool(leads), need, {}):
            got += w
        if den * got >= num * total:
            return True
        if den * (got + left) < num * total:
            return False
    return den * got >= num * total


def stands(hand, turned, leads):
    """advice(hand, turned, leads)[0], found with yes/no searches that stop once decided."""
    hand = check(hand, turned)
    trump = suit(turned)
    n = len(hand)
    spreads = _spreads(hand, turned)
    if not _at_least(spreads, hand, trump, leads, n // 2 + 1, 2, 3):
        return False
    if leads and any(suit(c) == trump and rank(c) == KING for c in hand):
        return _at_least(spreads, hand, trump, leads, n, 1, 2)
    return True
