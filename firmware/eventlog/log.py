# The table's classified event log, beside the journal (/events.bin on a board, `beside`):
# power-ups, resets, tilts, refused frames, supervisor actions, clears; `tapis events` reads
# it. The open tilts (an entry that locks, not cleared) come back from it at boot: a lock
# survives a power cycle. Records are framed and chained as the journal's (store.py), under
# mac.derive(device key, b"events"); unkeyed: hashed, not chained; docs/protocol.md ("Event
# log records") says each field. The last KEEP entries at least are kept (the open tilts cut
# carried by the new head: never lost), and the last KEEP significant ones (not ROUTINE:
# tilts, clears, power-ups, checks, the supervisor's) whatever the flood (walk.compact); a
# routine entry repeated is one run (repeats.py). A keyed log is sealed (walk.seal). A torn
# last record is dropped; any other break is a JournalError.
import json
import time
from binascii import hexlify
from hashlib import sha256

from ..compat import const
from ..mac import derive, keyed, pads
from ..journal.store import JournalError
from .repeats import ROUTINE, repeat

_MAGIC = const(0x4B)
_CHAIN = const(0x4C)
_CHK = const(0x5A)
KEEP = const(1000)
_SLACK = const(250)
_BLOCK = const(512)  # the bytes a walk reads at a time
_SEAL = const(1024)  # the bytes of entries a seal closes (8 to 15): the boot's HMACs after the last

# the classes (tapis events --class)
POWER_UP, WATCHDOG, RAM, JOURNAL = "power-up", "watchdog", "ram-error", "journal-failure"
CHECK_FAILED, CHECK_PASSED, SHOE, DECK = "check-failed", "check-passed", "shoe-fault", "deck-count"
DEVICE_LOST, DEVICE_REBOOTED, FORGED, ATTACK = "device-lost", "device-rebooted", "forged", "bus-attack"
SUPERVISOR, DOOR, METER, CLEAR, RAM_CLEAR = "supervisor", "door-open", "meter-repaired", "clear", "ram-clear"
CLASSES = (POWER_UP, WATCHDOG, RAM, JOURNAL, CHECK_FAILED, CHECK_PASSED, SHOE, DEVICE_LOST,
           DEVICE_REBOOTED, FORGED, ATTACK, SUPERVISOR, DOOR, METER, CLEAR, DECK, RAM_CLEAR)
LOCKS = (RAM, CHECK_FAILED, JOURNAL, DOOR, DECK)  # tilts that lock the table

_PARKED = ("store", "pads", "device", "clock", "unit", "head", "size", "count", "seq", "open", "cleared",
           "boot", "seg", "pending", "run")


def beside(journal):
    """The event log's path beside a journal's: /journal.bin -> /events.bin, else PATH.events."""
    return journal[:-11] + "events.bin" if journal.endswith("journal.bin") else journal + ".events"


def _clock():
    return int(time.time())


def _ms():  # (MicroPython: ms since power-up, wrapping at 2^30)
    t = getattr(time, "ticks_ms", None)
    return t() if t is not None else int(getattr(time, "monotonic")() * 1000)  # CPython's table: the host's


class EventLog:
    """The event log on a store (store.py's interface): read and checked when made."""

    def __init__(self, store, key=None, device="", clock=None, unit="s", parked=None, quick=False):
        """key: the device key (None: unkeyed, hashed); clock(): the time an entry is given,
        in `unit` (time.time() seconds by default). parked: what park() gave, to go on from
        it without reading the store again (the board's controller keeps only that between
        two events, and this module out of its heap: Controller.event). quick: a board's
        boot, which opens a keyed log from its last seal (opening.quick) and has the
        segments before it checked once play has begun (self.unchecked: powerup.deferred)."""
        self.torn = self.unchecked = 0
        if parked is not None:
            for k in _PARKED:
                setattr(self, k, parked[k])
            self.clock = self.clock or _clock
            return
        self.store, self.device, self.clock, self.unit = store, device, clock or _clock, unit
        self.pads = pads(derive(key, b"events")) if key else None
        self.head, self.size, self.seq, self.count = bytes(8), 0, 0, 0  # (count: entries since the head)
        self.seg = (0, bytes(8))  # the open segment (a keyed log's): its offset, the tag it chains from
        self.pending = b""  # records framed, not yet written (log(hold=True))
        self.run = None  # the routine entries being coalesced (repeats.py)
        # the open tilts' entries; the log's RAM-clear entry (walk.finish)
        self.open, self.cleared = [], None
        from .opening import read
        read(self, quick)  # (its size, what it held; a torn last write dropped)
        self.boot = self.seq + 1  # this boot's: the seq of its first entry

    def take(self, rec):
        """A record read or written: the count, the last seq, the open tilts."""
        if rec["k"] == "s":
            if "p" in rec:  # a compaction's join (walk.compact): the entries counted are those after it
                self.count = 0
            return  # a seal: not an entry
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
        None); the head, the seals and the last are always parsed. A keyed log's sealed
        segments are hashed against their seals, an HMAC a seal; those after the last seal
        have their tags checked one by one."""
        st = self.store
        size, off, chain, i = st.size(), 0, bytes(8), 0
        p = self.pads
        seg, tail = sha256(), None  # the open segment's hash; (offset, chain) after the head or the last seal
        feed = getattr(st, "feed", None)
        blk = [bytearray(_BLOCK), 0, 0]
        while off + 4 <= size:
            h = self.piece(blk, off, 4)
            n = h[1] << 8 | h[2]
            t = 8 if h[0] == _CHAIN else 4
            if h[0] != (_CHAIN if p is not None else _MAGIC) or h[3] != h[1] ^ h[2] ^ _CHK:
                raise JournalError("event log corrupt at entry %d (byte %d): not a record" % (i, off))
            end = off + 4 + n + t
            if end > size:
                break  # torn
            whole = self.piece(blk, off, end - off)
            body = whole[4:4 + n]
            sealed = n > 8 and body[7] == 0x73 and body[:7] == b'{"k": "'  # {"k": "s"
            rec = None
            if i == 0 or sealed or end == size or parse is None or parse(body):
                try:
                    rec = json.loads(body)
                    if i == 0 and rec.get("k") != "h":
                        raise ValueError
                except (ValueError, AttributeError):
                    raise JournalError("event log corrupt at entry %d (byte %d): not its JSON" % (i, off))
            if check:
                tag = whole[4 + n:]
                if p is None:
                    if sha256(whole[:4 + n]).digest()[:4] != tag:
                        raise JournalError("event log corrupt at entry %d (byte %d): its tag is wrong" % (i, off))
                elif rec is not None and (i == 0 or sealed):  # (parsed above, both)
                    if sealed and hexlify(seg.digest()).decode() != rec["h"]:
                        raise JournalError("event log corrupt before entry %d (byte %d): its seal is wrong" % (i, off))
                    if keyed(p, chain, whole[:4 + n])[:8] != tag:
                        raise JournalError("event log corrupt at entry %d (byte %d): its tag is wrong" % (i, off))
                    chain = bytes(rec["p"]) if rec.get("p") else tag  # (a head's, a join's: walk.compact)
                    seg, tail = sha256(chain), (end, chain)
                else:
                    seg.update(whole)
                    chain = tag
            if ends is not None:
                ends[0] = end
            yield off, rec
            off, i = end, i + 1
            if feed is not None and i & 63 == 0:
                feed()
        if check and p is not None and tail is not None:
            from .opening import tail as unsealed
            self.head = unsealed(self, blk, tail[0], tail[1], off)[1]
            self.seg = tail
        elif check:
            self.head = chain

    def piece(self, blk, off, n):
        """n bytes at off, from the block read last (blk: [bytes, offset, length]) or one read at off."""
        buf, at = blk[0], blk[1]
        if off < at or off + n > at + blk[2]:
            if n > len(buf):
                return self.store.read_at(off, n)
            at = blk[1] = off
            blk[2] = self.store.read_at(off, buf)
        return bytes(memoryview(buf)[off - at:off - at + n])

    def frame(self, rec):
        """A record's bytes (a keyed log's chain moves on to its tag); rec: a dict, or its JSON."""
        body = rec if type(rec) is bytes else json.dumps(rec).encode()
        n = len(body)
        h = bytes((_CHAIN if self.pads is not None else _MAGIC, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ _CHK))
        if self.pads is not None:
            t = self.head = keyed(self.pads, self.head, h + body)[:8]
        else:
            t = sha256(h + body).digest()[:4]
        return h + body + t

    def rehead(self, prev, carried, gone=0):
        """A head's bytes: the tag the next entry chains from (prev), the open tilts carried,
        the seq of the last entry before it (gone: its first entry's is the next; a quick
        open counts the entries from it)."""
        self.head = bytes(8)
        return self.frame({"k": "h", "d": self.device, "p": list(prev), "u": self.unit, "o": carried, "g": gone})

    def log(self, cls, detail="", who=None, locks=False, cleared=None, hold=False, more=None):
        """Append an entry (at once: events are seldom, and a tilt must outlive a power
        cut); its sequence number. hold: written with the next, or by write() (a board's
        power-up: once playing, the boot's 2 s spared littlefs's append, main.py). A routine
        entry repeated joins its run (repeats.py), its seq the run's; more: fields of a run's."""
        if more is None and (self.run is not None or cls in ROUTINE and not locks):
            n = repeat(self, cls, detail, who, locks or cleared, hold)
            if n:
                return n
        self.seq += 1
        rec = self.stamp({"k": "e", "n": self.seq, "t": self.clock(), "c": cls, "d": detail})
        for k, v in (("w", who), ("l", 1 if locks else None), ("x", cleared or None)):
            if v is not None:
                rec[k] = v
        rec.update(more or ())
        out = self.pending
        if not self.size and not out:  # a fresh log: its head first
            out = self.rehead(b"", [])
            self.seg = (len(out), self.head)
        out += self.frame(rec)
        self.take(rec)  # (before a seal, which carries the log's state with this entry)
        if self.pads is not None and self.size + len(out) - self.seg[0] >= _SEAL:
            from .walk import seal
            out += seal(self, out)  # (in the same write: a power cut tears the seal, or nothing)
        self.pending = out
        if not hold:
            self.write()
        return self.seq

    def write(self):  # what log(hold=True) framed, written
        out, self.pending = self.pending, b""
        if out:
            self.store.append(out)
            self.size += len(out)
            if self.count >= KEEP + _SLACK:
                self.compact()

    def stamp(self, rec):  # rec with the board's own clock, "b", on a board's clock only
        if self.clock is _clock:
            rec["b"] = [self.boot, _ms()]
        return rec

    def park(self):
        """The log's state as plain values by name (_PARKED), nothing of this module's
        (EventLog(parked=...)): "seq" its last entry's (hostframes), "store" its store."""
        d = dict((k, getattr(self, k)) for k in _PARKED)
        d["clock"] = None if self.clock is _clock else self.clock
        return d

    def locked(self):
        return [e["c"] for e in self.open]  # the open tilts' classes, oldest first

    def clear(self, who, classes=None, detail=""):
        """Clear the open tilts (those of `classes` only, if given), logged as a clear that
        names them and who; its seq, or None when nothing was open."""
        from .walk import clear
        return clear(self, who, classes, detail)

    def since(self, seq=0, cls=None, limit=None):
        """The entries after seq (of class cls, at most limit), with who cleared each (walk)."""
        from .walk import since
        return since(self, seq, cls, limit)

    def compact(self, keep=KEEP):
        from .walk import compact  # (the last `keep` entries under a new head)
        compact(self, keep)
