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


def port(text):
    """A serial port as given to --port: a device path, a pty or a pyserial URL; never empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a serial port (a device path or a pyserial URL), got %r" % text)
    return text


def link_path(text):
    """A path the command makes a symlink (to its pty) at: not a folder, in a folder that is there."""
    import os
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a path for the link, got %r" % text)
    if os.path.lexists(text) and not os.path.islink(text):
        raise argparse.ArgumentTypeError("%s exists and is not a symlink: give a new path" % text)
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError("no folder %s for %s" % (folder, text))
    return text


def host_name(text):
    """A Host name a web service answers to: a DNS name (a leading "*." for its subdomains) or
    an IP address; never empty."""
    import ipaddress
    import re
    name = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        ipaddress.ip_address(name)
        return text
    except ValueError:
        pass
    label = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
    if not re.fullmatch(r"(\*\.)?%s(\.%s)*\.?" % (label, label), text) or len(text) > 253:
        raise argparse.ArgumentTypeError("expected a host name or an IP address, got %r" % text)
    return text


def ip_address(text):
    """An IP address or network (10.0.0.1, 10.0.0.0/8, ::1)."""
    import ipaddress
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False)) if "/" in text else \
            str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError("expected an IP address or network, got %r" % text)


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


def check_backend(args):
    """--workers and --scheduler (simulate, lab): refused before anything runs (exit 2, one line)."""
    from tapis.simulator.montecarlo import workers as W

    if args.scheduler is not None:
        if args.workers is not None:
            args.parser.error("--workers goes without --scheduler: the scheduler's workers run the chunks")
        try:
            import distributed  # noqa: F401
        except ImportError:
            args.parser.error("--scheduler needs Dask distributed: pip install 'tapis-table[dask]'")
    most = W.max_workers()
    if args.workers is not None and args.workers > most:
        args.parser.error("--workers %d: at most %d on this machine (four per CPU)" % (args.workers, most))


def seed(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a seed is a whole number, got %r" % text)
    if not 0 <= n < 2 ** 256:
        raise argparse.ArgumentTypeError("a seed is between 0 and 2**256-1, got %r" % text)
    return n


def new_seed():
    """A fresh seed for a run the user gave none: 128 random bits (secrets), printed for
    replay; it keys the CSPRNG (firmware/offboard/rng.py) with all of them."""
    import secrets

    return secrets.randbits(128)


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
MOST_SECONDS = 7 * 24 * 3600  # any wait or run longer is a slip of the keyboard


def _number(text):
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a number of seconds, got %r" % text)
    if x != x or x in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError("expected a finite number of seconds, got %r" % text)
    if x > MOST_SECONDS:
        raise argparse.ArgumentTypeError("expected at most %d seconds (a week), got %r" % (MOST_SECONDS, text))
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


def variant_options(args):
    """The game's options for --variant (None: the defaults); a name the game does not
    have is the parser's error, naming those it has."""
    if args.variant is None:
        return None
    from tapis.firmware.offboard import named

    try:
        return named.options(args.game, args.variant)
    except ValueError as e:
        args.parser.error(str(e))
