# The event log read through, cut and begun again (events.py's EventLog.since and .compact,
# and a RAM clear's restart, and finished at boot), apart: the board loads this for a request of the log
# (clears.py), a compaction or a RAM clear only, and unloads it (a boot's open: opening.py).
# It imports nothing of events.py: it is handed the log.


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
    log.open, log.pending = [], b""  # (a held power-up: the old log's)
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
    m = journal.meters
    if m is not None:
        from ..meters.tally import read, unpack
        for c in m.copies:
            t = unpack(m.key, read(c))
            if t is not None and hexlify(t.tag).decode() == old:
                m.gen = t.gen  # (the fresh copies' generation goes on from theirs)
                m.clear(journal)  # at the journal's start: its records, the new game's, counted
                break
    return done

