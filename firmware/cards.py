# Card codes are small ints: suit << 4 | rank, rank 0..12 for 2..A, suits S H D C.
# Rank and suit are one-line helpers, and a per-suit bitmask of ranks fits in 13 bits.

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SPADES = 0
HEARTS = 1
DIAMONDS = 2
CLUBS = 3

SEVEN = 5
TEN = 8
JACK = 9
QUEEN = 10
KING = 11
ACE = 12


class CardError(ValueError):
    pass


def card(rank, suit):
    return suit << 4 | rank


def rank(c):
    return c & 15


def suit(c):
    return c >> 4


def parse(text):
    """'7H', 'TS', '10S' -> code. Raises CardError quoting the bad text."""
    if not isinstance(text, str):
        raise CardError("card code must be text, got %r" % (text,))
    t = text.strip().upper()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(
            "bad card code %r: expected rank %s then suit %s, e.g. 'KH'" % (text, RANKS, SUITS)
        )
    return card(RANKS.index(t[0]), SUITS.index(t[1]))


def parse_list(text):
    """'7H,KS QS' -> [codes]; commas and spaces both separate."""
    return [parse(t) for t in text.replace(",", " ").split()]


def name(c):
    if not is_card(c):
        raise CardError("bad card %r: not a card code" % (c,))
    return RANKS[c & 15] + SUITS[c >> 4]


def names(cs):
    return [name(c) for c in cs]


def is_card(c):
    return isinstance(c, int) and 0 <= c < 64 and (c & 15) < 13
