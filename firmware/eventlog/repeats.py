# Routine entries coalesced (issue 44.3): a storm of one fault is one run, not thousands of
# entries that push the tilts and clears out of the log. A routine entry (log.ROUTINE: a
# shoe fault, a device lost or rebooted, frames refused) identical to the open run's (its
# class, detail and `who`), within a minute of its last, joins it. The run's first entry is
# written at once, as every entry; its repeats are counted in the log's state (parked with
# it: EventLog.park) and written as the run's entry, {"m": the seq of its first entry, "r":
# how many, the first included, "f": the first's time, "t": the last's}, when the count
# reaches a power of two, a minute after the last written, and when the run ends (another
# entry comes). Each run entry supersedes the run's entries before it (walk.since shows the
# last alone): a storm is one entry. A power cut loses at most the repeats since the last
# written (fewer than half the run's, or a minute's). It imports nothing of log.py: it is handed the log
# (log.py imports ROUTINE from here: its classes SHOE, DEVICE_LOST, DEVICE_REBOOTED, FORGED).

ROUTINE = ("shoe-fault", "device-lost", "device-rebooted", "forged")  # log.py's classes a flood is made of


def repeat(log, cls, detail, who, significant, hold):
    """EventLog.log's first step: the entry joined to the open run (the seq of the run's last
    entry), or None, to be logged as a new entry (which opens a run if it is routine), the
    run's repeats not yet written written first, in the same write."""
    r, now = log.run, log.clock()
    gap = 60000 if log.unit == "ms" else 60
    routine = not significant and cls in ROUTINE and type(detail) is str
    if routine and r is not None and (r["c"], r["d"], r["w"]) == (cls, detail, who) and now - r["t"] <= gap:
        n = r["r"] = r["r"] + 1
        r["t"] = now
        if n & (n - 1) == 0 or now - r["at"] >= gap:
            return written(log, r, hold)
        r["due"] = True
        return log.seq
    if r is not None and r["due"]:
        written(log, r, True)  # (held: written with the entry that ends the run)
    log.run = None
    if routine:
        log.run = {"c": cls, "d": detail, "w": who, "m": log.seq + 1, "r": 1, "f": now, "t": now, "at": now,
                   "due": False}
    return None


def written(log, r, hold):
    """The run's entry: its seq."""
    more = {"m": r["m"], "r": r["r"], "f": r["f"], "t": r["t"]}
    r["at"], r["due"] = r["t"], False
    return log.log(r["c"], r["d"], r["w"], hold=hold, more=more)
