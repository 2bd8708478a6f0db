# Piquet declarations (SPEC §4, seed 003): point, sequence and sets of a 12-card hand,
# elder against younger, the scores and the repique. The pure twin of
# cython_core/declarations.pyx: same names, same answers.
#
# A hand is a list of card codes. A holding's key is a small int that compares as the
# rules do: point = cards << 8 | pips, sequence = length << 4 | top rank,
# set = size << 4 | rank; 0 means nothing to declare. A hand as a bitmask has bit
# `card` set for each card (hand_mask), which is what the batch API takes.
from ...cards import ACE as _ACE, JACK as _JACK, KING as _KING, TEN as _TEN

# Category results are (winner, score): winner 0 = elder, 1 = younger, -1 = nobody.
ELDER = 0
YOUNGER = 1
NOBODY = -1
REPIQUE = 60
PIQUE = 30
CARTE_BLANCHE = 10
# declare() answers these nine ints, in this order (the batch API writes them per pair)
FIELDS = ("point_winner", "point_score", "sequence_winner", "sequence_score",
          "sets_winner", "sets_score", "repique", "elder", "younger")


def pips(r):
    """A card's value for the point: ace 11, court cards 10, others their pips."""
    if r == _ACE:
        return 11
    return 10 if r >= _TEN else r + 2


def suit_masks(hand):
    """Four 13-bit masks of ranks, one per suit."""
    m = [0, 0, 0, 0]
    for c in hand:
        m[c >> 4] |= 1 << (c & 15)
    return m


def hand_mask(hand):
    """The hand as one int with bit `card` set per card (for the batch API)."""
    m = 0
    for c in hand:
        m |= 1 << c
    return m


def mask_cards(mask):
    """The card codes of a hand mask, ascending."""
    return [c for c in range(64) if mask >> c & 1]


def point_key(hand):
    """The best suit for the point: cards << 8 | pip total (0 for an empty hand)."""
    best = 0
    for m in suit_masks(hand):
        n = t = 0
        for r in range(13):
            if m >> r & 1:
                n += 1
                t += pips(r)
        k = n << 8 | t
        if k > best:
            best = k
    return best


def point_suit(hand):
    """The suit that makes the point (the first best one), or -1 for an empty hand."""
    best, which = 0, -1
    for s, m in enumerate(suit_masks(hand)):
        n = t = 0
        for r in range(13):
            if m >> r & 1:
                n += 1
                t += pips(r)
        if (n << 8 | t) > best:
            best, which = n << 8 | t, s
    return which


def sequences(hand):
    """Every sequence of 3+ consecutive cards in a suit, as (length, top rank, suit), best first."""
    out = []
    for s, m in enumerate(suit_masks(hand)):
        run = 0
        for r in range(14):
            if r < 13 and m >> r & 1:
                run += 1
            else:
                if run >= 3:
                    out.append((run, r - 1, s))
                run = 0
    out.sort(reverse=True)
    return out


def sets(hand):
    """Every trio or quatorze of tens or higher, as (size, rank), best first."""
    counts = [0] * 13
    for c in hand:
        counts[c & 15] += 1
    out = [(counts[r], r) for r in range(_TEN, 13) if counts[r] >= 3]
    out.sort(reverse=True)
    return out


def sequence_value(length):
    """Tierce 3, quart 4, then the traditional values: quint 15 ... huitième 18 (SPEC §4)."""
    if length < 3:
        return 0
    return length if length < 5 else length + 10


def set_value(size):
    """Trio 3, quatorze 14."""
    if size < 3:
        return 0
    return 3 if size == 3 else 14


def sequence_key(hand):
    s = sequences(hand)
    return s[0][0] << 4 | s[0][1] if s else 0


def sequence_score(hand):
    """What all a hand's sequences score for the player who wins the sequence."""
    t = 0
    for length, _top, _s in sequences(hand):
        t += sequence_value(length)
    return t


def set_key(hand):
    s = sets(hand)
    return s[0][0] << 4 | s[0][1] if s else 0


def set_score(hand):
    t = 0
    for size, _r in sets(hand):
        t += set_value(size)
    return t


def is_carte_blanche(hand):
    """No jack, queen or king."""
    for c in hand:
        if _JACK <= (c & 15) <= _KING:
            return False
    return True


def compare(elder_key, younger_key):
    """The winner of one category by keys: ELDER, YOUNGER or NOBODY (equal, or both 0)."""
    if elder_key > younger_key:
        return ELDER
    if younger_key > elder_key:
        return YOUNGER
    return NOBODY


def repique(awards):
    """The seat that makes repique from declaration awards in scoring order, each
    (seat, points): 30 reached before the opponent has scored anything; else NOBODY."""
    got = [0, 0]
    for seat, points in awards:
        if points <= 0 or seat not in (0, 1):
            continue
        got[seat] += points
        if got[seat] >= 30 and got[1 - seat] == 0:
            return seat
    return NOBODY


def declare(elder, younger):
    """Both hands declare everything: the nine FIELDS (winner -1 and score 0 for a
    category nobody scores; the totals include the repique)."""
    # each category's (winner, score) in scoring order; one tuple, not six arguments: on
    # the board every argument's name is interned
    awards = []
    for key, score in ((point_key, None), (sequence_key, sequence_score), (set_key, set_score)):
        w = compare(key(elder), key(younger))
        if w == NOBODY:
            awards.append((w, 0))
        else:
            hand = (elder, younger)[w]
            awards.append((w, point_key(hand) >> 8 if score is None else score(hand)))
    rq = repique(awards)
    tot = [0, 0]
    out = []
    for w, points in awards:
        out.extend((w, points))
        if w != NOBODY:
            tot[w] += points
    if rq != NOBODY:
        tot[rq] += REPIQUE
    return tuple(out) + (rq, tot[0], tot[1])


def declare_masks(elder, younger):
    """declare() for two hand masks."""
    return declare(mask_cards(elder), mask_cards(younger))


def declare_batch(elders, youngers, out):
    """declare_masks over arrays of hand masks (array('Q')); writes the nine FIELDS of
    pair i to out[9*i : 9*i+9] (array('i') of 9*n) and returns n."""
    n = len(elders)
    if len(youngers) != n or len(out) < 9 * n:
        raise ValueError("declare_batch needs %d younger hands and room for %d answers, got %d and %d"
                         % (n, 9 * n, len(youngers), len(out)))
    for i in range(n):
        r = declare_masks(elders[i], youngers[i])
        for k in range(9):
            out[9 * i + k] = r[k]
    return n
