# Argument types shared by the subcommands: each refuses bad text with a clear message
# (argparse turns it into exit code 2).
import argparse

from tapis.firmware.cards import CardError, parse, parse_list


def positive(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a whole number, got %r" % text)
    if n < 1:
        raise argparse.ArgumentTypeError("expected a number of at least 1, got %r" % text)
    return n


def seed(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a seed is a whole number, got %r" % text)
    if not 0 <= n < 2 ** 63:
        raise argparse.ArgumentTypeError("a seed is between 0 and 2**63-1, got %r" % text)
    return n


def card(text):
    try:
        return parse(text)
    except CardError as e:
        raise argparse.ArgumentTypeError(str(e))


def cards(text):
    try:
        return parse_list(text)
    except CardError as e:
        raise argparse.ArgumentTypeError(str(e))


def bots(text):
    """--bots: one strength for every bot seat ("advisor"), or strengths by seat
    ("0=advisor,1=random"; seats not named keep the default). -> {seat or None: level}.
    The levels themselves are checked against the game's kit (seat_bots)."""
    out = {}
    for part in text.split(","):
        part = part.strip()
        seat, eq, level = part.rpartition("=")
        if not level or (eq and not seat):
            raise argparse.ArgumentTypeError("--bots wants LEVEL or SEAT=LEVEL,..., got %r" % text)
        if not eq:
            key = None
        else:
            try:
                key = int(seat)
            except ValueError:
                raise argparse.ArgumentTypeError("--bots: a seat is a number, got %r in %r" % (seat, text))
        if key in out:
            raise argparse.ArgumentTypeError("--bots names %s twice in %r" % (
                "every seat" if key is None else "seat %d" % key, text))
        out[key] = level
    return out


def seat_bots(game, spec, seats, person=None):
    """{seat: level} for every bot seat of `game` (0..seats-1 but `person`) from --bots's
    spec (None: "rules" everywhere); ValueError saying what is wrong."""
    from tapis.simulator import kits

    spec = spec or {}
    levels = kits.levels(game)
    for seat, level in spec.items():
        if seat is not None and not 0 <= seat < seats:
            raise ValueError("--bots: %s has seats 0 to %d, not %d" % (game, seats - 1, seat))
        if seat is not None and seat == person:
            raise ValueError("--bots: seat %d is yours, not a bot's" % seat)
        if level not in levels:
            raise ValueError("--bots: %s has no bots of strength %r; it has: %s" % (
                game, level, ", ".join(levels)))
    every = spec.get(None, "rules")
    return {s: spec.get(s, every) for s in range(seats) if s != person}
