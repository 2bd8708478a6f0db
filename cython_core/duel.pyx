# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# Compiled twin of firmware/duel.py: same names, same answers (tests/firmware/games/club/test_club_duel.py).
# The duel reduces to a pattern code (< 512) after the equal trumps cancel; the minimax
# value of every pattern is computed once at import into a C table, so a batch of duels
# is a loop over typed memoryviews with no Python object inside.

BANKER = 1
PUSH = 0
PUNTER = -1
OFF = 2

RESULT_NAMES = {BANKER: "banker", PUSH: "push", PUNTER: "punter", OFF: "off"}

TABLEAU = 4
PATTERNS = 512

cdef signed char _DIFF[512]
cdef signed char _RESULT[512]
cdef signed char _TOTAL[512]


def trump_ranks(tableau, trump):
    """The ranks of the trumps in a tableau (card codes), highest first."""
    cdef int t = trump
    return sorted([c & 15 for c in tableau if c >> 4 == t], reverse=True)


cdef inline int _pattern(const unsigned char* b, const unsigned char* p, int trump) nogil:
    cdef signed char cnt[13]
    cdef int i, r, d, c, code = 1
    for r in range(13):
        cnt[r] = 0
    for i in range(4):
        c = b[i]
        if c >> 4 == trump:
            cnt[c & 15] += 1
        c = p[i]
        if c >> 4 == trump:
            cnt[c & 15] -= 1
    for r in range(12, -1, -1):
        d = cnt[r]
        if d > 0:
            code = (code << d) | ((1 << d) - 1)
        elif d < 0:
            code <<= -d
    return code


def pattern(banker, punter, trump):
    """The duel's pattern code: after the equal trumps cancel, a 1 bit, then one bit per
    remaining trump from the highest down: 1 if it is the banker's, 0 if the punter's."""
    cdef int cb[13]
    cdef int cp[13]
    cdef int r, d, code = 1, t = trump
    for r in range(13):
        cb[r] = 0
        cp[r] = 0
    for c in banker:
        if c >> 4 == t:
            cb[c & 15] += 1
    for c in punter:
        if c >> 4 == t:
            cp[c & 15] += 1
    for r in range(12, -1, -1):
        d = cb[r] - cp[r]
        if d > 0:
            code = (code << d) | ((1 << d) - 1)
        elif d < 0:
            code <<= -d
    return code


def _split(code):
    b = []
    p = []
    n = 0
    while code > 1:
        (b if code & 1 else p).append(n)
        code >>= 1
        n += 1
    return b, p


def _without(cards, c):
    out = list(cards)
    out.remove(c)
    return out


def _best(mine, theirs):
    if not mine:
        return -len(theirs)
    if not theirs:
        return len(mine)
    best = -99
    for lead in set(mine):
        rest = _without(mine, lead)
        higher = [c for c in theirs if c > lead]
        worst = 99
        for f in set(higher or theirs):
            left = _without(theirs, f)
            if f > lead:
                v = -1 - _best(left, rest)
            else:
                v = 1 + _best(rest, left)
            if v < worst:
                worst = v
        if worst > best:
            best = worst
    return best


def _solve_slow(code):
    b, p = _split(code)
    if not b and not p:
        return 0
    if b and (not p or max(b) > max(p)):
        return _best(b, p)
    return -_best(p, b)


def _fill():
    cdef int code, nb, np_
    for code in range(512):
        b, p = _split(code)
        nb, np_ = len(b), len(p)
        if code == 0 or nb > 4 or np_ > 4:
            _DIFF[code] = 0
            _TOTAL[code] = 0
            _RESULT[code] = 0
            continue
        _DIFF[code] = _solve_slow(code)
        _TOTAL[code] = nb if nb > np_ else np_
        _RESULT[code] = 1 if _DIFF[code] > 0 else (-1 if _DIFF[code] < 0 else 0)


_fill()


def solve(code):
    """(banker tricks - punter tricks) under perfect play, for a pattern code."""
    cdef int c = code
    if 0 < c < 512 and (_TOTAL[c] or c == 1):
        return _DIFF[c]
    return _solve_slow(code)


def tricks(code):
    """(banker tricks, punter tricks) of a pattern under perfect play."""
    b, p = _split(code)
    total = len(b) if len(b) > len(p) else len(p)
    d = solve(code)
    return (total + d) // 2, (total - d) // 2


def result_of(diff):
    return BANKER if diff > 0 else (PUNTER if diff < 0 else PUSH)


def duel(banker, punter, trump):
    """The duel of the banker's tableau against a punter's, `trump` the trump suit (0..3):
    (result, banker tricks, punter tricks), result BANKER, PUSH or PUNTER."""
    code = pattern(banker, punter, trump)
    bt, pt = tricks(code)
    return result_of(bt - pt), bt, pt


def duel_batch(const unsigned char[:] banker, const unsigned char[:] punter,
               const unsigned char[:] trumps, signed char[:] out):
    """Many duels at once. `banker` and `punter` hold 4 card codes per duel, end to end
    (duel i is cards 4i..4i+3); `trumps` one suit per duel; `out` receives one result per
    duel (BANKER, PUSH or PUNTER). Returns the number of duels."""
    cdef Py_ssize_t n = trumps.shape[0], i
    if banker.shape[0] < 4 * n or punter.shape[0] < 4 * n or out.shape[0] < n:
        raise ValueError("duel_batch: %d trumps need 4 cards a side per duel and %d results, "
                         "got %d banker cards, %d punter cards, room for %d results"
                         % (n, n, banker.shape[0], punter.shape[0], out.shape[0]))
    if n == 0:
        return 0
    cdef const unsigned char* b = &banker[0]
    cdef const unsigned char* p = &punter[0]
    with nogil:
        for i in range(n):
            out[i] = _RESULT[_pattern(b + 4 * i, p + 4 * i, trumps[i])]
    return n


def settle(stakes, results, long long bank, int commission):
    """Settle one deal. `stakes` are (seat, tableau, amount) in tableau order (tableau 1..3,
    the punters' tableaux); `results[t - 1]` is tableau t's duel result. `bank` is what a
    limited bank holds, or -1 for a responsible bank, which answers every stake.
    `commission` is the house's percent of each win (0 by default in the rules).

    Returns (entries, bank after, broken): one entry per stake,
    (seat, tableau, amount, outcome, to punter, to bank, to house), with
    to punter + to bank + to house == amount: money is conserved. `to bank` is negative
    when the bank pays. Once a punter breaks a limited bank (it holds 0), the later stakes
    are OFF: they neither win nor lose (seed 004:31)."""
    cdef list entries = []
    cdef bint broken = False
    cdef long long amount, fee, win
    cdef int r
    for seat, tableau, a in stakes:
        amount = a
        r = results[tableau - 1]
        if broken:
            entries.append((seat, tableau, amount, OFF, amount, 0, 0))
        elif r == PUSH:
            entries.append((seat, tableau, amount, PUSH, amount, 0, 0))
        elif r == BANKER:
            fee = amount * commission // 100
            if bank >= 0:
                bank += amount - fee
            entries.append((seat, tableau, amount, BANKER, 0, amount - fee, fee))
        else:
            win = amount if bank < 0 or amount <= bank else bank
            fee = win * commission // 100
            if bank >= 0:
                bank -= win
                broken = bank == 0
            entries.append((seat, tableau, amount, PUNTER, amount + win - fee, -win, fee))
    return entries, bank, broken
