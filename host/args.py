# Argument types shared by the subcommands: each refuses bad text with a clear message
# (argparse turns it into exit code 2).
#
# Cards are taken as tapis prints them, not only as the board's parser takes them
# (firmware/cards.py, kept small for the board's heap): `7♥`, `10H`, `t♠`, and a hand pasted
# whole from a deal record (`["7D", "TD", "JS"]`) or from the table's watch (`J♠ 7♦ T♦`).
import argparse

from tapis.firmware.cards import CardError, parse

SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_SEPARATORS = str.maketrans({c: " " for c in ",;[]()\"'"})


def positive(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a whole number, got %r" % text)
    if n < 1:
        raise argparse.ArgumentTypeError("expected a number of at least 1, got %r" % text)
    return n


def cores():
    """The processors this process may run on."""
    import os
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers(text):
    """A number of worker processes: 1 up to four a core (more only queue for the processors)."""
    n = positive(text)
    most = 4 * cores()
    if n > most:
        raise argparse.ArgumentTypeError("at most %d worker processes (4 per core, %d cores here), got %r"
                                         % (most, cores(), text))
    return n


def seed(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a seed is a whole number, got %r" % text)
    if not 0 <= n < 2 ** 63:
        raise argparse.ArgumentTypeError("a seed is between 0 and 2**63-1, got %r" % text)
    return n


def _code(token):
    """One printed card ('7♥', '10H', 'ks', '"QC"') -> its code; CardError quotes the token."""
    t = token.replace("\ufe0f", "").replace("\ufe0e", "")  # emoji / text presentation selectors
    t = t[:-1] + SUIT_SYMBOLS[t[-1]] if t and t[-1] in SUIT_SYMBOLS else t
    try:
        return parse(t)
    except CardError:
        raise CardError("bad card code %r: expected a rank 2-9, T (or 10), J, Q, K, A and a suit "
                        "S H D C (or ♠ ♥ ♦ ♣), e.g. 'KH', '10♥'" % token) from None


def parse_cards(text):
    """A hand as printed: cards separated by spaces or commas, brackets and quotes allowed."""
    return [_code(t) for t in text.translate(_SEPARATORS).split()]


def card(text):
    try:
        got = parse_cards(text)
        if len(got) != 1:
            raise CardError("expected one card, got %r" % text)
        return got[0]
    except CardError as e:
        raise argparse.ArgumentTypeError(str(e))


def cards(text):
    try:
        return parse_cards(text)
    except CardError as e:
        raise argparse.ArgumentTypeError(str(e))


def _number(text):
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a number of seconds, got %r" % text)
    if x != x or x in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError("expected a finite number of seconds, got %r" % text)
    return x


def seconds(text):
    """A duration: a number of seconds above 0."""
    x = _number(text)
    if x <= 0:
        raise argparse.ArgumentTypeError("expected a number of seconds above 0, got %r" % text)
    return x


def seconds_or_zero(text):
    """A pause: 0 (none) or a number of seconds above it; never negative."""
    x = _number(text)
    if x < 0:
        raise argparse.ArgumentTypeError("expected 0 or more seconds, got %r" % text)
    return x
