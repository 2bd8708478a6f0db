# What every game's renderer and recorder share: cards and seats in words.
from tapis.firmware.cards import RANKS, is_card, name, rank, suit

SYMBOLS = "♠♥♦♣"
SEAT_NAMES = ("West", "East", "North")  # table seats; more are "Seat n" (the gallery)


def seat_name(seat):
    return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else "Seat %d" % seat


def pretty(c, symbols=True):
    if c is None:
        return "??"
    return RANKS[rank(c)] + SYMBOLS[suit(c)] if symbols else name(c)


def card_names(v):
    """Cards by name, tuples as lists, anything else as it is."""
    if isinstance(v, (tuple, list)):
        return [card_names(x) for x in v]
    return name(v) if is_card(v) else v


def as_json(v):
    """Tuples as lists."""
    if isinstance(v, (tuple, list)):
        return [as_json(x) for x in v]
    return v
