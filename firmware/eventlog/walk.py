# The event log read through, cut and begun again (events.py's EventLog.since and .compact,
# and a RAM clear's restart, and finished at boot), apart: the board loads this for a request of the log
# (clears.py), a compaction or a RAM clear only, and unloads it (a boot's open: opening.py).
# It imports nothing of events.py: it is handed the log.


def since(log, seq, cls, limit):
    """The entries after seq (of class cls, at most limit), each with "cleared": who
    cleared it (a tilt): the whole log is read, for the clears after them. A run of
    repeats (repeats.py) is its last entry alone: those it supersedes are left out."""
    last = {}  # a run's first seq: its last entry's
    for _off, rec in log.walk(False, None, lambda b: b'"m": ' in b):
        if rec is not None and "m" in rec:
            last[rec["m"]] = rec["n"]
    out, by = [], {}
    for _off, rec in log.walk(False):
        if rec is None or rec["k"] != "e" or rec["n"] in last or last.get(rec.get("m"), rec["n"]) != rec["n"]:
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


def clear(log, who, classes, detail):
    """EventLog.clear: the open tilts (those of `classes` only, if given) cleared, logged as
    a clear that names them and who; its seq, or None when nothing was open."""
    gone = [e["n"] for e in log.open if classes is None or e["c"] in classes]
    if not gone:
        return None
    return log.log("clear", detail or "cleared " + ", ".join(
        "%s #%d" % (e["c"], e["n"]) for e in log.open if e["n"] in gone), who, cleared=gone)


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


def significant(rec):
    """Whether an entry is kept whatever the flood: not routine (log.ROUTINE), or one that
    locks or clears (issue 44.3: tilts, clears, RAM clears, power-ups, checks, the supervisor's)."""
    from .repeats import ROUTINE
    return rec["k"] == "e" and (rec["c"] not in ROUTINE or "l" in rec or "x" in rec)


def _parse(body):  # compact's walk: what may be significant is parsed (a routine class's name absent)
    from .repeats import ROUTINE
    return b'"l"' in body or b'"x"' in body or not [c for c in ROUTINE if b'"c": "%s"' % c.encode() in body]


def compact(log, keep):
    """Keep the last `keep` entries or a few more, and the significant entries before them
    (significant(), the newest `keep` of them with those kept), under a new head (tagged
    from 8 zero bytes; "g": the seq of the last entry cut), which carries the open tilts cut
    and not carried. The significant entries cut are framed again after the head, chained
    from it, and closed by a join: a seal whose "p" is the tag the first entry kept chains
    from (without them, the head's "p"), so that the entries kept stay as they were written;
    the store copies and renames in one step (store.py keep). A keyed log is cut just after
    a seal, so that each segment kept is whole under its seal (a log without one is cut
    where the entries kept begin); never inside what the last compaction carried."""
    import json
    cut = kept = seen = 0  # (seen: the entries before the record at off, after a join)
    after = False  # (the record before was a seal)
    sig = []  # (offset, end, seq) of each significant entry
    ends = [0]
    for off, rec in log.walk(False, ends, _parse):  # (whole: the significant entries after the cut counted)
        if off and log.count - seen >= keep and (after if log.pads is not None else log.count - seen == keep):
            cut, kept = off, log.count - seen
        after = rec is not None and rec["k"] == "s"
        if rec is not None and rec["k"] == "s" and "p" in rec:  # a join: the carried entries before it are never a cut's
            cut = kept = seen = 0
        if rec is not None and significant(rec):
            sig.append((off, ends[0], rec["n"]))
        if rec is None or rec["k"] == "e":
            seen += 1
    if not cut:
        return log.store.close()
    before = [x for x in sig if x[0] < cut]
    start = len(before) - max(0, keep - (len(sig) - len(before)))  # (those kept count among the newest)
    opened = [e["n"] for e in log.open]  # (and an open tilt however old)
    t = 8 if log.pads is not None else 4  # (a record's tag)
    carry = [json.loads(log.store.read_at(o + 4, e - o - 4 - t)) for i, (o, e, n) in enumerate(before)
             if i >= start or n in opened]
    log.store.close()
    gone = log.seq - kept  # the seqs up to this one are cut
    ns = [e["n"] for e in carry]
    was = log.head
    prev = log.store.read_at(cut - 8, 8) if log.pads is not None else b""
    head = log.rehead(b"" if carry else prev, [e for e in log.open if e["n"] <= gone and e["n"] not in ns], gone)
    if carry:
        from binascii import hexlify
        from hashlib import sha256
        h, body = sha256(log.head), b"".join(log.frame(e) for e in carry)
        h.update(body)
        rc = log.cleared if log.cleared is not None and log.cleared["n"] <= gone else None
        head += body + log.frame(('{"k": "s", "h": "%s", "q": %d, "o": %s, "r": %s, "p": %s}' % (
            hexlify(h.digest()).decode(), gone, json.dumps([e for e in log.open if e["n"] <= gone]),
            json.dumps(rc), json.dumps(list(prev)))).encode())
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

