# The recall journal: append-only, in flash on the board (a file), in memory or a file on
# the host; the store is handed in, never built here. It keeps the last KEEP completed
# games and the unfinished one: for each game what it is (name and options) and the
# state it started from, then every input the rules applied with the events it caused
# (cards, actions, scores, settlements: the event log is the replay format).
#
# A record on disk (docs/protocol.md, "Journal"):
#
#   4A  LEN_HI LEN_LO  CHK  PAYLOAD (UTF-8 JSON, LEN bytes)  CRC_HI CRC_LO
#
# CHK = LEN_HI ^ LEN_LO ^ 0x5A guards the length; the CRC-16/CCITT-FALSE covers 4A..PAYLOAD.
# Any changed byte is detected and refused (JournalError). Only an incomplete last record,
# what a power loss during a write leaves, is dropped (and said so: `torn`).
#
# Payloads: {"k": "b", "g": game, "o": options, "n": number, "s": state or null, "e": events}
# begins a game; {"k": "i", "a": action, "e": events, "f": [address, seq]} is one input
# (from that frame); {"k": "v", "n": inputs voided, "why": text}; {"k": "e", "n": number}
# ends a game.
import json

from .compat import const
from . import frames as _F

KEEP = const(10)
_MAGIC = const(0x4A)
_CHK = const(0x5A)
_MAX = const(0xFFFF)


class JournalError(ValueError):
    """The journal is corrupt: the table refuses to resume from it."""


# ---- values: events and actions are tuples all the way down --------------------------
def tuples(v):
    """JSON lists back to the tuples they were."""
    if isinstance(v, list):
        return tuple(tuples(x) for x in v)
    return v


def freeze(v):
    """A state value as JSON that keeps lists, tuples, dicts, sets and objects apart."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, list):
        return [freeze(x) for x in v]
    if isinstance(v, tuple):
        return {"t": [freeze(x) for x in v]}
    if isinstance(v, dict):
        return {"d": [[freeze(k), freeze(x)] for k, x in v.items()]}
    if isinstance(v, set):
        return {"s": [freeze(x) for x in v]}
    if isinstance(v, (bytes, bytearray)):
        return {"y" if isinstance(v, bytearray) else "b": [x for x in v]}
    return {"o": state(v)}


def state(obj, skip=("log", "_out")):
    """An object's data attributes, frozen; modules and callables are left out."""
    out = {}
    d = obj.__dict__
    for k in d:
        v = d[k]
        if k in skip or callable(v) or type(v).__name__ == "module":
            continue
        out[k] = freeze(v)
    return out


def thaw(v, into=None):
    if isinstance(v, list):
        return [thaw(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "t" in v:
        return tuple(thaw(x) for x in v["t"])
    if "d" in v:
        return dict((thaw(k), thaw(x)) for k, x in v["d"])
    if "s" in v:
        return set(thaw(x) for x in v["s"])
    if "y" in v:
        return bytearray(v["y"])
    if "b" in v:
        return bytes(v["b"])
    if into is None:
        raise JournalError("the journal holds an object the fresh game lacks")
    restore(into, v["o"])
    return into


def restore(obj, frozen):
    """Put a frozen state back onto a freshly built object of the same kind."""
    for k in frozen:
        setattr(obj, k, thaw(frozen[k], getattr(obj, k, None)))


# ---- stores ---------------------------------------------------------------------------
class MemoryStore:
    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.writes = 0

    def read(self):
        return bytes(self.data)

    def size(self):
        return len(self.data)

    def read_at(self, offset, n):
        return bytes(self.data[offset:offset + n])

    def append(self, b):
        self.data.extend(b)
        self.writes += 1

    def replace(self, b):
        self.data = bytearray(b)

    def keep(self, start, end):
        """Keep only bytes start..end (compaction, a torn tail)."""
        self.data = bytearray(self.data[start:end])


class FileStore:
    """A journal file; replace() writes a new file and renames it over the old one."""

    def __init__(self, path):
        self.path = path

    def read(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return b""

    def size(self):
        import os
        try:
            return os.stat(self.path)[6]
        except OSError:
            return 0

    def read_at(self, offset, n):
        with open(self.path, "rb") as f:
            f.seek(offset)
            return f.read(n)

    def keep(self, start, end):
        """Keep only bytes start..end, copied in small pieces (the board's heap is small)."""
        import os
        tmp = self.path + ".new"
        with open(self.path, "rb") as src:
            with open(tmp, "wb") as dst:
                src.seek(start)
                left = end - start
                while left > 0:
                    piece = src.read(min(512, left))
                    if not piece:
                        break
                    dst.write(piece)
                    left -= len(piece)
        os.rename(tmp, self.path)

    def append(self, b):
        with open(self.path, "ab") as f:
            f.write(b)

    def replace(self, b):
        import os
        tmp = self.path + ".new"
        with open(tmp, "wb") as f:
            f.write(b)
        os.rename(tmp, self.path)


# ---- records --------------------------------------------------------------------------
def frame(rec):
    body = json.dumps(rec).encode()
    n = len(body)
    if n > _MAX:
        raise JournalError("a record of %d bytes is too long" % n)
    head = bytes((_MAGIC, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ _CHK))
    c = _F.crc16(head + body, 0xFFFF)
    return head + body + bytes((c >> 8, c & 255))


def _check(head, i):
    if head[0] != _MAGIC:
        raise JournalError("journal corrupt at byte %d: no record starts there" % i)
    if len(head) >= 4 and head[3] != head[1] ^ head[2] ^ _CHK:
        raise JournalError("journal corrupt at byte %d: the record length is damaged" % i)


def records(store, start=0):
    """Yield (offset, record) from a store, one record in memory at a time; raise
    JournalError on corruption; an incomplete last record ends it with (offset, None)."""
    i, end = start, store.size()
    while i < end:
        head = store.read_at(i, 4)
        _check(head, i)
        if len(head) < 4:
            yield i, None
            return
        n = head[1] << 8 | head[2]
        if i + 4 + n + 2 > end:
            yield i, None
            return
        whole = store.read_at(i, 4 + n + 2)
        if _F.crc16(whole[:4 + n], 0xFFFF) != (whole[4 + n] << 8 | whole[5 + n]):
            raise JournalError("journal corrupt at byte %d: the record fails its CRC" % i)
        try:
            rec = json.loads(whole[4:4 + n])
        except ValueError:
            raise JournalError("journal corrupt at byte %d: the record is not JSON" % i)
        if not isinstance(rec, dict) or rec.get("k") not in ("b", "i", "v", "e"):
            raise JournalError("journal corrupt at byte %d: unknown record %r" % (i, rec))
        yield i, rec
        i += 4 + n + 2


def parse(data):
    """(records, offsets, torn bytes) of journal bytes; JournalError on any corruption."""
    recs, offs = [], []
    for off, rec in records(MemoryStore(data)):
        if rec is None:
            return recs, offs, len(data) - off
        recs.append(rec)
        offs.append(off)
    return recs, offs, 0


def group(recs):
    """The records as games: [{"game", "options", "number", "state", "events", "inputs":
    [[action, events, from]], "voided": [...], "done"}], oldest first."""
    games = []
    g = None
    for r in recs:
        k = r["k"]
        if k == "b":
            g = {"game": r["g"], "options": r["o"], "number": r["n"], "state": r["s"],
                 "count": r.get("c", 0),
                 "events": [tuples(e) for e in r["e"]], "inputs": [], "voided": [],
                 "done": False}
            games.append(g)
        elif g is None:
            raise JournalError("journal corrupt: a %r record before any game began" % k)
        elif k == "i":
            g["inputs"].append([tuples(r["a"]), [tuples(e) for e in r["e"]], r.get("f")])
        elif k == "v":
            n = r["n"]
            dropped = g["inputs"][len(g["inputs"]) - n:]
            del g["inputs"][len(g["inputs"]) - n:]
            g["voided"].append({"why": r["why"], "inputs": dropped})
        elif k == "e":
            g["done"] = True
    return games


class Journal:
    """The table's journal over a store. open() reads and checks it."""

    def __init__(self, store, keep=KEEP):
        self.store = store
        self.keep = keep
        self.torn = 0  # bytes of an incomplete last record dropped at open()
        self.starts = []  # offsets of the games' first records
        self.size = 0
        self.number = 0  # the unfinished game's number
        self.count = 0  # the rules' count of finished games when it began
        self.done = None
        self.unfinished = None
        self.last = None
        self.frames = {}
        self.name, self.opts = None, None

    def open(self, everything=True):
        """Read and check the journal, one record at a time; keep the last game (to resume)
        and where each game starts (JournalError if corrupt). Returns every game kept, or
        with everything=False (the board) only the last one: the others stay in flash."""
        store = self.store
        self.starts, self.frames, self.torn = [], {}, 0
        recs = []
        for off, rec in records(store):
            if rec is None:  # a power loss during the last write: drop the incomplete record
                self.torn = store.size() - off
                store.keep(0, off)
                break
            if rec["k"] == "b":
                self.starts.append(off)
                recs = []
            elif not self.starts:
                raise JournalError("journal corrupt: a %r record before any game began"
                                   % rec["k"])
            recs.append(rec)
            if rec["k"] == "i" and rec.get("f"):
                self.frames[rec["f"][0]] = rec["f"][1]
        self.size = store.size()
        games = group(recs) if recs else []
        self.last = games[-1] if games else None
        self.unfinished = self.last if self.last and not self.last["done"] else None
        if self.last:
            self.number = self.last["number"]
            self.name, self.opts = self.last["game"], self.last["options"]
        if everything and len(self.starts) > 1:
            return group([r for _o, r in records(store) if r is not None])
        return games

    def last_frames(self):
        """{device address: the last frame sequence number an input came from}."""
        return self.frames

    def _write(self, *recs):
        """Append records in one write (so a game's end and the next's beginning go
        together)."""
        out = b""
        for rec in recs:
            b = frame(rec)
            if rec["k"] == "b":
                self.starts.append(self.size + len(out))
            out += b
        self.size += len(out)
        self.store.append(out)

    def begin(self, name, options, game, done, fresh):
        """A game begins: name, options (an object), the rules state (None when `fresh`:
        a new game from its options), done(game) -> how many games it finished."""
        self.done = done
        self.count = done(game)
        self.number += 1
        self.name, self.opts = name, state(options)
        self._write({"k": "b", "g": name, "o": self.opts, "n": self.number,
                     "s": None if fresh else state(game), "c": self.count,
                     "e": list(game.log) if fresh else []})

    def follow(self, game, done):
        """Resumed: go on journaling `game`, rebuilt from the last game journaled. If the
        power went before that game's end (or the next one's beginning) was written,
        write them now."""
        self.done = done
        last = self.last
        if last is None:
            raise JournalError("an empty journal has nothing to resume")
        self.count = last["count"]
        if last["done"]:
            self._next(game, False)
        elif done(game) != self.count:
            self._next(game, True)

    def _next(self, game, end):
        name, opts = self._current()
        recs = [{"k": "e", "n": self.number}] if end else []
        self.number += 1
        done = self.done
        self.count = done(game) if done is not None else 0
        recs.append({"k": "b", "g": name, "o": opts, "n": self.number, "s": state(game),
                     "c": self.count, "e": []})
        self._write(*recs)
        self.compact()

    def record(self, game, action, events, addr=None, seq=None):
        """One input applied: journal it; when it finished a game, close that one, begin
        the next from the state it left, and compact."""
        rec = {"k": "i", "a": action, "e": list(events)}
        if addr is not None:
            rec["f"] = [addr, seq]
        self._write(rec)
        if self.done is not None and self.done(game) != self.count:
            self._next(game, True)

    def void(self, n, why):
        self._write({"k": "v", "n": n, "why": why})

    def _current(self):
        return self.name, self.opts

    def compact(self):
        """Keep only the last `keep` completed games (and the unfinished one)."""
        if len(self.starts) <= self.keep + 1:
            return
        cut = self.starts[len(self.starts) - self.keep - 1]
        self.store.keep(cut, self.size)
        self.starts = [s - cut for s in self.starts[len(self.starts) - self.keep - 1:]]
        self.size -= cut

    def games(self, last=KEEP):
        """The last `last` games (completed ones, then the unfinished) as JSON bytes each."""
        starts = self.starts
        if not starts:
            return []
        first = starts[max(0, len(starts) - last)]
        recs = [r for _o, r in records(self.store, first) if r is not None]
        return [json.dumps(g).encode() for g in group(recs)]
