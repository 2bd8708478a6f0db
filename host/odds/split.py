# The exact figures behind the odds plots (host/plot.py), split the way the plots show them:
# écarté's double-dummy count by the dealer's trump count, club écarté's single-tableau
# chances by the trumps each tableau holds. Both add up to the totals `tapis odds` prints.
from fractions import Fraction
from itertools import combinations

from tapis.firmware.cards import rank, suit
from tapis.firmware.offboard.deck import deck32
from tapis.firmware.evaluate import ECARTE_STRENGTH


def _runs(hand, turned):
    """{unseen card: the run it is in}: the unseen cards of a suit between two of elder's
    cards (in écarté rank, the turned card left out) play alike, so two dealer hands with
    as many cards in each run are solved once (firmware/offboard/ecarte_solver.py)."""
    out, run = {}, 0
    for s in range(4):
        cards = sorted((c for c in deck32() if suit(c) == s), key=lambda c: ECARTE_STRENGTH[rank(c)])
        run += 1
        for c in cards:
            if c == turned:
                continue
            if c in hand:
                run += 1
            else:
                out[c] = run
    return out


def ecarte_by_trumps(hand, turned):
    """[(dealer's trumps k, dealer hands holding k, of them those against which elder,
    leading without proposing, takes the point, and the vole)] for k = 0..5, double
    dummy over every dealer hand of 5 from the 26 unseen cards."""
    from tapis.cython_core.twins import ecarte_solver

    trump = suit(turned)
    runs = _runs(hand, turned)
    solved = {}
    rows = [[k, 0, 0, 0] for k in range(6)]
    n = len(hand)
    for other in combinations(sorted(runs), n):
        key = tuple(sorted(runs[c] for c in other))
        t = solved.get(key)
        if t is None:
            t = solved[key] = ecarte_solver.tricks(hand, list(other), trump, True)
        r = rows[sum(1 for c in other if suit(c) == trump)]
        r[1] += 1
        r[2] += 2 * t > n
        r[3] += t == n
    return [tuple(r) for r in rows]


def club_by_pattern():
    """{(banker's trumps, punter's trumps): (punter wins, pushes, banker wins)} as exact
    fractions of all deals (host/odds/club_count.py's count)."""
    from tapis.cython_core import twins
    from tapis.host.odds.club_count import counts

    split = {}
    _ways, total = counts(twins.duel.solve, split=split)
    return {k: tuple(Fraction(w, total) for w in v) for k, v in sorted(split.items())}
