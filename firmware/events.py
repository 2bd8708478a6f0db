# The table's classified event log, beside the journal (/events.bin on a board; a
# simulated table's PATH.events, `beside`): power-ups, resets, tilts, refused frames,
# supervisor actions, clears. A lab reads it with `tapis events`; the open tilts (an entry
# that locks, not yet cleared) come back from it at boot, so a lock survives a power cycle.
#
# Records are framed and chained as the journal's (store.py): 4C LEN_HI LEN_LO CHK PAYLOAD
# TAG, TAG the first 8 bytes of HMAC-SHA256(mac.derive(device key, b"events"), previous
# TAG + 4C..PAYLOAD); unkeyed (host tools): 4B and a 4-byte SHA-256 sum, not chained. The
# first record is a head {"k": "h", "d": device, "p": [] or the TAG the first entry after it
# chains from, "u": the clock's unit, "o": open tilts carried over a compaction}, tagged
# from 8 zero bytes. An entry is {"k": "e", "n": seq, "t": clock, "c": class, "d":
# detail, "w": who (if someone), "l": 1 (it locks), "x": [the seqs a clear cleared]}.
# "u" is "s": time.time() (the board's RTC: a Pico's counts from 2021-01-01 at power-up
# unless set), or "ms": the simulated table's milliseconds.
# The last KEEP entries at least are kept: past KEEP + _SLACK the oldest are cut, and the
# new head carries the open tilts cut (never lost). A torn last record (a power cut in a
# write) is dropped at open; any other break is a JournalError naming the entry.
import json
from hashlib import sha256

from .compat import const
from .mac import derive, keyed, pads
from .store import JournalError

_MAGIC = const(0x4B)
_CHAIN = const(0x4C)
_CHK = const(0x5A)
KEEP = const(1000)
_SLACK = const(250)

# the classes (tapis events --class)
POWER_UP = "power-up"
WATCHDOG = "watchdog"
RAM = "ram-error"
JOURNAL = "journal-failure"
CHECK_FAILED = "check-failed"
CHECK_PASSED = "check-passed"
SHOE = "shoe-fault"
DEVICE_LOST = "device-lost"
DEVICE_REBOOTED = "device-rebooted"
FORGED = "forged"
ATTACK = "bus-attack"
SUPERVISOR = "supervisor"
DOOR = "door-open"
METER = "meter-repaired"
CLEAR = "clear"
DECK = "deck-count"
RAM_CLEAR = "ram-clear"
CLASSES = (POWER_UP, WATCHDOG, RAM, JOURNAL, CHECK_FAILED, CHECK_PASSED, SHOE, DEVICE_LOST,
           DEVICE_REBOOTED, FORGED, ATTACK, SUPERVISOR, DOOR, METER, CLEAR, DECK, RAM_CLEAR)
LOCKS = (RAM, CHECK_FAILED, JOURNAL, DOOR, DECK)  # tilts that lock the table


def beside(journal):
    """The event log's path beside a journal's: /journal.bin -> /events.bin, else PATH.events."""
    if journal.endswith("journal.bin"):
        return journal[:-11] + "events.bin"
    return journal + ".events"


def _wanted(body):
    """Whether the boot must parse an entry: a tilt, a clear, a RAM clear."""
    return b'"l"' in body or b'"x"' in body or b"ram-clear" in body


def _clock():
    import time
    return int(time.time())


class EventLog:
    """The event log on a store (store.py's interface): read and checked when made."""

    def __init__(self, store, key=None, device="", clock=None, unit="s", parked=None):
        """key: the device key (None: unkeyed, hashed); clock(): the time an entry is given,
        in `unit` (time.time() seconds by default). parked: what park() gave, to go on from
        it without reading the store again (the board's controller keeps only that between
        two events, and this module out of its heap: Controller.event)."""
        if parked is not None:
            (self.store, self.pads, self.device, self.clock, self.unit, self.head, self.size,
             self.count, self.seq, self.open, self.cleared) = parked
            self.clock = self.clock or _clock
            self.torn = 0
            return
        self.store = store
        self.pads = pads(derive(key, b"events")) if key else None
        self.device = device
        self.clock = clock or _clock
        self.unit = unit
        self.head = bytes(8)
        self.size = 0
        self.count = 0  # entries since the head
        self.seq = 0
        self.open = []  # the open tilts: their entries
        self.cleared = None  # the log's RAM-clear entry (attend.finish)
        self.torn = 0
        ends = [0]
        for _off, rec in self.walk(True, ends, _wanted):  # (a board's boot parses few)
            if rec is None:
                self.count += 1
            else:
                self._take(rec)
        if ends[0] < store.size():  # a power cut in the last write: drop what it left
            self.torn = store.size() - ends[0]
            store.keep(0, ends[0])
        self.size = ends[0]

    def _take(self, rec):
        if rec["k"] == "h":
            self.unit = rec.get("u", self.unit)
            self.open = list(rec.get("o", ()))
            self.count = 0
            for e in self.open:
                self.seq = max(self.seq, e["n"])
            return
        self.count += 1
        self.seq = rec["n"]
        if rec["c"] == RAM_CLEAR:
            self.cleared = rec
        if rec.get("l"):
            self.open.append(rec)
        for n in rec.get("x", ()):
            self.open = [e for e in self.open if e["n"] != n]

    def walk(self, check=True, ends=None, parse=None):
        """(offset, record) from the head, the chain checked (check); ends[0]: where the last
        whole record ends. parse(payload): whether to parse a payload (else the record is
        None); the head and the last are always parsed."""
        st = self.store
        size, off, head, i = st.size(), 0, bytes(8), 0
        p = self.pads
        feed = getattr(st, "feed", None)
        while off + 4 <= size:
            h = st.read_at(off, 4)
            n = h[1] << 8 | h[2]
            t = 8 if h[0] == _CHAIN else 4
            if h[0] != (_CHAIN if p is not None else _MAGIC) or h[3] != h[1] ^ h[2] ^ _CHK:
                raise JournalError("event log corrupt at entry %d (byte %d): not a record" % (i, off))
            end = off + 4 + n + t
            if end > size:
                break  # torn
            body = st.read_at(off + 4, n)
            if check:
                tag = st.read_at(end - t, t)
                msg = bytes(h) + body
                want = keyed(p, head, msg)[:8] if p is not None else sha256(msg).digest()[:4]
                if want != tag:
                    raise JournalError("event log corrupt at entry %d (byte %d): its tag is wrong" % (i, off))
                head = tag
            if ends is not None:
                ends[0] = end
            if i == 0 or end == size or parse is None or parse(body):
                try:
                    rec = json.loads(body)
                except ValueError:
                    raise JournalError("event log corrupt at entry %d (byte %d): not JSON" % (i, off))
                if i == 0 and rec.get("k") != "h":
                    raise JournalError("event log corrupt at entry 0: no head")
                if i == 0 and p is not None:
                    head = bytes(rec["p"]) if rec["p"] else head
            else:
                rec = None
            yield off, rec
            off, i = end, i + 1
            if feed is not None and i & 63 == 0:
                feed()
        if check:
            self.head = head

    def _frame(self, rec):
        body = json.dumps(rec).encode()
        n = len(body)
        h = bytes((_CHAIN if self.pads is not None else _MAGIC, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ _CHK))
        if self.pads is not None:
            t = self.head = keyed(self.pads, self.head, h + body)[:8]
        else:
            t = sha256(h + body).digest()[:4]
        return h + body + t

    def _head(self, prev, carried):
        self.head = bytes(8)
        return self._frame({"k": "h", "d": self.device, "p": list(prev), "u": self.unit, "o": carried})

    def log(self, cls, detail="", who=None, locks=False, cleared=None):
        """Append an entry (at once: events are seldom, and a tilt must outlive a power
        cut); its sequence number."""
        self.seq += 1
        rec = {"k": "e", "n": self.seq, "t": self.clock(), "c": cls, "d": detail}
        if who is not None:
            rec["w"] = who
        if locks:
            rec["l"] = 1
        if cleared:
            rec["x"] = cleared
        out = b"" if self.size else self._head(b"", [])
        out += self._frame(rec)
        self.store.append(out)
        self.size += len(out)
        self._take(rec)
        if self.count >= KEEP + _SLACK:
            self.compact()
        return self.seq

    def restart(self, cls, detail, who):
        """A new log in this one's place, in one step (a RAM clear): its first entry this."""
        self.seq = self.count = 0
        self.open = []
        rec = {"k": "e", "n": 1, "t": self.clock(), "c": cls, "d": detail, "w": who}
        out = self._head(b"", []) + self._frame(rec)
        self.store.keep(0, 0, out)
        self.size = len(out)
        self._take(rec)

    def park(self):
        """The log's state as plain values, nothing of this module's (EventLog(parked=...))."""
        return [self.store, self.pads, self.device, None if self.clock is _clock else self.clock, self.unit,
                self.head, self.size, self.count, self.seq, self.open, self.cleared]

    def locked(self):
        """The open tilts' classes, oldest first."""
        return [e["c"] for e in self.open]

    def clear(self, who, classes=None, detail=""):
        """Clear the open tilts (those of `classes` only, if given), logged as a clear that
        names them and who; its seq, or None when nothing was open."""
        gone = [e["n"] for e in self.open if classes is None or e["c"] in classes]
        if not gone:
            return None
        return self.log(CLEAR, detail or "cleared " + ", ".join(
            "%s #%d" % (e["c"], e["n"]) for e in self.open if e["n"] in gone), who, cleared=gone)

    def since(self, seq=0, cls=None, limit=None):
        """The entries after seq (of class cls), each with "cleared": who cleared it (a tilt)."""
        out, by = [], {}
        for _off, rec in self.walk(False):
            if rec is None or rec["k"] != "e":
                continue
            for n in rec.get("x", ()):
                by[n] = rec.get("w")
            if rec["n"] > seq and (cls is None or rec["c"] == cls) and (limit is None or len(out) < limit):
                out.append(rec)
        for e in out:
            if e["n"] in by:
                e["cleared"] = by[e["n"]]
        return out

    def compact(self, keep=KEEP):
        """Keep the last `keep` entries under a new head that carries the open tilts cut."""
        cut, i, first = 0, 0, self.count - keep
        for off, rec in self.walk(False, None, lambda b: False):
            if i == first + 1:  # (the head is record 0)
                cut = off
                break
            i += 1
        if not cut:
            return
        kept = self.seq - keep  # the seqs below this are cut
        carried = [e for e in self.open if e["n"] <= kept]
        was = self.head
        prev = self.store.read_at(cut - 8, 8) if self.pads is not None else b""
        head = self._head(prev, carried)
        self.head = was
        self.store.keep(cut, self.size, head)
        self.size += len(head) - cut
        self.count = keep
