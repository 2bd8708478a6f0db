# The event log read through, cut and begun again (events.py's EventLog.since and .compact,
# and a RAM clear's restart, and finished at boot), apart: the board loads this for a request of the log
# (clears.py), a compaction or a RAM clear only, and unloads it. A board's boot opens the log
# from its last seal (quick) and checks the rest once play has begun (deferred).
# It imports nothing of events.py at its top: it is handed the log.
from .compat import const

_PATTERN = b'{"k": "s"'  # a seal's payload begins so (unescaped quotes: never inside a string)
_WINDOW = const(6144)  # the end of the log searched for its last seal: what follows one is < events._SEAL


def since(log, seq, cls, limit):
    """The entries after seq (of class cls, at most limit), each with "cleared": who
    cleared it (a tilt): the whole log is read, for the clears after them."""
    out, by = [], {}
    for _off, rec in log.walk(False):
        if rec is None or rec["k"] != "e":
            continue
        for n in rec.get("x", ()):
            by[n] = rec.get("w")
        if rec["n"] > seq and (cls is None or rec["c"] == cls) and (limit is None or len(out) < limit):
            out.append(rec)
    for e in out:
        if e["n"] in by:
            e["cleared"] = by[e["n"]]
    log.store.close()  # (the file read_at keeps open)
    return out


def seal(log, out):
    """The seal of a keyed log's open segment: its bytes in the store, then those of `out`,
    about to be written after them, hashed from the tag the segment chains from (a boot
    checks the segment by its hash and the seal's one HMAC: events.py walk)."""
    from binascii import hexlify
    from hashlib import sha256
    at, chain = log.seg
    h, st = sha256(chain), log.store
    while at < log.size:
        b = st.read_at(at, min(256, log.size - at))
        h.update(b)
        at += len(b)
    h.update(out[at - log.size:])
    # the log's state with the entry sealed (quick): its last seq, the open tilts, the RAM
    # clear; "k" first, whatever order a port's dict keeps (EventLog.walk knows a seal by it)
    import json
    s = log.frame(('{"k": "s", "h": "%s", "q": %d, "o": %s, "r": %s}' % (
        hexlify(h.digest()).decode(), log.seq, json.dumps(log.open), json.dumps(log.cleared))).encode())
    log.seg = (log.size + len(out) + len(s), log.head)
    return s


def unsealed(log, tail, last, blk):
    """At the end of a keyed log's walk (events.py): the tags of the records after the last
    seal (tail: its end, its tag, the entry's number) to `last`, checked one by one (blk: the
    walk's block); the tag the next record chains from."""
    from .mac import keyed
    from .store import JournalError
    off, chain, i = tail
    while off < last:
        h = log.piece(blk, off, 4)
        end = off + 12 + (h[1] << 8 | h[2])
        whole = log.piece(blk, off, end - off)
        if keyed(log.pads, chain, whole[:-8])[:8] != whole[-8:]:
            raise JournalError("event log corrupt at entry %d (byte %d): its tag is wrong" % (i, off))
        off, chain, i = end, whole[-8:], i + 1
    return chain


def compact(log, keep):
    """Keep the last `keep` entries or a few more under a new head (tagged from 8 zero
    bytes, its "p" the tag the first entry kept chains from, as the journal's compaction),
    which carries the open tilts cut; the store copies and renames in one step (store.py
    keep). A keyed log is cut just after a seal, so that each segment kept is whole under
    its seal (a log without one is cut where the entries kept begin)."""
    cut = kept = seen = 0  # (seen: the entries before the record at off)
    after = False  # (the record before was a seal)
    for off, rec in log.walk(False, None, lambda b: False):
        if off:
            if log.count - seen < keep:
                break
            if after if log.pads is not None else log.count - seen == keep:
                cut, kept = off, log.count - seen
        after = rec is not None and rec["k"] == "s"
        if rec is None or rec["k"] == "e":
            seen += 1
    log.store.close()
    if not cut:
        return
    gone = log.seq - kept  # the seqs up to this one are cut
    carried = [e for e in log.open if e["n"] <= gone]
    was = log.head
    prev = log.store.read_at(cut - 8, 8) if log.pads is not None else b""
    head = log.rehead(prev, carried, gone)
    log.head = was
    log.store.keep(cut, log.size, head)
    log.size += len(head) - cut
    log.seg = (log.seg[0] + len(head) - cut, log.seg[1])
    log.count = kept


def restart(log, cls, detail, who, locks=()):
    """A new log in this one's place, in one step (a RAM clear): its first entry this one,
    then `locks` [(class, detail, who)], each an entry that locks (the host's disable, which
    a RAM clear keeps: clears.py), written with it so that no power cut comes between."""
    log.seq = log.count = 0
    log.open = []
    log.boot = 1  # (this boot's entries go on in the new log: its first seq)
    recs = [log.stamp({"k": "e", "n": 1, "t": log.clock(), "c": cls, "d": detail, "w": who})]
    for c, d, w in locks:
        recs.append(log.stamp({"k": "e", "n": len(recs) + 1, "t": log.clock(), "c": c, "d": d, "w": w, "l": 1}))
    out = log.rehead(b"", [])
    log.seg = (len(out), log.head)
    for rec in recs:
        out += log.frame(rec)
    log.store.keep(0, 0, out)
    log.size = len(out)
    for rec in recs:
        log.take(rec)


def finish(journal, ev):
    """At boot: a RAM clear that a power cut stopped before the journal was cleared (the
    event log's RAM-clear entry names the journal's last tag, and the journal still ends
    with it) is finished, and its meters are cleared if they still stand at that tag (the
    clear committed them there first); True if the journal was cleared."""
    from binascii import hexlify
    rc = ev.cleared if ev is not None else None
    if rc is None or not isinstance(rc["d"], dict) or not rc["d"].get("journal"):
        return False
    old, store, done = rc["d"]["journal"], journal.store, False
    size = store.size()
    if size >= 8 and hexlify(store.read_at(size - 8, 8)).decode() == old:
        store.keep(0, 0)
        done = True
    m = getattr(journal, "meters", None)
    if m is not None:
        from .tally import read, unpack
        for c in m.copies:
            t = unpack(m.key, read(c))
            if t is not None and hexlify(t.tag).decode() == old:
                m.gen = t.gen  # (the fresh copies' generation goes on from theirs)
                m.clear(journal)  # at the journal's start: its records, the new game's, counted
                break
    return done


def quick(log):
    """A keyed log opened from its last seal (a board's boot, issue 30's 2 s resume): the
    head's HMAC and its "g", the last seal found in the log's end and its HMAC (chained from
    the 8 bytes before it: no forger has the key), the log's state taken from it, and the
    records after it walked with their tags checked one by one, as EventLog's walk does.
    The segments before it stand unchecked until deferred(). Where the records end (0: a
    log too short, or one written before heads carried "g" and seals their state, is
    walked whole)."""
    import json
    from .mac import keyed
    from .store import JournalError
    st, p, size = log.store, log.pads, log.store.size()
    if size <= _WINDOW:
        return 0  # (its walk is as quick)
    blk = [bytearray(512), 0, 0]
    h = log.piece(blk, 0, 4)
    n = h[1] << 8 | h[2]
    whole = log.piece(blk, 0, 12 + n)
    if h[0] != 0x4C or h[3] != h[1] ^ h[2] ^ 0x5A or keyed(p, bytes(8), whole[:4 + n])[:8] != whole[4 + n:]:
        return 0  # (the walk says why)
    head = json.loads(whole[4:4 + n])
    if "g" not in head:
        return 0
    base = size - _WINDOW
    buf = st.read_at(base, _WINDOW)
    k = len(buf)
    while True:
        k = buf.rfind(_PATTERN, 0, k)
        s = k - 4
        if s < 8:
            return 0  # (no seal in the window: one with many open tilts, or none)
        n = buf[s + 1] << 8 | buf[s + 2]
        end = s + 12 + n
        if buf[s] == 0x4C and buf[s + 3] == buf[s + 1] ^ buf[s + 2] ^ 0x5A and end <= len(buf) and \
                keyed(p, buf[s - 8:s], buf[s:end - 8])[:8] == buf[end - 8:end]:
            break
        k += len(_PATTERN) - 1  # (a torn seal, or the pattern by chance in a tag: the one before)
    seal = json.loads(buf[s + 4:end - 8])
    if "q" not in seal:
        return 0
    log.unit = head.get("u", log.unit)
    log.seq, log.open, log.cleared = seal["q"], list(seal["o"]), seal.get("r")
    log.count = log.seq - head["g"]
    chain, off = buf[end - 8:end], base + end
    log.seg, log.unchecked = (off, chain), base + s
    while off + 4 <= size:  # the records after the seal: fewer than a segment's
        h = log.piece(blk, off, 4)
        n = h[1] << 8 | h[2]
        if h[0] != 0x4C or h[3] != h[1] ^ h[2] ^ 0x5A:
            raise JournalError("event log corrupt at byte %d: not a record" % off)
        if off + 12 + n > size:
            break  # torn
        whole = log.piece(blk, off, 12 + n)
        if keyed(p, chain, whole[:4 + n])[:8] != whole[4 + n:]:
            raise JournalError("event log corrupt at byte %d: its tag is wrong" % off)
        try:
            log.take(json.loads(whole[4:4 + n]))
        except (ValueError, KeyError, TypeError):
            raise JournalError("event log corrupt at byte %d: not its JSON" % off)
        chain, off = whole[4 + n:], off + 12 + n
    log.head = chain
    return off


def deferred(ctrl, key, ident):
    """Once play has begun after a quick open (main.py): the log checked whole, as a boot
    without it would have (EventLog's walk: every sealed segment against its seal). A
    break: the log set aside as at boot (powerup.open_events: events.bad, kept for the lab)
    and a new one begun with a journal-failure tilt, which locks; True if it held."""
    from .events import JOURNAL, EventLog
    from .store import JournalError
    log = EventLog(None, parked=ctrl.events)
    try:
        for _ in log.walk(True, None, lambda b: False):
            pass
        log.store.close()
        return True
    except JournalError as e:
        import os
        st = log.store
        st.close()
        os.rename(st.path, st.path[:-3] + "bad")
        ctrl.events, ctrl.locked = EventLog(st, key, ident).park(), []
        ctrl.tilt(JOURNAL, "event log refused after the boot (kept as events.bad): %s" % e)
        return False


def whole(log, wanted):
    """EventLog's open walked from the head, every record checked (EventLog.walk: only those
    `wanted` parsed); where the last whole record ends. The last entry's seq is read from it
    when it was not parsed (a seal written after it, or a torn record)."""
    ends, last = [0], None
    for off, rec in log.walk(True, ends, wanted):
        if rec is None:
            log.count += 1
            last = off
        else:
            log.take(rec)
            last = None if rec["k"] == "e" else last
    if last is not None:
        import json
        h = log.store.read_at(last, 4)
        log.seq = json.loads(log.store.read_at(last + 4, h[1] << 8 | h[2]))["n"]
    return ends[0]
