# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# Compiled twin of firmware/offboard/ecarte_verdict.py: same names, same answers (tests/firmware/offboard/test_ecarte_verdict.py).
# The same and-or search over information sets, in C: elder's cards are a 32-bit mask (bit
# suit*8 + order, order 0..7 = 7 8 9 T A J Q K), a dealer hand is 3 bits of count per run of
# unseen cards, and the set of dealer hands still consistent with the play is an array. Each
# level of the search builds its parts in a scratch area above its own, so nothing is
# allocated while searching. No memo: the pure twin's memo only saves time, never changes an
# answer, and the C search is fast without it.
from libc.stdlib cimport malloc, free

from tapis.firmware.cards import KING, rank, suit
from tapis.firmware.offboard.ecarte_search import check
from tapis.firmware.evaluate import ECARTE_STRENGTH

TRICKS = 5
POINT = 3

cdef enum:
    _MAXRUNS = 9        # at most 5 cards of elder's split the 4 suits into 5 + 4 runs
    _MAXDEALERS = 1287  # count vectors of 5 over 9 runs: C(13, 8)
    _LEVELS = 7         # one level a trick (a lead and its answer), and the leaf

cdef extern from *:
    int __builtin_ctz(unsigned int) nogil
    int __builtin_popcount(unsigned int) nogil


cdef struct Ctx:
    int nruns
    int trump
    int code[_MAXRUNS]          # a card of each run (they all compare alike with elder's)
    unsigned int unit[_MAXRUNS]  # 1 << (3 * g)
    unsigned int trump_runs      # runs of the trump suit, as a mask over runs
    unsigned int suit_runs[4]    # runs of each suit
    unsigned int above[32]       # for each card code: the runs of its suit above it
    unsigned int *scratch        # _LEVELS * 2 * _MAXDEALERS words


cdef inline unsigned int _held(unsigned int h, Ctx* c) noexcept nogil:
    """The runs hand `h` holds a card of, as a mask over runs."""
    cdef unsigned int out = 0
    cdef int g
    for g in range(c.nruns):
        if (h >> (3 * g)) & 7:
            out |= 1u << g
    return out


cdef inline bint _takes(int later, int first, int trump) noexcept nogil:
    if (later >> 3) == (first >> 3):
        return later > first
    return (later >> 3) == trump


cdef inline unsigned int _answers(unsigned int mine, int led, int trump) noexcept nogil:
    """Elder's legal answers to `led`: follow and win if able; void: trump if able; else any."""
    cdef unsigned int same = mine & (<unsigned int>0xFF << ((led >> 3) << 3))
    cdef unsigned int win
    if same:
        win = same & ~((<unsigned int>2 << led) - 1)
        return win if win else same
    same = mine & (<unsigned int>0xFF << (trump << 3))
    return same if same else mine


cdef bint _sure(unsigned int mine, unsigned int* dealers, int n, bint i_lead, int need,
                Ctx* c, unsigned int* free_) noexcept nogil:
    """Whether elder, holding `mine`, forces `need` more tricks against all n `dealers`."""
    cdef unsigned int* replies = free_
    cdef unsigned int* part = free_ + n
    cdef unsigned int* deeper = free_ + 2 * n
    cdef unsigned int left, reach, r, held, answers
    cdef int bx, x, g, i, k, y
    cdef bint won, ok
    if need <= 0:
        return True
    if __builtin_popcount(mine) < need:
        return False
    if n == 0:
        return True
    if i_lead:
        left = mine
        while left:  # one card for the whole set
            x = __builtin_ctz(left)
            left &= left - 1
            reach = 0
            for i in range(n):  # the dealer's legal replies, per hand, as masks over runs
                held = _held(dealers[i], c)
                r = held & c.above[x]
                if not r:
                    r = held & c.suit_runs[x >> 3]
                    if not r:
                        r = held & c.trump_runs
                        if not r:
                            r = held
                replies[i] = r
                reach |= r
            ok = True
            while reach:  # each reply the dealer can make is a part elder must win
                g = __builtin_ctz(reach)
                reach &= reach - 1
                k = 0
                for i in range(n):
                    if replies[i] & (1u << g):
                        part[k] = dealers[i] - c.unit[g]
                        k += 1
                won = not _takes(c.code[g], x, c.trump)
                if not _sure(mine & ~(1u << x), part, k, won, need - won, c, deeper):
                    ok = False
                    break
            if ok:
                return True
        return False
    reach = 0
    for i in range(n):
        reach |= _held(dealers[i], c)
    while reach:  # the dealer leads a card of run g, from any hand holding one
        g = __builtin_ctz(reach)
        reach &= reach - 1
        k = 0
        for i in range(n):
            if (dealers[i] >> (3 * g)) & 7:
                part[k] = dealers[i] - c.unit[g]
                k += 1
        y = c.code[g]
        answers = _answers(mine, y, c.trump)
        ok = False
        while answers:  # elder answers, having seen it
            bx = __builtin_ctz(answers)
            answers &= answers - 1
            won = _takes(bx, y, c.trump)
            if _sure(mine & ~(1u << bx), part, k, won, need - won, c, deeper):
                ok = True
                break
        if not ok:
            return False
    return True


cdef int _code(int card):
    return (card >> 4) * 8 + ECARTE_STRENGTH[card & 15] - 1


cdef int _walk(Ctx* c, int g, int left, int trumps, unsigned int packed, int* size,
               unsigned int* out, int k) noexcept nogil:
    """Appends to out[k:] every dealer hand of `left` more cards over runs g.. with fewer
    than two trumps in all; returns the new length."""
    cdef int j, t
    if left == 0:
        out[k] = packed
        return k + 1
    if g == c.nruns:
        return k
    for j in range((size[g] if size[g] < left else left) + 1):
        t = trumps + (j if (c.code[g] >> 3) == c.trump else 0)
        if t < 2:
            k = _walk(c, g + 1, left - j, t, packed | (<unsigned int>j << (3 * g)), size, out, k)
    return k


def sure(hand, turned, need):
    """Whether elder, holding `hand` and leading without proposing, has one way of playing,
    decided on what he sees, that takes `need` tricks against every dealer hand (of as many
    cards) holding fewer than two trumps and every legal dealer play (seed 002 line 39)."""
    hand = check(hand, turned)
    cdef Ctx c
    cdef int size[_MAXRUNS]
    cdef int s, o, b, sz, top, g, n = len(hand), tb = _code(turned), k, nd
    cdef int want = need
    cdef unsigned int mine = 0
    cdef bint got
    for card in hand:
        mine |= 1u << _code(card)
    c.trump = tb >> 3
    c.nruns = 0
    c.trump_runs = 0
    for s in range(4):
        c.suit_runs[s] = 0
        sz = top = 0
        for o in range(9):
            b = s * 8 + o
            if o < 8 and b == tb:
                continue
            if o == 8 or mine & (1u << b):
                if sz:
                    c.code[c.nruns] = top
                    size[c.nruns] = sz
                    c.unit[c.nruns] = 1u << (3 * c.nruns)
                    c.suit_runs[s] |= 1u << c.nruns
                    c.nruns += 1
                sz = 0
            else:
                sz += 1
                top = b
    c.trump_runs = c.suit_runs[c.trump]
    for b in range(32):
        c.above[b] = 0
        for g in range(c.nruns):
            if (c.code[g] >> 3) == (b >> 3) and c.code[g] > b:
                c.above[b] |= 1u << g
    c.scratch = <unsigned int*>malloc(sizeof(unsigned int) * (_MAXDEALERS * (2 * _LEVELS + 1)))
    if c.scratch == NULL:
        raise MemoryError()
    try:
        with nogil:
            nd = _walk(&c, 0, n, 0, 0, size, c.scratch, 0)
            got = _sure(mine, c.scratch, nd, True, want, &c, c.scratch + _MAXDEALERS)
    finally:
        free(c.scratch)
    return bool(got)


def lowest_trumps(hand, turned):
    """`hand` with its trumps, the king apart, made the lowest of the suit (the turned card
    excepted): Foster's examples are written so, and higher trumps do not make up for weak
    plain suits (seed 002 line 46). The king stays: it is led first and always wins."""
    hand = check(hand, turned)
    trump = suit(turned)
    low = [r for r in (5, 6, 7, 8, 12, 9, 10) if trump << 4 | r != turned]  # 7 8 9 T A J Q
    out = [c for c in hand if suit(c) != trump or rank(c) == KING]
    for c in hand:
        if suit(c) == trump and rank(c) != KING:
            out.append(trump << 4 | low.pop(0))
    return out


def verdict(hand, turned):
    """(jeu_de_regle, stand, sure_point, plain_suits, sure_vole, reason): seed 002's verdict on
    elder's hand. `sure_point`: sure() of the point (002:39). `plain_suits`: sure of it with the
    lowest trumps too, or three trumps held (002:46); asked only when sure of the point. A jeu
    de règle is both. `sure_vole`: sure() of every trick, asked only of a jeu de règle holding
    the trump king (002:39-40). A question not asked is None. Elder stands on a jeu de règle,
    unless he holds the king and the vole is not sure."""
    hand = check(hand, turned)
    trump = suit(turned)
    n = len(hand)
    point = n // 2 + 1
    trumps = sum(1 for c in hand if suit(c) == trump)
    king = any(suit(c) == trump and rank(c) == KING for c in hand)
    sure_point = sure(hand, turned, point)
    plain = vole = None
    if not sure_point:
        why = "not sure of the point when the dealer has fewer than two trumps (002:39)"
    else:
        plain = trumps >= 3 or sure(lowest_trumps(hand, turned), turned, point)
        if not plain:
            why = "sure of the point only by higher trumps; with the lowest the plain suits are too weak (002:46)"
        elif not king:
            why = "a jeu de règle: sure of the point when the dealer has fewer than two trumps (002:39)"
        else:
            vole = sure(hand, turned, n)
            why = "a jeu de règle with the trump king, and %s (002:39-40)" % (
                "sure of the vole too" if vole else "the vole is not sure")
    jeu = sure_point and plain is True
    return jeu, jeu and (not king or vole is True), sure_point, plain, vole, why
