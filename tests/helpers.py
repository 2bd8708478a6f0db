# Small builders for golden écarté (and piquet) tests.
from tapis.firmware.cards import parse_list
from tapis.firmware.games.ecarte import rules as R


def pack_for(elder, dealer, turn, packets=(3, 2), rest=""):
    """The shoe order that deals `elder` and `dealer` (5 cards each) and turns `turn`."""
    e, d = parse_list(elder), parse_list(dealer)
    a, b = packets
    return e[:a] + d[:a] + e[a:] + d[a:] + parse_list(turn) + parse_list(rest)


def dealt(elder, dealer, turn, first_dealer=0, options=None, **kw):
    """A fresh game with this first deal applied. Seat `first_dealer` deals."""
    g = R.Ecarte(options, first_dealer=first_dealer)
    packets = g.options.packets
    for c in pack_for(elder, dealer, turn, packets, **kw)[:11]:
        g.apply(("shoe", R.CHANCE, c))
    return g


def piquet_pack(elder, younger, talon, packets=2):
    """The shoe order that deals piquet's `elder` and `younger` 12 cards each, in packets,
    then the talon."""
    e, y = parse_list(elder), parse_list(younger)
    out = []
    for i in range(0, 12, packets):
        out += e[i:i + packets] + y[i:i + packets]
    return out + parse_list(talon)


def piquet_dealt(elder, younger, talon, options=None):
    """A fresh piquet game (seat 1 deals, so seat 0 is elder) with this deal delivered."""
    from tapis.firmware.games.piquet import rules as P
    g = P.Piquet(options, first_dealer=1)
    for c in piquet_pack(elder, younger, talon, g.options.packets):
        g.apply(("shoe", R.CHANCE, c))
    return g


def shoe(g, cards):
    for c in parse_list(cards):
        g.apply(("shoe", R.CHANCE, c))


def snapshot(g):
    """Everything a rule could change, as comparable data."""
    keep = {}
    for k, v in sorted(vars(g).items()):
        if k in ("ev", "options", "strength", "_out"):
            continue
        keep[k] = repr(v)
    return keep


def records_heard(console, ftype=None):
    """Every RECORD frame (or frame of `ftype`) the console's link takes, kept as it polls
    (a seat's console that asks for RECALL or VERIFY: what it was answered)."""
    from tapis.firmware import wire as W
    ftype = W.RECORD if ftype is None else ftype
    heard = []
    poll = console.link.poll

    def spy(now_ms=None):
        out = poll(now_ms)
        heard.extend(f for f in out if f[2] == ftype)
        return out
    console.link.poll = spy
    return heard


# The table's end of a pseudo-terminal, raw and non-blocking, as a Port (read, write): a host
# tool opens its `name` with pyserial as it would a board's USB (tapis table --host-port's).
from tapis.host.table.hostport import Pty as PtyEnd  # noqa: E402


def until(step, done, most, what="steps"):
    """step() until done(), at most `most` times: a table plays on between a host's
    questions as many steps as its links' timing takes, so a test waits for what it looks
    for, bounded, rather than a fixed count (which load makes flaky)."""
    for _ in range(most):
        step()
        if done():
            return
    raise AssertionError("not done in %d %s" % (most, what))


def within(seconds, done, what, every=0.05):
    """Wait for what another process does: until done(), checked every `every` s, at most
    `seconds` of wall time (never a fixed sleep, which load makes flaky or slow)."""
    import time

    if not done():
        until(lambda: time.sleep(every), done, max(1, int(seconds / every)), "%s (%g s)" % (what, seconds))


def queued(path):
    """How many bytes wait in the input queue of the pseudo-terminal's end at `path` (written to
    its master, not yet read by the process that has it open, nor flushed)."""
    import fcntl
    import os
    import struct
    import termios

    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)  # (only asked, never read)
    try:
        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
    finally:
        os.close(fd)


def drained(path, seconds=30):
    """Wait until what was written to the pseudo-terminal at `path` has left its input queue:
    read by the process that has it open, or flushed as pyserial does as it opens a port (after
    which nothing written is flushed). Bounded: `seconds` of wall time."""
    within(seconds, lambda: queued(path) == 0, "the bytes written to %s taken" % path, every=0.005)
