# The chain of custody compared at boot (issue 44.1; docs/security.md "Critical memory"),
# before the boot writes anything of its own: the journal's last seal carries the meters'
# generation, the event log's last entry and its tag and the counter's value as the meters'
# last commit left them (journal.custody); the meters' copies carry the journal's head
# (size, tag), the log's (seq, tag), the counter's value and the power-up they counted with
# its entry held; each entry of the log chains from the one before. So none of the three,
# nor the counter off the flash, can be deleted, cut or put back alone: a copy older than the
# journal's seal says, a log shorter than the copies or the seal say, a journal shorter than
# the copies' record, a counter ahead of the copies is a locking tilt that names what
# disagreed (journal-failure for the log, ram-error for the meters and the counter). Only
# what a power cut leaves is mended without the supervisor, recognised exactly and logged:
# the power-up the copies counted whose held entry never reached the log, the counter's step
# the copies announced but the cut stopped. Heads only: O(1) reads, no rehashing (the
# Pico's 2 s resume). Boot-only: unloaded with the boot's modules.
from binascii import hexlify

from ..eventlog.log import JOURNAL, POWER_UP, RAM, METER
from ..meters.layout import read, unpack  # (not tally.py: the boot's heap)


def _log_head(events):
    """(seq, tag) of the event log's last entry written (entries held: not yet)."""
    if events.pending:
        n, st = events.size, events.store
        tag = st.read_at(n - 8, 8) if n >= 8 else bytes(8)
        st.close()
        return events.boot - 1, tag
    return events.seq, events.head


def _moved(journal, m):
    """Whether the meters' record is no longer where their copies say, nor anywhere after a
    compaction moved it (tally.locate, loaded for it only)."""
    st = journal.store
    if st.read_at(m.pos - 8, 8) == m.tag:
        return False
    from ..meters.tally import locate
    return locate(st, m.pos, m.tag, journal.size) < 0


def compare(journal, meters, events):
    """([(class, what disagreed)], [(class, what a power cut left, mended)])."""
    bad, mended = [], []
    claim = journal.claim  # the last seal's {gen, seq, tag (the log's, hex), counter} (writer.CUSTODY), or None
    seq, ltag = _log_head(events)
    keyed = events.pads is not None
    m = None
    if meters is not None:
        raw = [read(c) for c in meters.copies]
        got = [unpack(meters.key, r) if r else None for r in raw]
        m = got[0] if got[1] is None or got[0] is not None and got[0].gen >= got[1].gen else got[1]
    if claim is not None and (m is None or m.gen <= claim["gen"]):  # (copies newer than the seal: theirs is newer)
        if claim["seq"] > seq:
            bad.append((JOURNAL, "event log cut at entry %d: the journal's last seal says it reached entry %d"
                        % (seq, claim["seq"])))
        elif claim["seq"] == seq and keyed and claim["tag"] != hexlify(ltag).decode():
            bad.append((JOURNAL, "event log's entry %d is not the one the journal's last seal names" % seq))
    if meters is None:
        return bad, mended
    if m is None:
        if not any(raw) and journal.size and (claim is not None and claim["gen"] or seq):
            bad.append((RAM, "both copies of the meters are missing: the %s says the table ran with them"
                        % ("journal's last seal" if claim is not None and claim["gen"] else "event log")))
        return bad, mended  # (both bad: the commit's RAM error)
    if claim is not None and claim["gen"] > m.gen:
        bad.append((RAM, "the meters' copies are at generation %d, the journal's last seal says %d: put back"
                    % (m.gen, claim["gen"])))
    if m.pos > journal.size:
        bad.append((RAM, "the journal ends at byte %d, before the meters' record at byte %d: cut or put back"
                    % (journal.size, m.pos)))
    elif m.pos and _moved(journal, m):
        bad.append((RAM, "the journal no longer holds the meters' record (byte %d): edited or put back" % m.pos))
    if m.ev > seq:
        bad.append((JOURNAL, "event log cut at entry %d: the meters saw %d" % (seq, m.ev)))
    elif m.ev == seq and keyed and m.lt != bytes(8) and m.lt != ltag:
        bad.append((JOURNAL, "event log's entry %d is not the one the meters saw" % seq))
    elif m.pw > seq:  # the power-up the copies counted, its entry held when the power went
        if m.pw == seq + 1 and m.ev == seq:
            mended.append((POWER_UP, "a power-up the meters counted (entry %d) whose entry a power cut "
                           "stopped: written at this boot" % m.pw))
        else:
            bad.append((JOURNAL, "event log cut at entry %d: the meters counted a power-up as entry %d" % (seq, m.pw)))
    c = meters.counter
    if c is not None and m.cnt:
        v = c.read()
        if v == m.cnt - 1:  # the step the copies announced, stopped by a power cut
            c.increment()
            mended.append((METER, "the counter's step to %d a power cut stopped: made at this boot" % m.cnt))
        elif v != m.cnt:
            bad.append((RAM, "the counter reads %d, the meters' copies are bound to %d: %s" % (
                v, m.cnt, "the flash was put back" if v > m.cnt else "not this board's counter")))
    if bad:  # the copies rebound above every claim at the next commit: the tilt, open, keeps the lock
        meters.floor = max(m.gen, claim["gen"] if claim is not None else 0)
    return bad, mended


def bind(journal, events):
    """At boot, the journal loaded, before anything else is written (this boot's power-up
    entry is held: open_events): the three compared, and the counter; what a power cut left
    mended and logged, each class that disagreed a locking tilt, written at once (with the
    held power-up: the meters' commit counts it after), before any copy is rebound. The
    tilts' classes."""
    bad, mended = compare(journal, journal.meters, events)
    for cls, what in mended:
        events.log(cls, what)
    said = []
    for cls in (JOURNAL, RAM):
        what = [w for k, w in bad if k == cls]
        if what:
            events.log(cls, "; ".join(what), None, True)
            said.append(cls)
    return said
