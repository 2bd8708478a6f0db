# Decks as lists of card codes, and the one shuffle.
# The shuffle takes its randomness as an argument: a seeded generator on the host,
# os.urandom on the board. The rules never shuffle.
from . import wire as W
from .cards import card

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
    """The fresh pack a shoe loads for SHUFFLE [size] (wire.py's pack sizes)."""
    if size == W.PACK_32:
        return deck32()
    if size == W.PACK_36:
        return deck36()
    if size == W.PACK_52:
        return deck52()
    if size == W.SHOE_104:
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
