# Club écarté Monte Carlo: a whole session (shoes, duels, money) in one call, for `tapis simulate`
# (simulator/montecarlo/simulate.py). The pure twin of cython_core/club_bank.pyx: same names, same
# answers. Only the host runs it; it stays MicroPython syntax like the rest of firmware/.
#
# It plays, deal by deal, what firmware/games/club/rules.py does when the seats follow the
# bots' pattern of simulator/kits/club/bots.py (bank_choice, stake_for): the banker lays a limited
# bank, lays it again once broken, goes responsible after a second break, keeps a
# standing bank `hold_talias` more talias and then passes; the k-th punter from the
# banker's left backs tableau k mod 3 + 1 with `unit` (the minimum on the bank's first
# card when the rules ask for more), within what the bank answers. The settlement is
# firmware/games/club/duel.py's `settle`, inlined. tests/firmware/offboard/test_club_bank.py checks it all, money for
# money, against the rules engine.
#
# The shoes: a random.Random consumed as simulator/montecarlo/simulate.py's club_deals does: per
# shoe, 104 random() as sort keys for the two decks (a stable sort), then randrange for
# where the cut card lands.
from . import deck
from ..compat import const
from ..games.club import duel as D

SHOE = const(104)
DEAL = const(17)  # four tableaux of four, then the trump
SUMS = ("n", "x", "y", "xx", "yy", "xy", "bank_deals", "bank_net",  # per seat, in this order
        "won", "pushed", "lost")  # the duels of a seat's stakes: its tableau won, en carte, lost

_LIMITED = const(1)
_RESPONSIBLE = const(2)
_INT = 1 << 31  # what the compiled twin keeps in a C int
_LIMIT = 1 << 62  # the compiled twin sums in 64 bits: both refuse what could overflow


def _check(options, rounds, unit, hold_talias):
    """Raise ValueError for what the session cannot play (both twins alike)."""
    o = options
    if (not 2 <= o.seats <= 8 or len(o.minimums) != 2 or min(o.minimums) < 0
            or not 1 <= o.bank < _LIMIT):
        raise ValueError("club_bank: seats 2..8, a bank of at least 1 and two minimums, got "
                         "%r seats, bank %r, minimums %r" % (o.seats, o.bank, o.minimums))
    if not 0 <= o.first_banker < o.seats or not 0 <= o.commission < 100 or not 0 <= o.talias < _INT:
        raise ValueError("club_bank: first banker %r of %r seats, commission %r, talias %r"
                         % (o.first_banker, o.seats, o.commission, o.talias))
    if not 1 <= unit < _LIMIT or not 0 <= hold_talias < _INT or rounds < 0:
        raise ValueError("club_bank: a unit of at least 1, hold_talias and rounds not negative, "
                         "got %r, %r, %r" % (unit, hold_talias, rounds))
    most = max(unit, max(o.minimums))  # no stake is larger
    if o.balance < 0 or o.seats * o.balance >= _LIMIT or 8 * most * most * (rounds + 1) >= _LIMIT:
        raise ValueError("club_bank: balance %r, stakes up to %r over %r rounds would overflow "
                         "64-bit sums" % (o.balance, most, rounds))


class _Bank:
    """The money of a session: balances, the bank's life, and the per-seat sums."""

    def __init__(self, o, unit, hold_talias):
        self.n = o.seats
        self.bal = [o.balance] * o.seats
        self.lay, self.minimums, self.commission, self.talias = o.bank, o.minimums, o.commission, o.talias
        self.unit, self.hold_talias = unit, hold_talias
        self.banker, self.kind, self.bank, self.lays, self.broken = o.first_banker, 0, 0, 0, False
        self.bank_deals, self.resp_talias, self.holds, self.house = 0, 0, 0, 0
        self.decide = True
        self.sums = [[0] * 11 for _ in range(o.seats)]

    def _rotate(self):
        self.bal[self.banker] += self.bank
        self.bank = 0
        self.banker = (self.banker + 1) % self.n
        self.kind, self.lays, self.broken, self.bank_deals, self.holds = 0, 0, False, 0, 0

    def _choose(self):
        """The banker's decisions until a deal is due (Club.choices, then bank_choice)."""
        passes = 0
        while self.decide:
            have = self.bal[self.banker]
            if self.kind == 0:  # a new bank: lay it, else answer with what he has
                c = "lay" if have >= self.lay else ("respond" if have > 0 else "pass")
            elif self.kind == _LIMITED and self.broken and self.lays == 1:  # lay it again
                c = "lay" if have >= self.lay else "pass"
            elif self.kind == _LIMITED and self.broken:  # broken twice: go responsible
                c = "respond" if have > 0 else "pass"
            else:  # a talia ended and the bank stands
                c = "hold" if self.holds < self.hold_talias else "pass"
            if c == "lay":
                self.lays += 1
                self.kind, self.broken, self.bank_deals = _LIMITED, False, 0
                self.bal[self.banker] -= self.lay
                self.bank = self.lay
                self.decide = False
            elif c == "respond":
                self.kind, self.broken, self.bank_deals, self.resp_talias = _RESPONSIBLE, False, 0, 0
                self.decide = False
            elif c == "hold":
                self.holds += 1
                self.decide = False
            else:
                passes += 1
                if passes > self.n:  # a round of passes: no seat has money to bank
                    raise ValueError("club_bank: no seat has money left to hold the bank")
                self._rotate()

    def deal(self, r1, r2, r3, talia_over):
        """One deal: decisions, stakes, settlement in tableau order, the bank's fate."""
        self._choose()
        n, bal, banker, unit = self.n, self.bal, self.banker, self.unit
        limited = self.kind == _LIMITED
        amounts = [0] * 7
        staked = 0
        for pos in range(n - 1):
            seat = (banker + 1 + pos) % n
            most = min(bal[seat], self.bank if limited else bal[banker] - staked)
            if most <= 0:
                continue
            least = min(self.minimums[pos], most) if limited and self.bank_deals == 0 and pos < 2 else 0
            s = min(max(least, unit), most)
            amounts[pos] = s
            staked += s
            bal[seat] -= s
        bank = self.bank if limited else -1
        broken = False
        net = 0
        results = (r1, r2, r3)
        for t in range(3):
            r = results[t]
            for pos in range(t, n - 1, 3):
                a = amounts[pos]
                if not a:
                    continue
                if broken or r == D.PUSH:
                    back, fee = a, 0
                elif r == D.BANKER:
                    fee = a * self.commission // 100
                    if bank >= 0:
                        bank += a - fee
                    back = 0
                    net += a - fee
                else:
                    win = a if bank < 0 or a <= bank else bank
                    fee = win * self.commission // 100
                    if bank >= 0:
                        bank -= win
                        broken = bank == 0
                    back = a + win - fee
                    net -= win
                seat = (banker + 1 + pos) % n
                bal[seat] += back
                self.house += fee
                d = self.sums[seat]
                d[0] += 1
                d[1] += a
                d[2] += back
                d[3] += a * a
                d[4] += back * back
                d[5] += a * back
                d[9 if r == D.PUSH else (10 if r == D.BANKER else 8)] += 1
        if limited:
            self.bank = bank
        else:
            bal[banker] += net
        d = self.sums[banker]
        d[6] += 1
        d[7] += net
        self.bank_deals += 1
        if limited and broken:
            self.broken = True
            self.decide = True
        elif talia_over:
            if self.kind == _RESPONSIBLE:
                self.resp_talias += 1
                if self.resp_talias >= self.talias:
                    self._rotate()
            self.decide = True


def play(options, res, last, unit, hold_talias):
    """A session's money given each deal's duel results (res[t - 1][i], tableau t of deal
    i: BANKER, PUSH or PUNTER as in firmware/games/club/duel.py) and talia ends (last[i] true when deal
    i is its talia's last). Returns (sums, house, balances, banker, bank): sums[seat] in
    SUMS order, then the table as the last deal left it (bank: what a limited bank holds)."""
    rounds = len(last)
    if len(res) != 3 or min(len(r) for r in res) < rounds:
        raise ValueError("club_bank.play: three result rows of %d deals each" % rounds)
    _check(options, rounds, unit, hold_talias)
    b = _Bank(options, unit, hold_talias)
    r1, r2, r3 = res
    for i in range(rounds):
        b.deal(r1[i], r2[i], r3[i], last[i])
    return b.sums, b.house, b.bal, b.banker, b.bank


def _cut_span(rounds, cut_lo, cut_hi):
    """How many places the cut card may land in; ValueError for what cannot be dealt."""
    if rounds < 0:
        raise ValueError("club_bank: rounds not negative, got %r" % (rounds,))
    if not 0 <= cut_lo <= cut_hi < SHOE:
        raise ValueError("club_bank: the cut card lands in 0..103, got %r..%r" % (cut_lo, cut_hi))
    return cut_hi - cut_lo + 1


def _shoes(rng, rounds, cut_lo, span):
    """Yield (pack, start, talia_over) for `rounds` deals from successive shoes."""
    shoe = deck.shoe()
    i = 0
    while i < rounds:
        pack = sorted(shoe, key=lambda _c: rng.random())
        cut = cut_lo + rng.randrange(span)
        pos = 0
        while i < rounds:
            end = pos <= cut < pos + DEAL or SHOE - pos - DEAL < DEAL
            yield pack, pos, end
            pos += DEAL
            i += 1
            if end:
                break


def deals(rng, rounds, cut_lo, cut_hi):
    """The deals alone: (17 cards per deal end to end, last-of-talia flags), as bytes,
    as simulator/montecarlo/simulate.py's club_deals(rng, rounds, (cut_lo, cut_hi)) gives them;
    `rng` (a random.Random) ends where club_deals leaves it."""
    cards = bytearray()
    last = bytearray()
    for pack, pos, end in _shoes(rng, rounds, cut_lo, _cut_span(rounds, cut_lo, cut_hi)):
        cards.extend(bytes(pack[pos:pos + DEAL]))
        last.append(1 if end else 0)
    return bytes(cards), bytes(last)


def _result(d, t, trump):
    """Tableau t's duel against the banker's: cards go one at a time round the four."""
    return D.result_of(D.solve(D.pattern((d[0], d[4], d[8], d[12]),
                                         (d[t], d[t + 4], d[t + 8], d[t + 12]), trump)))


def session(rng, rounds, options, unit, hold_talias, cut_lo, cut_hi):
    """A whole session: the shoes from `rng`, the duels, the money. Returns what `play`
    returns. `rng` ends as `deals` leaves it."""
    span = _cut_span(rounds, cut_lo, cut_hi)
    _check(options, rounds, unit, hold_talias)
    b = _Bank(options, unit, hold_talias)
    for pack, pos, end in _shoes(rng, rounds, cut_lo, span):
        d = pack[pos:pos + DEAL]
        trump = d[16] >> 4
        b.deal(_result(d, 1, trump), _result(d, 2, trump), _result(d, 3, trump), end)
    return b.sums, b.house, b.bal, b.banker, b.bank
