# The distinct écarté positions (elder's 5 cards and the turned card) under the symmetries
# that change neither the double-dummy odds nor the seed-002 verdict, each with how many of
# the C(32,5) * 27 = 5,437,152 positions it stands for (its multiplicity).
#
# - Suits: the trump suit can be any of four, and the three plain suits permute.
# - The turned card: it is out of play, so only the order of the other seven trumps matters.
#   A position's trumps are a 7-bit mask over the trumps in play, low to high. One thing more
#   is kept: whether elder holds the king (he scores it, and the advice asks after it). Holding
#   the top trump in play is holding the king, unless the king is the turned card.
# A class is (elder's trumps, trump mask, king, plain masks): plain masks are 8-bit masks over
# 7 8 9 T A J Q K, as a descending triple. Everything the search looks at is kept, so one
# representative answers for the class; tests check this against positions drawn at random.
from tapis.firmware.cards import HEARTS, KING

# Ranks low to high in écarté (king high): 7 8 9 T A J Q K as rank codes.
ORDER = (5, 6, 7, 8, 12, 9, 10, 11)
TOTAL_POSITIONS = 201376 * 27  # C(32,5) hands, then 27 turned cards: 5,437,152
CLASSES = 37380  # len(classes()), tested
_PLAIN = (0, 2, 3)  # the representative's plain suits: spades, diamonds, clubs (hearts trump)


def _bits(m):
    return bin(m).count("1")


def key(hand, turned):
    """The class of a position (elder's 5 card codes, the turned card code)."""
    trump = turned >> 4
    in_play = [r for r in ORDER if r != turned & 15]
    ranks = {c & 15 for c in hand if c >> 4 == trump}
    tmask = sum(1 << i for i, r in enumerate(in_play) if r in ranks)
    plain = []
    for s in range(4):
        if s != trump:
            held = {c & 15 for c in hand if c >> 4 == s}
            plain.append(sum(1 << i for i, r in enumerate(ORDER) if r in held))
    return (len(ranks), tmask, KING in ranks, tuple(sorted(plain, reverse=True)))


def _arrangements(plain):
    """In how many ways the three plain masks go to the three plain suits."""
    return {3: 6, 2: 3, 1: 1}[len(set(plain))]


def _turnings(tmask, king):
    """How many turned cards give this trump mask and king: see the header."""
    if not tmask >> 6 & 1:
        return 8  # elder lacks the top trump in play: any card may be turned
    return 7 if king else 1  # the top in play is the king (7 turned cards) or the turned king's queen


def representative(k):
    """A position of class `k`: hearts trump; the plain masks to spades, diamonds, clubs; the
    seven is turned, or the king when elder's top trump in play is not the king."""
    _n, tmask, king, plain = k
    turned = HEARTS << 4 | (KING if tmask >> 6 & 1 and not king else ORDER[0])
    in_play = [r for r in ORDER if r != turned & 15]
    hand = [HEARTS << 4 | in_play[i] for i in range(7) if tmask >> i & 1]
    for s, m in zip(_PLAIN, plain):
        hand += [s << 4 | ORDER[i] for i in range(8) if m >> i & 1]
    return hand, turned


def multiplicity(k):
    """How many of the 5,437,152 positions class `k` stands for."""
    _n, tmask, king, plain = k
    return 4 * _turnings(tmask, king) * _arrangements(plain)


def _triples(cards):
    """Every descending triple of plain masks holding `cards` cards in all."""
    by_count = [[m for m in range(256) if _bits(m) == n] for n in range(9)]
    out = []
    for na in range(cards + 1):
        for nb in range(cards - na + 1):
            nc = cards - na - nb
            for a in by_count[na]:
                for b in by_count[nb]:
                    if b <= a:
                        out += [(a, b, c) for c in by_count[nc] if c <= b]
    out.sort()
    return out


def classes():
    """Every class, in a fixed order (elder's trumps, trump mask, king, plain masks)."""
    out = []
    for n in range(6):
        triples = _triples(5 - n)
        for tmask in range(128):
            if _bits(tmask) == n:
                for king in ((False, True) if tmask >> 6 & 1 else (False,)):
                    out += [(n, tmask, king, p) for p in triples]
    return out
