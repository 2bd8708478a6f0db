# What one deal record gives the pit: each seat's wager and actual win, the house's actual
# win, and the exact theoretical win where Tapis's exact odds give one (docs/pit.md).
#
# These are the meters as the deal records tell them: a board's own meters (METERS, kept by
# checks.py) are the authoritative figures, and these sums their cross-check.
#
# Club écarté: a punter's tableau against the banker's from a fresh 2x52 shoe has the exact
# chances host/odds/club_count.py counts (fractions). Every deal of a shoe has the same chances as
# the first, the cards before it unseen (the deals are exchangeable), so each stake's
# expectation is exact: with p (punter wins), b (banker wins) and the commission's fee f on a
# win, the punter expects p(a - f) - b a, the banker b(a - f) - p a, the house (p + b) f.
# Exact while the bank covers every stake; a limited bank that may not (the stakes sum past
# what it holds) settles in tableau order on the joint outcome, which the count does not give:
# such a deal is marked not exact.
# Écarté and piquet: the players settle between themselves and the house takes nothing, so the
# house's theoretical win is exactly 0; a seat's is a game of skill's and no exact figure
# exists (tapis odds ecarte gives one position's double-dummy chances, not a deal's).
from fractions import Fraction
from functools import lru_cache

NO_SEAT_THEO = {
    "ecarte": "no exact theoretical win exists per seat in écarté: a game of skill between the two "
              "seats (tapis odds ecarte counts one position's double dummy, not a deal's expectation); "
              "the house takes no share, so its theoretical win is exactly 0",
    "piquet": "piquet is played for points, no money moves at the table: the house's theoretical win is "
              "exactly 0, and a seat's has no exact figure (a game of skill)",
}
NOT_COVERED = "a limited bank that may not cover every stake: the settlement in tableau order " \
              "depends on the tableaux together, which the exact count does not give"


@lru_cache(maxsize=1)
def club_chances():
    """(punter wins, banker wins) from a fresh 2x52 shoe, exact (tapis odds club's count)."""
    from tapis.cython_core import twins
    from tapis.host.odds.club_count import odds

    o = odds(twins.duel.solve)
    return o["punter_win"], o["banker_win"]


class Figures:
    """One deal's figures: seats {seat: [wagered, won, theo Fraction or None]}, house actual
    (int) and theo (Fraction), exact (False where no exact figure exists for this deal)."""

    def __init__(self):
        self.seats, self.actual, self.theo, self.exact = {}, 0, Fraction(0), True

    def seat(self, s):
        return self.seats.setdefault(s, [0, 0, None])


def of(record):
    f = Figures()
    start = record.get("start") or {}
    before, after = start.get("balances"), record.get("balances")
    if before is not None and after is not None:
        for s, (a, b) in enumerate(zip(before, after)):
            f.seat(s)[1] = b - a
    if record["game"] == "club":
        _club(record, start, f)
    elif record["game"] == "piquet":  # played for points: its seats are there, with no money moved
        for k in range(len(record.get("scores") or ())):
            f.seat(k)
    elif record["game"] == "ecarte":
        for payer, payee, amount in record.get("payments", ()):
            for s in (payer, payee):
                if isinstance(s, int):
                    f.seat(s)[0] += amount
    return f


def _club(record, start, f):
    p, b = club_chances()
    c = record["options"].get("commission", 0)
    stakes = record.get("stakes") or []
    covered = start.get("kind") != "limited" or sum(a for _s, _t, a in stakes) <= start.get("bank", 0)
    f.exact = covered and not record.get("short")
    banker = record.get("banker")
    f.actual = record.get("house", 0) - start.get("house", 0)
    if banker is not None:
        f.seat(banker)[2] = Fraction(0)
        if start.get("kind") == "limited" and "bank" in record:  # the banker's money on the cloth moved too
            f.seat(banker)[1] += record["bank"] - start.get("bank", 0)
    for seat, _tableau, a in stakes:
        fee = a * c // 100
        row = f.seat(seat)
        row[0] += a
        row[2] = (row[2] or 0) + p * (a - fee) - b * a
        if banker is not None:
            f.seat(banker)[2] += b * (a - fee) - p * a
        f.theo += (p + b) * fee
    if not f.exact:
        for row in f.seats.values():
            row[2] = None


def why_not(game):
    """What the page says where no exact figure exists for this game's seats (None: it does)."""
    return NO_SEAT_THEO.get(game)


def text(fr):
    """A Fraction as the database keeps it, "n/d" (or "n")."""
    return str(Fraction(fr))


def approx(s):
    """A kept "n/d" as a float for the page (the exact text stays beside it)."""
    return float(Fraction(s))
