# The table's accounting meters, in critical memory (docs/protocol.md "Meters"): counted
# from the records the journal writes (the rules' events: where money moves), kept as
# unsigned 32-bit ints that roll over at 10^9 (ROLL: a regulator's 9 digits), and written
# as two copies beside the journal, each with its own check (an HMAC under the device key's
# b"meters" key; a SHA-256 sum without a key), right after the journal records that moved
# them (journal.py's hooks): the journal first, so a copy is never ahead of it. Each copy
# says the journal's size and last tag it reflects; at boot a copy behind the journal rolls
# forward over the records after it, a bad copy is rebuilt from the good one (on_event),
# two bad copies are a RAM error (on_tilt). The copies are compared again at every commit,
# before and after it is written, so before and after every deal.
import struct
from hashlib import sha256

from .compat import const
from .mac import derive, keyed, pads

ROLL = 1000000000  # every meter rolls over to 0 here
TABLE = ("deals", "games", "voids", "power_ups", "house", "overrides", "laid", "broken",
         "bank_won", "bank_lost", "seats")
TILTS = ("ram", "software", "journal", "door", "shoe", "bus", "other")
SEAT = ("wagered", "won", "lost", "pushed", "commission")
_DEALS, _GAMES, _VOIDS, _POWER, _HOUSE, _OVER, _LAID, _BROKEN, _BWON, _BLOST, _SEATS = range(11)
_TILT0 = const(11)
SEAT0 = const(18)  # seat s's meters at SEAT0 + 5 s (8 seats: wire.SEATS)
TAB0 = const(58)  # club: tableau t (1..3) at TAB0 + 5 (t - 1)
N = const(73)
_SUP = const(-2)  # the supervisor's seat in a rules action (supervise.py)
_HEAD = "<2sBBII8s"  # b"TM", version, N, generation, journal size, its last 8 bytes
_SIZE = const(20)
_VERSION = const(1)


class MeterError(Exception):
    """Both copies of the meters are bad: a RAM error (the table stops)."""


def _stop(cls, detail):
    raise MeterError("%s error: %s" % (cls, detail))


class FileCopy:
    """A copy in a file (the board's, beside the journal): written whole to a temporary
    file, renamed over the last (a power cut leaves the old copy or the new, never half)."""

    def __init__(self, path):
        self.path = path

    def read(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return b""

    def replace(self, b):
        import os
        with open(self.path + ".new", "wb") as f:
            f.write(b)
        os.rename(self.path + ".new", self.path)


def beside(journal_path):
    """The copies' paths beside a journal file: journal.bin -> journal.meters.a and .b."""
    p = journal_path[:-4] if journal_path.endswith(".bin") else journal_path
    return p + ".meters.a", p + ".meters.b"


class Meters:
    def __init__(self, a, b, key=None, on_event=None, on_tilt=None):
        """a, b: the two copies (read() -> bytes, b"" if none; replace(bytes)); key: the
        device key; on_event(cls, detail): a copy repaired; on_tilt(cls, detail): both bad
        (default: MeterError)."""
        self.copies = (a, b)
        self.pads = pads(derive(key, b"meters")) if key else None
        self.m = [0] * N
        self.gen, self.pos, self.tag = 0, 0, bytes(8)
        self.image = b""  # what the copies hold, as last written
        self.dirty = False
        self.fee = 0  # club: the commission moved for the stake settled next
        self.events = []
        self.on_event = on_event or (lambda cls, detail: self.events.append((cls, detail)))
        self.on_tilt = on_tilt or _stop

    # ---- counting -------------------------------------------------------------------
    def add(self, i, n=1):
        if n:
            self.m[i] = (self.m[i] + n) % ROLL
            self.dirty = True

    def _stake(self, row, amount, col, x):
        self.add(row, amount)
        self.add(row + col, x)
        self.add(row + 4, self.fee)

    def feed(self, recs):
        """Records the journal writes (journal.py): what they move is counted."""
        for rec in recs:
            k = rec["k"]
            if k == "i" or k == "b":
                a = rec.get("a")
                if a is not None and a[1] == _SUP:
                    self.add(_OVER)
                for e in rec["e"]:
                    self.event(e[0], e[1], e[2])
            elif k == "v":  # a deal voided (a power loss while dealt, or the supervisor)
                self.add(_VOIDS)
                if "supervisor" in rec.get("why", ""):
                    self.add(_OVER)
            elif k == "e":  # a game ended (journal.next_game)
                self.add(_GAMES)

    def event(self, kind, seat, v):
        """One rules event: écarté's "pay" and "pool", club's "move" and "settle"."""
        if kind == "deal":
            self.add(_DEALS)
        elif kind == "void":
            self.add(_VOIDS)
        elif kind == "pay":  # écarté: (payer, (payee, amount)); payee "pool": into the pool
            payee, n = v[0], v[1]
            self.add(SEAT0 + 5 * seat, n)
            self.add(SEAT0 + 5 * seat + 2, n)
            if payee != "pool":
                self.add(SEAT0 + 5 * payee, n)
                self.add(SEAT0 + 5 * payee + 1, n)
        elif kind == "pool":  # écarté: the pool taken
            self.add(SEAT0 + 5 * seat + 1, v)
        elif kind == "move":  # club: (from, to, amount); to the house: a commission
            if v[1] == "house":
                self.add(_HOUSE, v[2])
                self.fee += v[2]
        elif kind == "settle":  # club: (tableau, amount, outcome, net); outcome 1 banker, -1 punter
            t, amount, outcome, net = v[0], v[1], v[2], v[3]
            col, x = (2, amount) if outcome == 1 else (1, net) if outcome == -1 else (3, amount)
            self._stake(SEAT0 + 5 * seat, amount, col, x)
            self._stake(TAB0 + 5 * (t - 1), amount, col, x)
            if outcome == 1:
                self.add(_BWON, amount - self.fee)
            elif outcome == -1:
                self.add(_BLOST, net + self.fee)
            self.fee = 0
        elif kind == "lay":
            self.add(_LAID)
        elif kind == "broken":
            self.add(_BROKEN)

    def tilt(self, cls, journal=None):
        """A tilt of class `cls` counted (TILTS; others as "other"), and committed."""
        self.add(_TILT0 + (TILTS.index(cls) if cls in TILTS else len(TILTS) - 1))
        if journal is not None:
            journal.flush()
            self.commit(journal)

    def seat_count(self, n):
        if self.m[_SEATS] != n:
            self.m[_SEATS] = n
            self.dirty = True

    # ---- the copies -----------------------------------------------------------------
    def _sum(self, body):
        if self.pads is not None:
            return keyed(self.pads, b"", body)[:8]
        return sha256(body).digest()[:8]

    def pack(self):
        body = struct.pack(_HEAD, b"TM", _VERSION, N, self.gen, self.pos, self.tag) + \
            struct.pack("<%dI" % N, *self.m)
        return body + self._sum(body)

    def unpack(self, b):
        """(generation, size, tag, meters) of a copy's bytes, None if it fails its check."""
        if len(b) != _SIZE + 4 * N + 8 or self._sum(b[:-8]) != b[-8:]:
            return None
        magic, v, n, gen, pos, tag = struct.unpack_from(_HEAD, b)
        if magic != b"TM" or v != _VERSION or n != N:
            return None
        return gen, pos, tag, list(struct.unpack_from("<%dI" % N, b, _SIZE))

    def commit(self, journal, force=False):
        """Write both copies (the journal's records are on flash): the copies compared
        before and after. Only when a meter moved (or force: a compaction, a boot)."""
        if not (self.dirty or force):
            return
        self.check()
        self.pos = p = journal.size
        if journal.pads is not None:  # a keyed journal's head: its last record's tag
            self.tag = journal.head
        else:
            self.tag = journal.store.read_at(p - 8, 8) if p >= 8 else bytes(8)
            journal.store.close()  # (a file kept open holds a buffer of the heap)
        self.gen += 1
        self.image = self.pack()
        for c in self.copies:
            c.replace(self.image)
        self.dirty = False
        self.check()

    def check(self):
        """The copies compared with what was last written: one bad is rebuilt from the
        other (on_event), both bad is a RAM error (on_tilt)."""
        if not self.image:
            return
        a, b = [c.read() == self.image for c in self.copies]
        if a and b:
            return
        if not a and not b:
            return self.on_tilt("ram", "both copies of the meters are bad")
        bad = 0 if not a else 1
        self.copies[bad].replace(self.image)
        self.on_event("meters", "meter copy %s was bad: rebuilt from copy %s" % ("ab"[bad], "ab"[1 - bad]))
