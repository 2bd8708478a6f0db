# The event log read through, cut and begun again (events.py's EventLog.since and .compact,
# and a RAM clear's restart, and finished at boot), apart: the board loads this for a request of the log
# (clears.py), a compaction or a RAM clear only, and unloads it.
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


def compact(log, keep):
    """Keep the last `keep` entries under a new head (tagged from 8 zero bytes, its "p" the
    tag the first entry kept chains from, as the journal's compaction), which carries the
    open tilts cut; the store copies and renames in one step (store.py keep)."""
    cut, i, first = 0, 0, log.count - keep
    for off, _rec in log.walk(False, None, lambda b: False):
        if i == first + 1:  # (the head is record 0)
            cut = off
            break
        i += 1
    if not cut:
        return
    kept = log.seq - keep  # the seqs up to this one are cut
    carried = [e for e in log.open if e["n"] <= kept]
    was = log.head
    prev = log.store.read_at(cut - 8, 8) if log.pads is not None else b""
    head = log.rehead(prev, carried)
    log.head = was
    log.store.keep(cut, log.size, head)
    log.size += len(head) - cut
    log.count = keep


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
