# The journal's records on their store (docs/protocol.md, "Journal"):
#
#   4A  LEN_HI LEN_LO  CHK  PAYLOAD (UTF-8 JSON, LEN bytes)  CRC_HI CRC_LO
#
# CHK = LEN_HI ^ LEN_LO ^ 0x5A guards the length; the CRC-16/CCITT-FALSE covers 4A..PAYLOAD.
# Any changed byte is detected and refused (JournalError). Only an incomplete last record,
# what a power loss during a write leaves, is reported as such, for the journal to drop.
#
# Payloads: {"k": "b", "g": game, "o": options, "n": number, "c": games finished, "s":
# state or null, "e": events} begins a game; {"k": "i", "a": action, "e": events, "f":
# [address, seq]} is one input (from that frame); {"k": "v", "n": inputs voided, "why":
# text}; {"k": "e", "n": number} ends a game.
import json

from . import frames as _F
from .compat import const
from .store import MemoryStore
from .snapshot import tuples

_MAGIC = const(0x4A)
_CHK = const(0x5A)
_MAX = const(0xFFFF)


class JournalError(ValueError):
    """The journal is corrupt: the table refuses to resume from it."""


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


