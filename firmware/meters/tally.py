# The meters' work (meters.py holds only what stays in the heap): loaded at a commit, at
# boot and to answer METERS, unloaded after. A commit reads both copies, checks each (an
# HMAC under the device key's b"meters" key, a SHA-256 sum without one), takes the good one
# (of two good ones the newer: a power cut came between their writes), counts the journal's
# records written after the journal size it reflects (their events: where money moves),
# and writes both copies, then reads them back. A bad copy is rebuilt from the good one
# (meters.on_event), two bad are a RAM error (meters.on_tilt). The copy's format and what
# each meter counts: docs/protocol.md "Meters".
import json
import struct
from hashlib import sha256

from ..compat import const
from ..mac import keyed, pads
from ..journal.store import JournalError

ROLL = 1000000000  # every meter rolls over to 0 here (9 digits)
TILTS = ("ram", "software", "journal", "door", "shoe", "bus", "other")
_DEALS, _GAMES, _VOIDS, _POWER, _HOUSE, _OVER, _LAID, _BROKEN, _BWON, _BLOST, _SEATS = range(11)
_TILT0 = const(11)  # the tilts by class, TILTS's order
SEAT0 = const(18)  # seat s's wagered, won, lost, pushed, commission at SEAT0 + 5 s (8 seats)
TAB0 = const(58)  # club: tableau t's (1..3) at TAB0 + 5 (t - 1)
N = const(73)
_SUP = const(-2)  # the supervisor's seat in a rules action (commands.py)
_HEAD = "<2sBBII8s"  # b"TM", version, N, generation, journal size, the journal's last 8 bytes there
_SIZE = const(20)  # then the N meters, the event log's last entry (not in version 1's, still read), the check
_VERSION = const(2)


def read(c):
    """A copy's bytes (b"" if it has none): a file's (its path) or an object's."""
    if not isinstance(c, str):
        return c.read()
    try:
        with open(c, "rb") as f:
            return f.read()
    except OSError:
        return b""


def _write(c, b):
    if not isinstance(c, str):
        return c.replace(b)
    import os
    with open(c + ".new", "wb") as f:  # whole, then renamed: a power cut leaves the old or the new
        f.write(b)
    os.rename(c + ".new", c)


def _event(meters, detail):
    if meters.on_event is None:
        meters.events.append(("meter-repaired", detail))
    else:
        meters.on_event("meter-repaired", detail)


def _ram(meters, detail):
    if meters.on_tilt is None:
        raise JournalError("ram error: " + detail)  # (meters.MeterError)
    meters.on_tilt("ram-error", detail)


def beside(journal_path):
    """The copies' files beside a journal file: journal.bin -> journal.meters.a and .b
    (main.py names the board's, /journal.meters.a and .b)."""
    p = journal_path[:-4] if journal_path.endswith(".bin") else journal_path
    return p + ".meters.a", p + ".meters.b"


class Tally:
    """The meters (m, N ints), the copies' gen, the journal's pos and tag and the event log's ev they reflect."""

    def __init__(self, gen=0, pos=0, tag=bytes(8), m=None, ev=0):
        self.gen, self.pos, self.tag, self.ev = gen, pos, tag, ev
        self.m = m or [0] * N
        self.fee = 0  # club: the commission moved for the stake settled next

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
        """One rules event: écarté's "pay" and "pool", club's "move" and "settle"."""
        if kind == "deal":
            self.add(_DEALS)
        elif kind == "void":
            self.add(_VOIDS)
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


def _sum(key, body):
    return keyed(pads(key), b"", body)[:8] if key else sha256(body).digest()[:8]


def pack(key, t):
    body = struct.pack(_HEAD, b"TM", _VERSION, N, t.gen, t.pos, t.tag) + struct.pack("<%dI" % N, *t.m) + \
        struct.pack("<I", t.ev)  # (no list of N + 1 made for it: the pit asks the meters as the heap is tight)
    return body + _sum(key, body)


def parse(b):
    """A copy's bytes as a Tally, its check not checked (a METERED frame, the link's own
    seal checked); None if they are not a copy's."""
    if len(b) < 5 or len(b) != _SIZE + 4 * N + 4 * b[2] + 4 or b[:2] != b"TM" or not 0 < b[2] <= _VERSION or b[3] != N:
        return None
    _m, _v, _n, gen, pos, tag = struct.unpack_from(_HEAD, b)
    ev = struct.unpack_from("<I", b, _SIZE + 4 * N)[0] if b[2] > 1 else 0  # (version 1's: none; no copy made)
    return Tally(gen, pos, tag, list(struct.unpack_from("<%dI" % N, b, _SIZE)), ev)


def unpack(key, b):
    """A copy's bytes as a Tally; None if they fail their check."""
    return parse(b) if _sum(key, b[:-8]) == b[-8:] else None


def held(meters, journal):
    """The meters as their copies and the journal's records after them say (the copies
    checked: meters.on_event, meters.on_tilt); (Tally, copies' bytes, [copy good])."""
    raw = [read(c) for c in meters.copies]
    got = []
    for r in raw:
        g = unpack(meters.key, r) if r else None
        got.append(g if g is None or g.gen >= meters.gen else None)  # older than this boot wrote: put back
    a, b = got
    if a is None and b is None:
        if any(raw) or meters.gen:
            _ram(meters, "both copies of the meters are bad")
        elif journal.size:
            _event(meters, "no meters yet: counted from the journal")
        t = Tally()
    elif a is None or b is not None and b.gen > a.gen:
        t = b
    else:
        t = a
    for k in (0, 1):
        if got[k] is None and got[1 - k] is not None:
            _event(meters, "meter copy %s was %s: rebuilt from copy %s" % (
                "ab"[k], "bad" if raw[k] else "missing", "ab"[1 - k]))
    store = journal.store
    for rec in _records(store, _find(meters, t, store, journal.size), journal.size):
        t.feed(rec)
    store.close()
    return t


def commit(meters, journal, power=False, tilt=None, fresh=False):
    """The copies brought up to the journal's end and written (a power-up, a tilt of class
    `tilt` counted), then read back and compared. fresh: a RAM clear's, every meter 0 from
    the journal's end (the generation goes on: an old copy is never taken for the newer)."""
    t = Tally(meters.gen) if fresh else held(meters, journal)
    if power:
        t.add(_POWER)
    if tilt is not None:
        t.add(_TILT0 + (TILTS.index(tilt) if tilt in TILTS else len(TILTS) - 1))
    if meters.seats:
        t.m[_SEATS] = meters.seats
    t.pos = p = journal.size
    if journal.pads is not None:  # a keyed journal's head: its last record's tag
        t.tag = journal.head
    else:
        t.tag = journal.store.read_at(p - 8, 8) if p >= 8 else bytes(8)
        journal.store.close()  # (a file kept open holds a buffer of the heap)
    ctrl, cut = meters.ctrl, 0
    log = ctrl.events if ctrl is not None else None
    if log is not None:  # (parked: EventLog.park's, by name; "pending": what log(hold=True) framed, unwritten)
        seen = log["boot"] - 1 if log["pending"] else log["seq"]  # its last entry written (a held one is not)
        cut = t.ev if t.ev > seen and not fresh else 0
        t.ev = seen
    t.gen += 1
    meters.gen = t.gen
    image = pack(meters.key, t)
    for c in meters.copies:
        _write(c, image)
    bad = [read(c) != image for c in meters.copies]
    if bad[0] and bad[1]:
        _ram(meters, "both copies of the meters are bad")
    elif bad[0] or bad[1]:
        _event(meters, "meter copy %s reads back bad" % "ab"[bad[1]])
    if cut:  # (nested, these copies written) a tilt; an event when one of its class is open (a log set aside)
        say = meters.on_event if "journal-failure" in ctrl.locked else meters.on_tilt  # type: ignore  (cut: a ctrl)
        if say:
            say("journal-failure", "event log cut at entry %d: the meters saw %d" % (t.ev, cut))
    return t


def _find(meters, t, store, end):
    """Where the records the meters do not reflect begin: at their journal size if the tag
    there is theirs, else after the record that ends with their tag (a compaction moved
    it), else the journal's end (it was moved aside or cut: said so)."""
    p, tag = t.pos, t.tag
    if p == 0 or p <= end and store.read_at(p - 8, 8) == tag:
        return p
    at = 0
    while at < end:
        at += _length(store.read_at(at, 4))
        if at >= 8 and store.read_at(at - 8, 8) == tag:
            return at
    _event(meters, "the meters' record is gone from the journal: counted on from its end")
    return end


def _length(h):
    """A journal record's whole length from its first 4 bytes (store.py's format)."""
    return (h[1] << 8 | h[2]) + (12 if h[0] == 0x4C else 8 if h[0] == 0x4B else 6)


def _records(store, at, end):
    """The journal's records from `at` to `end`, parsed (resume.load checked them at boot)."""
    while at < end:
        h = store.read_at(at, 4)
        rec = json.loads(store.read_at(at + 4, h[1] << 8 | h[2]))
        at += _length(h)
        if isinstance(rec, dict):
            yield rec
