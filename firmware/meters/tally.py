# The meters' work (meters.py holds only what stays in the heap): loaded at a commit, at
# boot and to answer METERS, unloaded after. A commit reads both copies, checks each (an
# HMAC under the device key's b"meters" key, a SHA-256 sum without one), takes the good one
# (of two good ones the newer: a power cut came between their writes), counts the journal's
# records written after the journal size it reflects (their events: where money moves),
# and writes both copies, then reads them back. A bad copy is rebuilt from the good one
# (meters.on_event), two bad are a RAM error (meters.on_tilt). The copy's format and what
# each meter counts: docs/protocol.md "Meters".
import json
from binascii import hexlify

from ..compat import const
from ..journal.store import JournalError
from .layout import N, ROLL, SEAT0, TAB0, TILT0, TILTS, Tally, pack, parse, read, unpack  # noqa: F401 (the layout, named once)

_SEATS = const(10)  # layout.TABLE's "seats"
_POWER = const(3)  # its "power_ups"
_EVERY = const(16)  # the off-flash counter is stepped every 16th commit, and at each power-up (docs/security.md)


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
    t.ecarte = journal.name == "ecarte"  # (its scores end its deals: layout.Tally.event)
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
    for k in tilt if isinstance(tilt, list) else () if tilt is None else (tilt,):
        t.add(TILT0 + (TILTS.index(k) if k in TILTS else len(TILTS) - 1))
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
        cut = t.ev if t.ev > seen and not fresh and not meters.floor else 0  # (custody.py said it at boot)
        t.ev, t.lt = seen, _tag(log)
        if power or not log["pending"]:  # the power-up's entry, held: counted here, written next (custody.py
            t.pw = log["boot"] if power and log["pending"] else 0  # mends a cut between); 0 once written
    claim = journal.claim if type(journal.claim) is dict else None  # (the generation the journal's last
    # seal says, as resume.load parsed it: a copy rebuilt goes above it)
    t.gen = max(t.gen, meters.floor, claim["gen"] if claim else 0) + 1
    meters.gen = t.gen
    step = _bind(meters.counter, t, power)
    journal.custody = [t.gen, t.ev, hexlify(t.lt).decode(), t.cnt]  # what the journal's next seals carry
    image = pack(meters.key, t)
    for c in meters.copies:
        _write(c, image)
    if step and meters.counter.increment() != t.cnt:  # type: ignore  (step: a counter)
        _ram(meters, "the counter did not step to %d" % t.cnt)
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


def _tag(log):
    """The tag the event log's last written record ends with (a parked log: its head, unless
    entries are held or it is unkeyed: its store's last 8 bytes)."""
    if log["pads"] is not None and not log["pending"]:
        return log["head"]
    st, n = log["store"], log["size"]
    b = st.read_at(n - 8, 8) if n >= 8 else bytes(8)
    st.close()
    return b


def _bind(counter, t, power):
    """The off-flash counter (link/counter.py's read and increment; None: none) the copies
    are bound to: at a power-up and every _EVERY-th generation the copies say its next
    value (t.cnt) and are written before it steps (a cut between: custody.py); unbound
    copies (0) are bound at once. (A counter the boot found ahead of the copies locked the
    table then: rebound here.) True if it must step once the copies are written."""
    if counter is None:
        return False
    if power or t.gen % _EVERY == 0 or not t.cnt:
        t.cnt = counter.read() + 1
        return True
    return False


def _find(meters, t, store, end):
    """Where the records the meters do not reflect begin: at their journal size if the tag
    there is theirs, else after the record that ends with their tag (a compaction moved
    it), else the journal's end (it was moved aside or cut: said so)."""
    at = locate(store, t.pos, t.tag, end)
    if at >= 0:
        return at
    _event(meters, "the meters' record is gone from the journal: counted on from its end")
    return end


def locate(store, p, tag, end):
    """Where the journal's records after the meters' record (at p, ending with tag) begin:
    p if its tag is there, else after the record that ends with it (a compaction moved it,
    the power cut before the copies were committed again); -1 if it is gone."""
    if p == 0 or p <= end and store.read_at(p - 8, 8) == tag:
        return p
    at = 0
    while at < end:
        at += _length(store.read_at(at, 4))
        if at >= 8 and store.read_at(at - 8, 8) == tag:
            return at
    return -1


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
