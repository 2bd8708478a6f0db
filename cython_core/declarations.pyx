# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# Compiled twin of firmware/declarations.py: same names, same answers
# (tests/firmware/games/piquet/test_piquet_declarations.py). The hot path works on bitmask hands: a hand is
# one 64-bit int with bit `card` set, split into four 13-bit rank masks, and every
# per-suit figure (point key, best sequence, sequences' score) is a lookup in tables
# of 8192 entries built once at import.
from libc.stdint cimport uint64_t, int32_t

cdef enum:
    _TEN = 8
    _JACK = 9
    _KING = 11
    _ACE = 12

ELDER = 0
YOUNGER = 1
NOBODY = -1
REPIQUE = 60
PIQUE = 30
CARTE_BLANCHE = 10
FIELDS = ("point_winner", "point_score", "sequence_winner", "sequence_score",
          "sets_winner", "sets_score", "repique", "elder", "younger")

cdef int _POINT[8192]     # cards << 8 | pips
cdef int _SEQ_KEY[8192]   # best run of 3+: length << 4 | top rank, or 0
cdef int _SEQ_SCORE[8192] # what all runs of 3+ score


cdef inline int _pips(int r) noexcept nogil:
    if r == _ACE:
        return 11
    return 10 if r >= _TEN else r + 2


cdef inline int _seq_value(int length) noexcept nogil:
    if length < 3:
        return 0
    return length if length < 5 else length + 10


cdef void _build():
    cdef int m, r, n, t, run, best, score, k
    for m in range(8192):
        n = t = 0
        run = best = score = 0
        for r in range(14):
            if r < 13 and (m >> r) & 1:
                n += 1
                t += _pips(r)
                run += 1
            else:
                if run >= 3:
                    k = run << 4 | (r - 1)
                    if k > best:
                        best = k
                    score += _seq_value(run)
                run = 0
        _POINT[m] = n << 8 | t
        _SEQ_KEY[m] = best
        _SEQ_SCORE[m] = score

_build()


cdef struct _Figures:
    int point
    int seq_key
    int seq_score
    int set_key
    int set_score


cdef inline void _figures(uint64_t h, _Figures* f) noexcept nogil:
    cdef int s, k, r, n
    cdef int m[4]
    for s in range(4):
        m[s] = <int>((h >> (16 * s)) & 0x1FFF)
    f.point = 0
    f.seq_key = 0
    f.seq_score = 0
    for s in range(4):
        k = _POINT[m[s]]
        if k > f.point:
            f.point = k
        k = _SEQ_KEY[m[s]]
        if k > f.seq_key:
            f.seq_key = k
        f.seq_score += _SEQ_SCORE[m[s]]
    f.set_key = 0
    f.set_score = 0
    for r in range(_TEN, 13):
        n = ((m[0] >> r) & 1) + ((m[1] >> r) & 1) + ((m[2] >> r) & 1) + ((m[3] >> r) & 1)
        if n >= 3:
            k = n << 4 | r
            if k > f.set_key:
                f.set_key = k
            f.set_score += 3 if n == 3 else 14


cdef inline int _cmp(int e, int y) noexcept nogil:
    if e > y:
        return 0
    if y > e:
        return 1
    return -1


cdef inline void _declare(uint64_t eh, uint64_t yh, int32_t* o) noexcept nogil:
    cdef _Figures fe, fy
    cdef int pw, ps, qw, qs, sw, ss, rq, got0, got1, i, w, p
    cdef int ws[3]
    cdef int pts[3]
    _figures(eh, &fe)
    _figures(yh, &fy)
    pw = _cmp(fe.point, fy.point)
    ps = 0 if pw < 0 else ((fe.point if pw == 0 else fy.point) >> 8)
    qw = _cmp(fe.seq_key, fy.seq_key)
    qs = 0 if qw < 0 else (fe.seq_score if qw == 0 else fy.seq_score)
    sw = _cmp(fe.set_key, fy.set_key)
    ss = 0 if sw < 0 else (fe.set_score if sw == 0 else fy.set_score)
    ws[0] = pw; ws[1] = qw; ws[2] = sw
    pts[0] = ps; pts[1] = qs; pts[2] = ss
    got0 = got1 = 0
    rq = -1
    for i in range(3):
        w = ws[i]
        p = pts[i]
        if w < 0 or p <= 0:
            continue
        if w == 0:
            got0 += p
            if rq < 0 and got0 >= 30 and got1 == 0:
                rq = 0
        else:
            got1 += p
            if rq < 0 and got1 >= 30 and got0 == 0:
                rq = 1
    if rq == 0:
        got0 += 60
    elif rq == 1:
        got1 += 60
    o[0] = pw; o[1] = ps; o[2] = qw; o[3] = qs; o[4] = sw; o[5] = ss
    o[6] = rq; o[7] = got0; o[8] = got1


cdef uint64_t _mask(hand) except? 0:
    cdef uint64_t m = 0
    cdef int c
    for c in hand:
        m |= (<uint64_t>1) << c
    return m


def pips(int r):
    """A card's value for the point: ace 11, court cards 10, others their pips."""
    return _pips(r)


def suit_masks(hand):
    """Four 13-bit masks of ranks, one per suit."""
    cdef uint64_t h = _mask(hand)
    return [<int>((h >> (16 * s)) & 0x1FFF) for s in range(4)]


def hand_mask(hand):
    """The hand as one int with bit `card` set per card (for the batch API)."""
    return _mask(hand)


def mask_cards(mask):
    """The card codes of a hand mask, ascending."""
    return [c for c in range(64) if mask >> c & 1]


def point_key(hand):
    """The best suit for the point: cards << 8 | pip total (0 for an empty hand)."""
    cdef _Figures f
    _figures(_mask(hand), &f)
    return f.point


def point_suit(hand):
    """The suit that makes the point (the first best one), or -1 for an empty hand."""
    cdef uint64_t h = _mask(hand)
    cdef int s, k, best = 0, which = -1
    for s in range(4):
        k = _POINT[(h >> (16 * s)) & 0x1FFF]
        if k > best:
            best, which = k, s
    return which


def sequences(hand):
    """Every sequence of 3+ consecutive cards in a suit, as (length, top rank, suit), best first."""
    cdef uint64_t h = _mask(hand)
    cdef int s, r, run, m
    out = []
    for s in range(4):
        m = <int>((h >> (16 * s)) & 0x1FFF)
        run = 0
        for r in range(14):
            if r < 13 and (m >> r) & 1:
                run += 1
            else:
                if run >= 3:
                    out.append((run, r - 1, s))
                run = 0
    out.sort(reverse=True)
    return out


def sets(hand):
    """Every trio or quatorze of tens or higher, as (size, rank), best first."""
    cdef int counts[13]
    cdef int r, c
    for r in range(13):
        counts[r] = 0
    for c in hand:
        counts[c & 15] += 1
    out = [(counts[r], r) for r in range(_TEN, 13) if counts[r] >= 3]
    out.sort(reverse=True)
    return out


def sequence_value(int length):
    """Tierce 3, quart 4, then the traditional values: quint 15 ... huitième 18 (SPEC §4)."""
    return _seq_value(length)


def set_value(int size):
    """Trio 3, quatorze 14."""
    if size < 3:
        return 0
    return 3 if size == 3 else 14


def sequence_key(hand):
    cdef _Figures f
    _figures(_mask(hand), &f)
    return f.seq_key


def sequence_score(hand):
    """What all a hand's sequences score for the player who wins the sequence."""
    cdef _Figures f
    _figures(_mask(hand), &f)
    return f.seq_score


def set_key(hand):
    cdef _Figures f
    _figures(_mask(hand), &f)
    return f.set_key


def set_score(hand):
    cdef _Figures f
    _figures(_mask(hand), &f)
    return f.set_score


def is_carte_blanche(hand):
    """No jack, queen or king."""
    cdef int c
    for c in hand:
        if _JACK <= (c & 15) <= _KING:
            return False
    return True


def compare(elder_key, younger_key):
    """The winner of one category by keys: ELDER, YOUNGER or NOBODY (equal, or both 0)."""
    if elder_key > younger_key:
        return 0
    if younger_key > elder_key:
        return 1
    return -1


def repique(awards):
    """The seat that makes repique from declaration awards in scoring order, each
    (seat, points): 30 reached before the opponent has scored anything; else NOBODY."""
    cdef int got[2]
    cdef int seat, points
    got[0] = got[1] = 0
    for seat, points in awards:
        if points <= 0 or seat < 0 or seat > 1:
            continue
        got[seat] += points
        if got[seat] >= 30 and got[1 - seat] == 0:
            return seat
    return -1


def declare(elder, younger):
    """Both hands declare everything: the nine FIELDS (winner -1 and score 0 for a
    category nobody scores; the totals include the repique)."""
    cdef int32_t o[9]
    _declare(_mask(elder), _mask(younger), o)
    return (o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8])


def declare_masks(elder, younger):
    """declare() for two hand masks."""
    cdef int32_t o[9]
    _declare(elder, younger, o)
    return (o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8])


def declare_batch(const uint64_t[::1] elders, const uint64_t[::1] youngers, int32_t[::1] out):
    """declare_masks over arrays of hand masks (array('Q')); writes the nine FIELDS of
    pair i to out[9*i : 9*i+9] (array('i') of 9*n) and returns n."""
    cdef Py_ssize_t n = elders.shape[0], i
    if youngers.shape[0] != n or out.shape[0] < 9 * n:
        raise ValueError("declare_batch needs %d younger hands and room for %d answers, got %d and %d"
                         % (n, 9 * n, youngers.shape[0], out.shape[0]))
    with nogil:
        for i in range(n):
            _declare(elders[i], youngers[i], &out[9 * i])
    return n
