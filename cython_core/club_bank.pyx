# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Compiled twin of firmware/offboard/club_bank.py: same names, same answers (tests/firmware/offboard/test_club_bank.py).
# A whole club session in C: the shuffles, the duels, the bank's life and the money.
#
# The shoes. The pure twin sorts the two decks by rng.random() keys and draws the cut with
# rng.randrange(). Here CPython's Mersenne Twister runs in C from rng.getstate(), and the
# state goes back with rng.setstate(): rng ends where those calls would have left it.
# random() is rebuilt from two words as CPython does, ((w1 >> 5) * 2**26 + (w2 >> 6)) / 2**53:
# comparing those 53-bit integers is comparing the floats, and with the card's index below
# them, sorting the 60-bit keys is Python's stable sort. randrange(m) is CPython's
# getrandbits(m.bit_length()) until below m, each draw the top bits of one word.
cimport cython
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from array import array

from tapis.cython_core import duel as _duel
from tapis.firmware.offboard import deck as _deck

SHOE = 104
DEAL = 17  # four tableaux of four, then the trump
SUMS = ("n", "x", "y", "xx", "yy", "xy", "bank_deals", "bank_net",  # per seat, in this order
        "won", "pushed", "lost")  # the duels of a seat's stakes: its tableau won, en carte, lost

cdef enum:
    _NEW = 0
    _LIMITED = 1
    _RESPONSIBLE = 2
    _LAY = 0
    _RESPOND = 1
    _HOLD = 2
    _PASS = 3
    _STUCK = -1
    _DEAL = 17
    _SHOE = 104

_INT = 1 << 31  # what the compiled twin keeps in a C int
_LIMIT = 1 << 62  # sums are 64-bit: refuse what could overflow (the pure twin refuses alike)

cdef signed char _RESULT[512]  # pattern code -> BANKER, PUSH or PUNTER (cython_core/duel.pyx)
cdef unsigned char _CARDS[104]  # the two decks in deck.shoe() order

for _c in range(512):
    _RESULT[_c] = _duel.result_of(_duel.solve(_c))
for _i, _c in enumerate(_deck.shoe()):
    _CARDS[_i] = _c


def _check(options, rounds, unit, hold_talias):
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


# ---- the money -------------------------------------------------------------------------
cdef struct Bank:
    int n, banker, kind, lays, broken, bank_deals, resp_talias, holds, decide
    int commission, talias, hold_talias
    int64_t lay, unit, bank, house
    int64_t minimums[2]
    int64_t bal[8]
    int64_t sums[8][11]


cdef void _open(Bank* b, o, int64_t unit, int hold_talias) except *:
    cdef int s
    memset(b, 0, sizeof(Bank))
    b.n, b.banker, b.decide = o.seats, o.first_banker, 1
    b.commission, b.talias, b.hold_talias = o.commission, o.talias, hold_talias
    b.lay, b.unit = o.bank, unit
    b.minimums[0], b.minimums[1] = o.minimums[0], o.minimums[1]
    for s in range(b.n):
        b.bal[s] = o.balance


cdef inline void _rotate(Bank* b) noexcept nogil:
    b.bal[b.banker] += b.bank
    b.bank = 0
    b.banker = (b.banker + 1) % b.n
    b.kind, b.lays, b.broken, b.bank_deals, b.holds = _NEW, 0, 0, 0, 0


cdef inline int _choose(Bank* b) noexcept nogil:
    """The banker's decisions until a deal is due; _STUCK when no seat can bank."""
    cdef int c, passes = 0
    cdef int64_t have
    while b.decide:
        have = b.bal[b.banker]
        if b.kind == _NEW:
            c = _LAY if have >= b.lay else (_RESPOND if have > 0 else _PASS)
        elif b.kind == _LIMITED and b.broken and b.lays == 1:
            c = _LAY if have >= b.lay else _PASS
        elif b.kind == _LIMITED and b.broken:
            c = _RESPOND if have > 0 else _PASS
        else:
            c = _HOLD if b.holds < b.hold_talias else _PASS
        if c == _LAY:
            b.lays += 1
            b.kind, b.broken, b.bank_deals = _LIMITED, 0, 0
            b.bal[b.banker] -= b.lay
            b.bank = b.lay
            b.decide = 0
        elif c == _RESPOND:
            b.kind, b.broken, b.bank_deals, b.resp_talias = _RESPONSIBLE, 0, 0, 0
            b.decide = 0
        elif c == _HOLD:
            b.holds += 1
            b.decide = 0
        else:
            passes += 1
            if passes > b.n:
                return _STUCK
            _rotate(b)
    return 0


cdef int _deal(Bank* b, int r1, int r2, int r3, int talia_over) noexcept nogil:
    """One deal: decisions, stakes, settlement in tableau order (duel.settle's arithmetic)."""
    if _choose(b) == _STUCK:
        return _STUCK
    cdef int n = b.n, banker = b.banker, pos, seat, t, r, broken = 0
    cdef int limited = b.kind == _LIMITED
    cdef int64_t amounts[7]
    cdef int seats[7]
    cdef int64_t most, least, s, a, back, fee, win, staked = 0, net = 0
    cdef int64_t bank = b.bank if limited else -1
    cdef int64_t* d
    seat = banker
    for pos in range(n - 1):
        seat += 1
        if seat == n:
            seat = 0
        seats[pos] = seat
        most = b.bank if limited else b.bal[banker] - staked
        if b.bal[seat] < most:
            most = b.bal[seat]
        amounts[pos] = 0
        if most <= 0:
            continue
        least = 0
        if limited and b.bank_deals == 0 and pos < 2:
            least = b.minimums[pos] if b.minimums[pos] < most else most
        s = least if least > b.unit else b.unit
        if s > most:
            s = most
        amounts[pos] = s
        staked += s
        b.bal[seat] -= s
    for t in range(3):
        r = r1 if t == 0 else (r2 if t == 1 else r3)
        pos = t
        while pos < n - 1:
            a = amounts[pos]
            if a:
                if broken or r == 0:  # off, or en carte: the stake comes back
                    back, fee = a, 0
                elif r == 1:  # the banker's tableau wins
                    fee = a * b.commission // 100
                    if bank >= 0:
                        bank += a - fee
                    back = 0
                    net += a - fee
                else:  # the punter's: a limited bank pays what it has left
                    win = a if bank < 0 or a <= bank else bank
                    fee = win * b.commission // 100
                    if bank >= 0:
                        bank -= win
                        broken = bank == 0
                    back = a + win - fee
                    net -= win
                seat = seats[pos]
                b.bal[seat] += back
                b.house += fee
                d = b.sums[seat]
                d[0] += 1
                d[1] += a
                d[2] += back
                d[3] += a * a
                d[4] += back * back
                d[5] += a * back
                d[9 if r == 0 else (10 if r == 1 else 8)] += 1
            pos += 3
    if limited:
        b.bank = bank
    else:
        b.bal[banker] += net
    b.sums[banker][6] += 1
    b.sums[banker][7] += net
    b.bank_deals += 1
    if limited and broken:
        b.broken = 1
        b.decide = 1
    elif talia_over:
        if b.kind == _RESPONSIBLE:
            b.resp_talias += 1
            if b.resp_talias >= b.talias:
                _rotate(b)
        b.decide = 1
    return 0


cdef _close(Bank* b):
    return ([[b.sums[s][f] for f in range(11)] for s in range(b.n)], b.house,
            [b.bal[s] for s in range(b.n)], b.banker, b.bank)


_NOBODY = "club_bank: no seat has money left to hold the bank"


def play(options, res, last, unit, hold_talias):
    """A session's money given each deal's duel results (res[t - 1][i], tableau t of deal
    i: BANKER, PUSH or PUNTER as in firmware/duel.py) and talia ends (last[i] true when deal
    i is its talia's last). Returns (sums, house, balances, banker, bank): sums[seat] in
    SUMS order, then the table as the last deal left it (bank: what a limited bank holds)."""
    cdef Py_ssize_t rounds = len(last), i
    if len(res) != 3 or min(len(r) for r in res) < rounds:
        raise ValueError("club_bank.play: three result rows of %d deals each" % rounds)
    _check(options, rounds, unit, hold_talias)
    cdef Bank b
    _open(&b, options, unit, hold_talias)
    cdef signed char[:] r1 = array("b", res[0][:rounds]), r2, r3
    r2 = array("b", res[1][:rounds])
    r3 = array("b", res[2][:rounds])
    cdef const unsigned char[:] ends = (last if isinstance(last, bytes) and max(last, default=0) <= 1
                                        else bytes(1 if x else 0 for x in last))
    for i in range(rounds):
        if _deal(&b, r1[i], r2[i], r3[i], ends[i]) == _STUCK:
            raise ValueError(_NOBODY)
    return _close(&b)


# ---- the shoes ---------------------------------------------------------------------------
@cython.final
cdef class _Twister:
    """CPython's Mersenne Twister (Modules/_randommodule.c, genrand_uint32), started from
    a random.Random's state and handed back to it, so that the generator ends where
    rng.random() and rng.randrange() calls would have left it."""
    cdef uint32_t mt[624]
    cdef uint32_t tempered[624]  # the block's words as handed out, tempered all at once
    cdef int index

    def __cinit__(self, rng):
        version, words, _gauss = rng.getstate()
        if version != 3 or len(words) != 625:
            raise TypeError("club_bank: rng must be a random.Random (Mersenne Twister state), "
                            "got %r" % (type(rng),))
        for i in range(624):
            self.mt[i] = words[i]
        self.index = words[624]
        self._temper()

    def give_back(self, rng):
        _version, _words, gauss = rng.getstate()
        rng.setstate((3, tuple([self.mt[i] for i in range(624)]) + (self.index,), gauss))

    cdef void _twist(self) noexcept nogil:
        cdef int k
        cdef uint32_t y
        cdef uint32_t* mt = self.mt
        for k in range(624 - 397):
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU)
            mt[k] = mt[k + 397] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        for k in range(624 - 397, 623):
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU)
            mt[k] = mt[k + 397 - 624] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU)
        mt[623] = mt[396] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        self.index = 0
        self._temper()

    cdef void _temper(self) noexcept nogil:
        """CPython tempers each word as it hands it out; a whole block in one loop
        vectorises."""
        cdef int k
        cdef uint32_t y
        for k in range(624):
            y = self.mt[k]
            y ^= y >> 11
            y ^= (y << 7) & 0x9d2c5680U
            y ^= (y << 15) & 0xefc60000U
            y ^= y >> 18
            self.tempered[k] = y

    cdef inline uint32_t next(self) noexcept nogil:
        if self.index >= 624:
            self._twist()
        self.index += 1
        return self.tempered[self.index - 1]

    cdef void words(self, uint32_t* out, int k) noexcept nogil:
        """The next k words into out: next() k times."""
        cdef int i = 0, take, at
        while i < k:
            if self.index >= 624:
                self._twist()
            at = self.index
            take = k - i if k - i < 624 - at else 624 - at
            memcpy(out + i, self.tempered + at, take * sizeof(uint32_t))
            self.index = at + take
            i += take


cdef int _below(_Twister w, uint32_t m) noexcept nogil:
    """randrange(m), 1 <= m <= 2**31: top bits of one word, again while not below m."""
    cdef int k = 0
    cdef uint32_t r
    while (m >> k) != 0:
        k += 1
    while True:
        r = w.next() >> (32 - k)
        if r < m:
            return r


cdef enum:
    _BITS = 7  # bucket bits: 128 buckets for 104 keys


cdef void _shuffle(_Twister w, unsigned char* pack) noexcept nogil:
    """The two decks sorted by random() keys, stably: a counting pass on the keys' top
    bits, then an insertion sort that only mends the order within buckets."""
    cdef uint32_t raw[208]
    cdef uint64_t keys[104]
    cdef uint64_t out[104]
    cdef int count[(1 << _BITS) + 1]
    cdef int i, j
    cdef uint64_t k
    w.words(raw, 208)
    memset(count, 0, sizeof(count))
    for i in range(104):
        k = ((<uint64_t>(raw[2 * i] >> 5) << 26 | (raw[2 * i + 1] >> 6)) << 7) | i
        keys[i] = k
        count[(k >> (60 - _BITS)) + 1] += 1
    for i in range(1 << _BITS):
        count[i + 1] += count[i]
    for i in range(104):
        k = keys[i]
        j = k >> (60 - _BITS)
        out[count[j]] = k
        count[j] += 1
    for i in range(1, 104):
        k = out[i]
        j = i - 1
        while j >= 0 and out[j] > k:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = k
    for i in range(104):
        pack[i] = _CARDS[out[i] & 127]


def _cut_span(rounds, cut_lo, cut_hi):
    """How many places the cut card may land in; ValueError for what cannot be dealt."""
    if rounds < 0:
        raise ValueError("club_bank: rounds not negative, got %r" % (rounds,))
    if not 0 <= cut_lo <= cut_hi < SHOE:
        raise ValueError("club_bank: the cut card lands in 0..103, got %r..%r" % (cut_lo, cut_hi))
    return cut_hi - cut_lo + 1


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define TAPIS_TOP_BIT(m) (31 - __builtin_clz(m))
    #else
    static int TAPIS_TOP_BIT(unsigned int m) { int r = 0; while (m >>= 1) r++; return r; }
    #endif
    """
    int TAPIS_TOP_BIT(uint32_t m) noexcept nogil


cdef inline void _trumps(const unsigned char* d, int t, int trump, uint32_t* once, uint32_t* twice) noexcept nogil:
    """Tableau t's trumps as rank masks: held at least once, held twice (two decks). The
    cards go one at a time round the four tableaux, the banker's first."""
    cdef uint32_t one = 0, two = 0, bit
    cdef int i, x
    for i in range(t, 16, 4):
        x = d[i]
        if x >> 4 == trump:
            bit = 1U << (x & 15)
            two |= one & bit
            one |= bit
    once[0], twice[0] = one, two


cdef inline int _result(uint32_t b1, uint32_t b2, uint32_t p1, uint32_t p2) noexcept nogil:
    """The duel (duel.pyx's pattern, then its table): equal trumps cancel, a 1 bit, then a
    bit per remaining trump from the highest down, 1 the banker's, 0 the punter's."""
    if p1 == 0:
        return 1 if b1 else 0  # only the banker has trumps, or nobody: BANKER or PUSH
    if b1 == 0:
        return -1  # only the punter has trumps: PUNTER
    cdef uint32_t m = b1 | p1, bit
    cdef int r, x, code = 1
    while m:
        r = TAPIS_TOP_BIT(m)
        bit = 1U << r
        m ^= bit
        x = ((b1 >> r) & 1) + ((b2 >> r) & 1) - ((p1 >> r) & 1) - ((p2 >> r) & 1)
        if x > 0:
            code = (code << x) | ((1 << x) - 1)
        elif x < 0:
            code <<= -x
    return _RESULT[code]


def deals(rng, rounds, cut_lo, cut_hi):
    """The deals alone: (17 cards per deal end to end, last-of-talia flags), as bytes,
    as simulator/montecarlo/simulate.py's club_deals(rng, rounds, (cut_lo, cut_hi)) gives them;
    `rng` (a random.Random) ends where club_deals leaves it."""
    cdef int span = _cut_span(rounds, cut_lo, cut_hi), cut, pos, j, lo = cut_lo
    cdef Py_ssize_t n = rounds, i = 0
    cdef _Twister w = _Twister(rng)
    cdef unsigned char pack[104]
    cards = bytearray(_DEAL * n)
    last = bytearray(n)
    cdef unsigned char[:] c = cards, e = last
    while i < n:
        _shuffle(w, pack)
        cut = lo + _below(w, span)
        pos = 0
        while i < n:
            for j in range(_DEAL):
                c[_DEAL * i + j] = pack[pos + j]
            e[i] = pos <= cut < pos + _DEAL or _SHOE - pos - _DEAL < _DEAL
            pos += _DEAL
            i += 1
            if e[i - 1]:
                break
    w.give_back(rng)
    return bytes(cards), bytes(last)


def session(rng, rounds, options, unit, hold_talias, cut_lo, cut_hi):
    """A whole session: the shoes from `rng`, the duels, the money. Returns what `play`
    returns. `rng` ends as `deals` leaves it."""
    cdef int span = _cut_span(rounds, cut_lo, cut_hi), cut, pos, end, trump, lo = cut_lo
    _check(options, rounds, unit, hold_talias)
    cdef Py_ssize_t n = rounds, i = 0
    cdef _Twister w = _Twister(rng)
    cdef unsigned char pack[104]
    cdef const unsigned char* d
    cdef uint32_t b1, b2, p1, p2
    cdef int r1, r2, r3
    cdef Bank b
    _open(&b, options, unit, hold_talias)
    while i < n:
        _shuffle(w, pack)
        cut = lo + _below(w, span)
        pos = 0
        while i < n:
            d = pack + pos
            end = pos <= cut < pos + _DEAL or _SHOE - pos - _DEAL < _DEAL
            trump = d[16] >> 4
            _trumps(d, 0, trump, &b1, &b2)
            _trumps(d, 1, trump, &p1, &p2)
            r1 = _result(b1, b2, p1, p2)
            _trumps(d, 2, trump, &p1, &p2)
            r2 = _result(b1, b2, p1, p2)
            _trumps(d, 3, trump, &p1, &p2)
            r3 = _result(b1, b2, p1, p2)
            if _deal(&b, r1, r2, r3, end) == _STUCK:
                raise ValueError(_NOBODY)
            pos += _DEAL
            i += 1
            if end:
                break
    w.give_back(rng)
    return _close(&b)
