# The meters' layout, defined once (docs/certification.md "What each meter sums",
# docs/protocol.md "Meters"): which meter is where, what record field or rules event each
# sums (Tally.feed, Tally.event), and a copy's bytes (pack, parse, unpack) with the chain of
# custody they carry: the journal's head (size, tag), the event log's (seq, tag), the
# off-flash counter's value and the power-up counted with its entry (docs/security.md).
# The firmware (tally.py, commands.py) and the host (host/memory/meters.py) import it.
import struct
from array import array
from hashlib import sha256

from ..compat import const
from ..mac import keyed, pads

ROLL = 1000000000  # every meter rolls over to 0 here (9 digits)
TILTS = ("ram", "software", "journal", "door", "shoe", "bus", "other")
# the table's meters, in order (their names as tapis meters says them: host/memory/meters.py)
TABLE = ("deals", "games", "voids", "power_ups", "house", "overrides", "laid", "broken", "bank_won",
         "bank_lost", "seats")
_DEALS, _GAMES, _VOIDS, _POWER, _HOUSE, _OVER, _LAID, _BROKEN, _BWON, _BLOST, _SEATS = range(11)
TILT0 = const(11)  # the tilts by class, TILTS's order
SEAT0 = const(18)  # seat s's wagered, won, lost, pushed, commission at SEAT0 + 5 s (8 seats)
TAB0 = const(58)  # club: tableau t's (1..3) at TAB0 + 5 (t - 1)
LATER = ("finished", "recuts")  # version 3's, after the tableaux: deals finished, cuts redone
FINISHED = const(73)
_RECUT = const(74)
N = const(75)
_OLD = const(73)  # versions 1 and 2: the meters before LATER
_SUP = const(-2)  # the supervisor's seat in a rules action (commands.py)
_HEAD = "<2sBBII8s"  # b"TM", version, N, generation, journal size, the journal's last 8 bytes there
_SIZE = const(20)  # then the N meters, the event log's (seq, tag), the counter, the power-up, the check
_VERSION = const(3)
_KING = ("king", "turned king", "void")  # écarté's scores that do not end a deal by themselves


class Tally:
    """The meters (m, N ints: an array("I") read from a copy), the copies' gen, the journal's pos and tag, the event log's
    ev and lt (its last entry written and the tag it ends with), cnt (the off-flash
    counter's value the copies are bound to: 0 without one), pw (the seq of the power-up
    counted whose entry the board held when it committed: 0 if none)."""

    def __init__(self, gen=0, pos=0, tag=bytes(8), m=None, ev=0, lt=bytes(8), cnt=0, pw=0):
        self.gen, self.pos, self.tag, self.ev, self.lt, self.cnt, self.pw = gen, pos, tag, ev, lt, cnt, pw
        self.m = m or [0] * N
        self.fee = 0  # club: the commission moved for the stake settled next
        self.king = False  # écarté: the record's last score was a king's (a game it ends ends the deal)
        self.ecarte = False  # the game counted is écarté (its scores end its deals): the journal's name, its "b"

    def add(self, i, n=1):
        self.m[i] = (self.m[i] + n) % ROLL

    def _stake(self, row, amount, col, x):
        self.add(row, amount)
        self.add(row + col, x)
        self.add(row + 4, self.fee)

    def feed(self, rec):
        """A journal record: what its events move is counted."""
        k = rec.get("k")
        if k == "i" or k == "b":
            if k == "b":
                self.ecarte = rec.get("g") == "ecarte"
            a = rec.get("a")
            if a is not None and a[1] == _SUP:  # the supervisor's action (limits, a bank given)
                self.add(_OVER)
            for e in rec["e"]:
                self.event(e[0], e[1], e[2])
        elif k == "v":  # a deal voided (a power loss while it was dealt, or the supervisor)
            self.add(_VOIDS)
            if "supervisor" in rec.get("why", ""):
                self.add(_OVER)
        elif k == "e":  # a game ended (journal.next_game)
            self.add(_GAMES)

    def event(self, kind, seat, v):
        """One rules event: a deal begun, finished or voided, a cut redone; écarté's "pay"
        and "pool", club's "move" and "settle"."""
        if kind == "deal":
            self.add(_DEALS)
        elif kind == "void":  # piquet's cut redone for a missing card is no deal voided
            self.add(_RECUT if v == "the players cut again" else _VOIDS)
        elif kind == "end":  # piquet's and club's deal over
            self.add(FINISHED)
        elif kind == "score" and self.ecarte:  # a deal's last score (a king's only when it ends the game)
            self.king = v[1] in _KING
            if not self.king:
                self.add(FINISHED)
        elif kind == "game" and self.ecarte:
            if self.king and seat >= 0:
                self.add(FINISHED)
            self.king = False
        elif kind == "pay":  # écarté: (payer, (payee, amount)); payee "pool": into the pool
            self._stake(SEAT0 + 5 * seat, v[1], 2, v[1])
            if v[0] != "pool":
                self._stake(SEAT0 + 5 * v[0], v[1], 1, v[1])
        elif kind == "pool":  # écarté: the pool taken
            self.add(SEAT0 + 5 * seat + 1, v)
        elif kind == "move":  # club: (from, to, amount); to the house: a commission
            if v[1] == "house":
                self.add(_HOUSE, v[2])
                self.fee += v[2]
        elif kind == "settle":  # club: (tableau, amount, outcome, net); outcome 1 banker, -1 punter
            amount, outcome, net = v[1], v[2], v[3]
            col, x = (2, amount) if outcome == 1 else (1, net) if outcome == -1 else (3, amount)
            self._stake(SEAT0 + 5 * seat, amount, col, x)
            self._stake(TAB0 + 5 * (v[0] - 1), amount, col, x)
            if outcome == 1:
                self.add(_BWON, amount - self.fee)
            elif outcome == -1:
                self.add(_BLOST, net + self.fee)
            self.fee = 0
        elif kind == "lay":
            self.add(_LAID)
        elif kind == "broken":
            self.add(_BROKEN)


def read(c):
    """A copy's bytes (b"" if it has none): a file's (its path) or an object's."""
    if not isinstance(c, str):
        return c.read()
    try:
        with open(c, "rb") as f:
            return f.read()
    except OSError:
        return b""


def _sum(key, body):
    return keyed(pads(key), b"", body)[:8] if key else sha256(body).digest()[:8]


def pack(key, t):
    body = struct.pack(_HEAD, b"TM", _VERSION, N, t.gen, t.pos, t.tag) + struct.pack("<%dI" % N, *t.m) + \
        struct.pack("<I8sII", t.ev, t.lt, t.cnt, t.pw)  # (no list of N + 1 made: the pit asks as the heap is tight)
    return body + _sum(key, body)


def _size(v):  # a copy's length by its version: version 1's has no EVENT, 3's the custody
    return _SIZE + 4 * (N if v > 2 else _OLD) + (0, 8, 12, 28)[v]  # (the check, 8 bytes, last)


def parse(b):
    """A copy's bytes as a Tally, its check not checked (a METERED frame, the link's own
    seal checked); None if they are not a copy's. Versions 1 and 2 (73 meters, no
    custody) read with the later meters 0."""
    if len(b) < 5 or b[:2] != b"TM" or not 0 < b[2] <= _VERSION or len(b) != _size(b[2]) or \
            b[3] != (N if b[2] > 2 else _OLD):
        return None
    _m, v, n, gen, pos, tag = struct.unpack_from(_HEAD, b)
    m = array("I", b[_SIZE:_SIZE + 4 * n])  # (4 bytes a meter: a list of N is twice that on a 64-bit port)
    if n < N:
        m.extend(array("I", bytes(4 * (N - n))))  # LATER's
    if v < 3:
        return Tally(gen, pos, tag, m, struct.unpack_from("<I", b, _SIZE + 4 * n)[0] if v > 1 else 0)
    ev, lt, cnt, pw = struct.unpack_from("<I8sII", b, _SIZE + 4 * n)
    return Tally(gen, pos, tag, m, ev, lt, cnt, pw)


def unpack(key, b):
    """A copy's bytes as a Tally; None if they fail their check."""
    return parse(b) if len(b) > 8 and _sum(key, b[:-8]) == b[-8:] else None
