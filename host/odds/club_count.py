# The exact count behind `tapis odds club` and its plot (host/odds/club.py, host/odds/split.py):
# the chances of one punter tableau against the banker's from a fresh 2x52 shoe (SPEC §4, §7),
# as reduced fractions.
#
# The structure that makes it fast: only trumps count, and after the equal trumps cancel
# the duel depends only on the order of the remaining trumps from high to low and on
# whose each is (firmware/duel.py's pattern). So the count walks the ranks of the trump
# suit from the ace down, keeping per (pattern so far, banker's trumps, punter's trumps)
# the number of ways to pick the physical cards (two decks: a rank has 2 copies, 1 if
# it is the turned card's), and multiplies in the ways to fill each tableau with
# non-trumps at the end. By symmetry of the suits the trump is spades; the turned card's
# rank is uniform. About 13 x 13 x a few hundred states instead of C(103,4) x C(99,4).
from fractions import Fraction
from math import comb


def counts(solve, ranks=13, suits=4, copies=2, tableau=4, split=None):
    """{BANKER: ways, PUSH: ways, PUNTER: ways} over (turned card's rank, banker's tableau,
    punter's tableau), cards told apart; and the total. `solve(pattern)` is the duel's
    minimax (banker tricks - punter tricks). The parameters shrink the shoe for tests.
    split: a dict to receive the same ways by the trumps each tableau holds,
    {(banker's, punter's): [punter wins, pushes, banker wins]}."""
    others = (suits - 1) * ranks * copies  # non-trumps in the shoe
    left = suits * ranks * copies - 1  # the turned card is out
    ways = {1: 0, 0: 0, -1: 0}
    for turned in range(ranks):
        states = {(1, 0, 0): 1}  # (pattern, banker's trumps, punter's trumps) -> ways
        for r in range(ranks - 1, -1, -1):
            m = copies - (r == turned)
            nxt = {}
            for (code, i, j), w in states.items():
                for b in range(min(m, tableau - i) + 1):
                    for p in range(min(m - b, tableau - j) + 1):
                        ww = w * comb(m, b) * comb(m - b, p)
                        d = b - p
                        c = (code << d) | ((1 << d) - 1) if d > 0 else code << -d
                        key = (c, i + b, j + p)
                        nxt[key] = nxt.get(key, 0) + ww
            states = nxt
        for (code, i, j), w in states.items():
            fill = comb(others, tableau - i) * comb(others - (tableau - i), tableau - j)
            d = solve(code)
            ways[1 if d > 0 else (-1 if d < 0 else 0)] += w * fill
            if split is not None:
                split.setdefault((i, j), [0, 0, 0])[1 if d == 0 else (2 if d > 0 else 0)] += w * fill
    total = ranks * comb(left, tableau) * comb(left - tableau, tableau)
    assert sum(ways.values()) == total
    return ways, total


def odds(solve, **shoe):
    ways, total = counts(solve, **shoe)
    return {"punter_win": Fraction(ways[-1], total), "push": Fraction(ways[0], total),
            "banker_win": Fraction(ways[1], total)}
