# Decks as lists of card codes, and the one shuffle.
# The shuffle takes its randomness as an argument: a seeded generator on the host,
# os.urandom on the board. The rules never shuffle.
from ..cards import card

# The packs a shoe loads: SHUFFLE [size] (wire.py); a shoe of 104 has a cut card placed
# between these cards from the top (club écarté's shoe).
PACK_32 = 32  # piquet and écarté: 7 to ace
PACK_36 = 36  # piquet au cent: with the sixes
PACK_52 = 52
SHOE_104 = 104  # club écarté: two 52-card packs
CUT_SPAN = {SHOE_104: (52, 78)}

PIQUET_RANKS = (5, 6, 7, 8, 9, 10, 11, 12)  # 7..A: 32 cards, for piquet and écarté
CENT_RANKS = (4,) + PIQUET_RANKS  # with the sixes: piquet au cent, 36 cards


def deck(ranks=PIQUET_RANKS, copies=1):
    return [card(r, s) for _ in range(copies) for s in range(4) for r in ranks]


def deck32():
    return deck(PIQUET_RANKS)


def deck36():
    return deck(CENT_RANKS)


def deck52():
    return deck(range(13))


def shoe(decks=2):
    return deck(range(13), decks)


def pack(size):
    """The fresh pack a shoe loads for SHUFFLE [size]."""
    if size == PACK_32:
        return deck32()
    if size == PACK_36:
        return deck36()
    if size == PACK_52:
        return deck52()
    if size == SHOE_104:
        return shoe()
    raise ValueError("no pack of %r cards (32, 36, 52 or 104)" % (size,))


def shuffle(cards, randbelow):
    """Fisher-Yates in place. randbelow(n) returns a uniform int in [0, n)."""
    for i in range(len(cards) - 1, 0, -1):
        j = randbelow(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def urandom_below(n):
    """Uniform in [0, n) from os.urandom, by rejection (the board's source)."""
    import os

    limit = 65536 - 65536 % n
    while True:
        b = os.urandom(2)
        v = b[0] << 8 | b[1]
        if v < limit:
            return v % n
