# The board's self-test, run after every reset before it talks to any device:
# the CRC and the frame codec against known vectors, the rules on a fixed deal, and the
# journal's integrity. run() returns a list of failures (empty: passed).
from . import wire as W
from . import frames as F
from .journal import JournalError, records

_FRAME = bytes((0xA5, 0x10, 0x01, 0x10, 0x00, 0x01, 0x1B, 0x35, 0x09))  # docs/protocol.md


def _codec():
    if F.crc16(b"123456789", 0xFFFF) != 0x29B1 or F.crc16_table(b"123456789") != 0x29B1:
        return "CRC-16/CCITT-FALSE check value wrong"
    if F.encode(0x10, 1, W.CARD, b"\x1b") != _FRAME:
        return "frame encoder gives the wrong bytes"
    if F.decode(_FRAME) != (0x10, 1, W.CARD, b"\x1b"):
        return "frame decoder gives the wrong frame"
    bad = bytearray(_FRAME)
    bad[6] ^= 1
    if F.Decoder().feed(bytes(bad)):
        return "a corrupt frame was accepted"
    return None


def _rules():
    """A fixed écarté deal: 10 cards and the turn-up, then the elder stands; the rules
    must see the turned king's point and accept only legal plays."""
    from .rules import CHANCE
    from .rules.ecarte import Ecarte
    g = Ecarte()
    cards = (0x0B, 0x0A, 0x09, 0x1B, 0x1A, 0x08, 0x07, 0x06, 0x18, 0x17, 0x2B)
    for c in cards:
        g.apply(("shoe", CHANCE, c))
    got = [e for e in g.log if e[0] == "score"]
    if not got or got[0][2][0] != 1:
        return "rules: the turned king did not score its point"
    if g.can(("play", g.to_act, 0x3C)):
        return "rules: a card nobody holds was playable"
    return None


def _any_rules(game):
    """Another game's rules: a fresh table refuses a nonsense action and changes nothing."""
    from .boot import kit
    from .rules import IllegalAction
    Rules, Options = kit(game)[0], kit(game)[1]
    g = Rules(Options())
    before = list(g.log)
    try:
        g.apply(("nonsense", 0, None))
    except IllegalAction:
        return None if g.log == before else "rules: a refused action changed the log"
    return "rules: %s took a nonsense action" % game


def _journal(store):
    if store is None:
        return None
    try:
        for _off, _rec in records(store):  # one record at a time
            pass
    except JournalError as e:
        return str(e)
    return None


def run(store=None, game="ecarte"):
    """The failures, or [] when every check passed. `game`: the rules this table plays
    (écarté is checked on a fixed deal; another game's rules must refuse nonsense)."""
    out = []
    rules = _rules if game == "ecarte" else (lambda: _any_rules(game))
    for check in (_codec, rules):
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
