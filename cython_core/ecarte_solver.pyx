# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# Compiled twin of firmware/ecarte_solver.py: same names, same answers (tests/firmware/offboard/test_ecarte_solver.py).
# Card sets are 32-bit masks, bit suit*8 + order (order 0..7 = 7 8 9 T A J Q K, king high), so
# "higher in the suit" is "a higher bit in the suit's byte". The search is alpha-beta over those
# masks, playing one card of each run of touching cards (cards with none of the other side's
# between them are worth the same). The enumerator spreads the opposing hand over the gaps
# between the hand's cards, as the pure twin does, and weighs each spread by binomials.
from tapis.firmware.cards import KING, name, rank, suit
from tapis.firmware.offboard.deck import deck32
from tapis.firmware.evaluate import ECARTE_STRENGTH

TRICKS = 5

cdef int _ORDER[16]
cdef int _i
for _i in range(16):
    _ORDER[_i] = -1
for _i in range(5, 13):
    _ORDER[_i] = ECARTE_STRENGTH[_i] - 1
cdef int _RANK_OF[8]
for _i in range(5, 13):
    _RANK_OF[ECARTE_STRENGTH[_i] - 1] = _i
cdef long long _C[33][33]
cdef int _n, _k
for _n in range(33):
    for _k in range(33):
        _C[_n][_k] = 0
    _C[_n][0] = 1
    for _k in range(1, _n + 1):
        _C[_n][_k] = _C[_n - 1][_k - 1] + _C[_n - 1][_k]


cdef extern from *:
    int __builtin_ctz(unsigned int) nogil


cdef inline unsigned int _legal(unsigned int hand, int led, int trump) noexcept nogil:
    cdef unsigned int suitmask = <unsigned int>0xFF << ((led >> 3) << 3)
    cdef unsigned int same = hand & suitmask
    cdef unsigned int win
    if same:
        win = same & ~((<unsigned int>2 << led) - 1)
        return win if win else same
    same = hand & (<unsigned int>0xFF << (trump << 3))
    return same if same else hand


cdef inline unsigned int _tops(unsigned int cards, unsigned int own, unsigned int allc) noexcept nogil:
    """The cards of `cards` (a subset of `own`) that are the top of their run in `allc`:
    the next higher card of the suit in `allc` is not `own`'s, or there is none."""
    cdef unsigned int out = 0, c, above, nxt
    cdef int b
    while cards:
        b = __builtin_ctz(cards)
        c = <unsigned int>1 << b
        cards &= cards - 1
        # cards of allc above b in the same suit
        above = allc & ~((c << 1) - 1) & (<unsigned int>0xFF << ((b >> 3) << 3))
        if above == 0:
            out |= c
        else:
            nxt = above & (~above + 1)
            if not (nxt & own):
                out |= c
    return out


cdef int _search(unsigned int mine, unsigned int theirs, int trump, bint i_lead,
                 int alpha, int beta) noexcept nogil:
    """Tricks `mine` takes from here (mine maximises), with alpha-beta bounds."""
    cdef unsigned int leader, follower, allc, moves, replies, x, y
    cdef int bx, by, v, best, reply, tb
    cdef bint mine_wins
    if mine == 0:
        return 0
    if i_lead:
        leader = mine
        follower = theirs
    else:
        leader = theirs
        follower = mine
    allc = mine | theirs
    moves = _tops(leader, leader, allc)
    best = -1 if i_lead else 99
    while moves:
        bx = __builtin_ctz(moves)
        x = <unsigned int>1 << bx
        moves &= moves - 1
        replies = _legal(follower, bx, trump)
        replies = _tops(replies, follower, allc)
        reply = 99 if i_lead else -1
        while replies:
            by = __builtin_ctz(replies)
            y = <unsigned int>1 << by
            replies &= replies - 1
            if (by >> 3) == (bx >> 3):
                mine_wins = (by > bx) != i_lead
            else:
                mine_wins = ((by >> 3) == trump) != i_lead
            if i_lead:
                tb = 1 if mine_wins else 0
                # follower (theirs) minimises within [alpha, min(beta, reply)]
                v = tb + _search(mine & ~x, theirs & ~y, trump, mine_wins,
                                 (alpha if alpha > best else best) - tb,
                                 (beta if beta < reply else reply) - tb)
                if v < reply:
                    reply = v
                    if reply <= (alpha if alpha > best else best):
                        break
            else:
                tb = 1 if mine_wins else 0
                v = tb + _search(mine & ~y, theirs & ~x, trump, mine_wins,
                                 (alpha if alpha > reply else reply) - tb,
                                 (beta if beta < best else best) - tb)
                if v > reply:
                    reply = v
                    if reply >= (beta if beta < best else best):
                        break
        if i_lead:
            if reply > best:
                best = reply
                if best >= beta:
                    return best
        else:
            if reply < best:
                best = reply
                if best <= alpha:
                    return best
    return best


cdef unsigned int _mask(list cards) except? 0:
    cdef unsigned int m = 0
    cdef int c
    for c in cards:
        m |= <unsigned int>1 << ((c >> 4) * 8 + _ORDER[c & 15])
    return m


def _check(hand, turned, n_min=1):
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


def _check_pair(hand, other):
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


def tricks(hand, other, trump, leads):
    """Double dummy: the tricks `hand` takes against `other` (as many cards) with `trump` the
    trump suit (0..3), when both play perfectly; `leads` says whether `hand` leads first."""
    hand = sorted(hand)
    other = sorted(other)
    _check_pair(hand, other)
    if trump not in (0, 1, 2, 3):
        raise ValueError("trump is a suit 0..3 (S H D C), got %r" % (trump,))
    return _search(_mask(hand), _mask(other), trump, bool(leads), -1, 99)


cdef struct Gaps:
    int n
    int size[40]
    unsigned int bits[40][8]   # the cards of each gap, low to high, as single bits


cdef void _gaps(unsigned int hand, int turned_bit, Gaps* g) noexcept nogil:
    cdef int s, o, b, sz = 0
    g.n = 0
    for s in range(4):
        sz = 0
        for o in range(8):
            b = s * 8 + o
            if b == turned_bit:
                continue
            if hand & (<unsigned int>1 << b):
                if sz:
                    g.size[g.n] = sz
                    g.n += 1
                sz = 0
            else:
                g.bits[g.n][sz] = <unsigned int>1 << b
                sz += 1
        if sz:
            g.size[g.n] = sz
            g.n += 1


cdef struct Tally:
    long long total, wins, voles


cdef void _spread(Gaps* g, int i, int left, int room, unsigned int picked, long long weight,
                  unsigned int hand, int n, int trump, bint leads, Tally* t) noexcept nogil:
    cdef int k, kmax, sz
    cdef unsigned int add
    if left == 0:
        # two yes/no searches (null windows) instead of the exact count: 1.5x faster
        t.total += weight
        if _search(hand, picked, trump, leads, n // 2, n // 2 + 1) > n // 2:
            t.wins += weight
            if _search(hand, picked, trump, leads, n - 1, n) >= n:
                t.voles += weight
        return
    if i == g.n or room < left:
        return
    sz = g.size[i]
    kmax = sz if sz < left else left
    add = 0
    for k in range(kmax + 1):
        if k:
            add |= g.bits[i][k - 1]
        _spread(g, i + 1, left - k, room - sz, picked | add, weight * _C[sz][k],
                hand, n, trump, leads, t)


def odds(hand, turned, leads):
    """(total, wins, voles) over every opposing hand of len(hand) cards from the unseen cards:
    `wins` counts those against which `hand` takes a majority of the tricks (3 of 5), `voles`
    those where it takes them all. `turned` is the turned trump card; `leads` as in tricks()."""
    hand = _check(hand, turned)
    cdef Gaps g
    cdef Tally t
    cdef unsigned int m = _mask(hand)
    cdef int tc = turned
    cdef int tbit = (tc >> 4) * 8 + _ORDER[tc & 15]
    cdef int n = len(hand), room = 31 - n, trump = tc >> 4
    cdef bint ld = bool(leads)
    t.total = 0
    t.wins = 0
    t.voles = 0
    with nogil:
        _gaps(m, tbit, &g)
        _spread(&g, 0, n, room, 0, 1, m, n, trump, ld, &t)
    return t.total, t.wins, t.voles


def dealer_trumps(hand, turned):
    """How many opposing hands (of len(hand) cards from the unseen ones) hold 0, 1, 2, ...
    trumps: the counts behind seed 002's 44,574 and 50,274 (002:39, SPEC §7)."""
    hand = _check(hand, turned)
    cdef int n = len(hand), k
    cdef int t = 7 - sum(1 for c in hand if suit(c) == suit(turned))
    cdef int u = 31 - n
    return tuple(_C[t][k] * _C[u - t][n - k] if k <= t and n - k <= u - t else 0
                 for k in range(n + 1))


def odds_against(hand, turned, others, leads):
    """(total, wins, voles) as odds(), over the given opposing hands only."""
    hand = _check(hand, turned)
    cdef int trump = (<int>turned) >> 4, n = len(hand), v
    cdef unsigned int m = _mask(hand), o
    cdef long long total = 0, wins = 0, voles = 0
    cdef bint ld = bool(leads)
    for other in others:
        other = list(other)
        _check_pair(hand, other)
        if turned in other:
            raise ValueError("the turned card %s cannot be in the opposing hand" % name(turned))
        o = _mask(other)
        v = _search(m, o, trump, ld, -1, 99)
        total += 1
        wins += 1 if 2 * v > n else 0
        voles += 1 if v == n else 0
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


cdef struct Spreads:
    int n
    unsigned int other[2048]
    long long weight[2048]


cdef void _collect(Gaps* g, int i, int left, int room, unsigned int picked, long long weight,
                   Spreads* out) noexcept nogil:
    cdef int k, kmax, sz
    cdef unsigned int add
    if left == 0:
        out.other[out.n] = picked
        out.weight[out.n] = weight
        out.n += 1
        return
    if i == g.n or room < left:
        return
    sz = g.size[i]
    kmax = sz if sz < left else left
    add = 0
    for k in range(kmax + 1):
        if k:
            add |= g.bits[i][k - 1]
        _collect(g, i + 1, left - k, room - sz, picked | add, weight * _C[sz][k], out)


cdef void _heaviest_first(Spreads* s) noexcept nogil:
    cdef int i, j
    cdef unsigned int o
    cdef long long w
    for i in range(1, s.n):  # insertion sort: a few hundred entries, mostly in order
        o = s.other[i]
        w = s.weight[i]
        j = i - 1
        while j >= 0 and s.weight[j] < w:
            s.other[j + 1] = s.other[j]
            s.weight[j + 1] = s.weight[j]
            j -= 1
        s.other[j + 1] = o
        s.weight[j + 1] = w


cdef bint _at_least(Spreads* s, unsigned int hand, int trump, bint leads, int need,
                    long long num, long long den) noexcept nogil:
    cdef long long total = 0, got = 0, left
    cdef int i
    for i in range(s.n):
        total += s.weight[i]
    left = total
    for i in range(s.n):
        left -= s.weight[i]
        if _search(hand, s.other[i], trump, leads, need - 1, need) >= need:
            got += s.weight[i]
        if den * got >= num * total:
            return True
        if den * (got + left) < num * total:
            return False
    return den * got >= num * total


def stands(hand, turned, leads):
    """advice(hand, turned, leads)[0], found with yes/no searches that stop once decided."""
    hand = _check(hand, turned)
    cdef Gaps g
    cdef Spreads s
    cdef unsigned int m = _mask(hand)
    cdef int tc = turned
    cdef int tbit = (tc >> 4) * 8 + _ORDER[tc & 15]
    cdef int n = len(hand), trump = tc >> 4
    cdef bint ld = bool(leads), ok
    cdef bint king = ld and (m >> (trump * 8 + 7)) & 1
    s.n = 0
    with nogil:
        _gaps(m, tbit, &g)
        _collect(&g, 0, n, 31 - n, 0, 1, &s)
        _heaviest_first(&s)
        ok = _at_least(&s, m, trump, ld, n // 2 + 1, 2, 3)
        if ok and king:
            ok = _at_least(&s, m, trump, ld, n, 1, 2)
    return ok
