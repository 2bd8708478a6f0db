# The board's self-test, run after every reset before it talks to any device:
# the CRC and the frame codec against known vectors, the rules on a fixed deal, and the
# journal's integrity (its chain, when keyed). run() returns a list of failures (empty: passed).
from .. import wire as W
from ..link.frames import Decoder, crc16, crc16_table, decode, encode
from ..journal.reader import records
from ..journal.store import JournalError

_FRAME = bytes((0xA5, 0x10, 0x01, 0x10, 0x00, 0x01, 0x1B, 0x35, 0x09))  # docs/protocol.md


def _codec():
    if crc16(b"123456789", 0xFFFF) != 0x29B1 or crc16_table(b"123456789") != 0x29B1:
        return "CRC-16/CCITT-FALSE check value wrong"
    if encode(0x10, 1, W.CARD, b"\x1b") != _FRAME:
        return "frame encoder gives the wrong bytes"
    if decode(_FRAME) != (0x10, 1, W.CARD, b"\x1b"):
        return "frame decoder gives the wrong frame"
    bad = bytearray(_FRAME)
    bad[6] ^= 1
    if Decoder().feed(bytes(bad)):
        return "a corrupt frame was accepted"
    return None


def _rules(game):
    """The rules of the game this table plays: its own check (its package's selftest
    module, écarté's fixed deal), or else a fresh table refuses a nonsense action and
    changes nothing."""
    from ..games import find
    from ..games.rules import IllegalAction
    package = find(game)
    if package.SELFTEST:
        return __import__(".".join((package.__name__, "selftest")), None, None, ("run",)).run()
    g = package.Rules(package.Options())
    before = list(g.log)
    try:
        g.apply(("nonsense", 0, None))
    except IllegalAction:
        return None if g.log == before else "rules: a refused action changed the log"
    return "rules: %s took a nonsense action" % game


def _journal(j):
    """A journal (journal.py: keyed, its chain is checked from its head) or a bare store."""
    if j is None:
        return None
    try:
        keyed = getattr(j, "pads", None) is not None
        for _off, _rec in (records(j.store, chain=j) if keyed else records(getattr(j, "store", j))):
            pass
    except JournalError as e:
        return str(e)
    return None


def run(store=None, game="ecarte"):
    """The failures, or [] when every check passed. `game`: the rules this table plays;
    store: a journal (its chain checked) or its store."""
    out = []
    for check in (_codec, lambda: _rules(game)):
        try:
            r = check()
        except Exception as e:  # a self-test reports, it does not crash the board
            r = "self-test: %r" % (e,)
        if r:
            out.append(r)
    r = _journal(store)
    if r:
        out.append(r)
    return out
