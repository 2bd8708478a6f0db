# The meters at boot (meters.py), once the journal is read and checked (resume.load): the
# two copies checked, the good one taken (of two good ones the newer: a power cut came
# between their writes), rolled forward over the journal's records written after it (the
# journal is written first: a power cut between it and the copies leaves the copies
# behind, never ahead), a power-up counted, both copies written. Boot-time code: the
# board unloads it with boot.py.
import json

from .compat import const
from .meters import N

_POWER = const(3)  # meters.TABLE's "power_ups"


def boot(meters, journal, power_up=True):
    """The meters brought up to the journal's end; a bad copy rebuilt from the good one
    (meters.on_event), both bad a RAM error (meters.on_tilt)."""
    raw = [c.read() for c in meters.copies]
    got = [meters.unpack(r) if r else None for r in raw]
    good = [g for g in got if g is not None]
    if not good and any(raw):
        meters.on_tilt("ram", "both copies of the meters are bad")
        good = [(0, 0, bytes(8), [0] * N)]  # (on_tilt chose to go on: counted afresh)
    if good:
        best = good[0] if len(good) == 1 or good[0][0] >= good[1][0] else good[1]
        meters.gen, meters.pos, meters.tag, meters.m = best
        for k in (0, 1):
            if got[k] is None:
                meters.on_event("meters", "meter copy %s was %s: rebuilt from copy %s" % (
                    "ab"[k], "bad" if raw[k] else "missing", "ab"[1 - k]))
    elif journal.size:
        meters.on_event("meters", "no meters yet: counted from the journal's records")
    meters.fee = 0
    store = journal.store
    at = _find(meters, store, journal.size)
    for rec in _records(store, at, journal.size):
        meters.feed((rec,))
    store.close()
    if power_up:
        meters.add(_POWER)
    meters.image = b""  # (written whole now, not compared with what the copies held)
    meters.commit(journal, True)


def _find(meters, store, end):
    """Where the records the meters do not reflect begin: at their journal size if the tag
    there is theirs, else after the record that ends with their tag (a compaction moved
    it), else the journal's end (it was moved aside or cut: said so)."""
    p, tag = meters.pos, meters.tag
    if p == 0 or p <= end and store.read_at(p - 8, 8) == tag:
        return p
    at = 0
    while at < end:
        at += _length(store.read_at(at, 4))
        if at >= 8 and store.read_at(at - 8, 8) == tag:
            return at
    meters.on_event("meters", "the journal no longer holds the record the meters reflect: "
                    "counted on from its end")
    return end


def _length(h):
    """A journal record's whole length from its first 4 bytes (store.py's format)."""
    return (h[1] << 8 | h[2]) + (12 if h[0] == 0x4C else 8 if h[0] == 0x4B else 6)


def _records(store, at, end):
    """The journal's records from `at` to `end`, parsed (resume.load checked them)."""
    while at < end:
        h = store.read_at(at, 4)
        rec = json.loads(store.read_at(at + 4, h[1] << 8 | h[2]))
        at += _length(h)
        if isinstance(rec, dict) and "k" in rec:
            yield rec
