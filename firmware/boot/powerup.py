# What a board knows of itself at power-up (main.py; boot-only: boot.unload frees it): its
# device key and id, and its event log opened with this boot's power-up and its cause
# (machine.reset_cause()), a watchdog reset, the crashes in a row before it; a log whose
# chain is broken set aside for the lab, never lost nor cut; a filesystem short of space
# (make_room), its journal compacted and that logged, locking until the supervisor clears it.
from ..compat import const
from ..eventlog.log import JOURNAL, EventLog
from ..journal.store import JournalError

MIN_FREE = const(16384)  # bytes the filesystem must have free at boot, else the journal is compacted


def device(root="/"):
    """(device key, device id) of this board: device.key (hex, written by tapis flash)
    and machine.unique_id() in hex (else device.id); (None, "") without a key. The
    journal is chained under the key and names the id."""
    from binascii import hexlify, unhexlify
    try:
        with open(root + "device.key") as f:
            key = unhexlify(f.read().strip())
    except (OSError, ValueError):
        return None, ""
    try:
        import machine
        return key, hexlify(machine.unique_id()).decode()
    except (ImportError, AttributeError):
        pass
    try:
        with open(root + "device.id") as f:
            return key, f.read().strip()
    except OSError:
        return key, ""


def open_events(store, key, ident, crashed=0, quick=False):
    """The event log beside the journal, and this boot's power-up in it (and a watchdog
    reset, a crash before). A broken one is kept for the lab (/events.bad) and a new one
    begun, locked by a journal-failure tilt: the supervisor must look before play. quick:
    opened from its last seal (main.py checks the rest once playing: deferred)."""
    try:
        events = EventLog(store, key, ident, quick=quick)
    except JournalError as e:
        events = aside(store, key, ident)
        events.log(JOURNAL, "event log refused (kept as events.bad): %s" % e, None, True)
    try:
        import machine
        cause = machine.reset_cause()
    except (ImportError, AttributeError):  # a port without it (the virtual board's)
        machine, cause = None, "reset cause unknown"
    names = {getattr(machine, n, -1): n for n in ("PWRON_RESET", "HARD_RESET", "WDT_RESET", "SOFT_RESET",
                                                  "DEEPSLEEP_RESET")}
    n = crashed  # (quick: a board's boot, which writes them once playing: deferred)
    events.log("power-up", "%s%s" % (names.get(cause, cause), ", after %d crashes in a row" % n if n else ""),
               hold=quick)
    if machine is not None and cause == getattr(machine, "WDT_RESET", -1):
        events.log("watchdog", "the watchdog reset the board: its loop stalled %d ms (main._WDT_MS)" % 8000,
                   hold=quick)
    return events


def aside(store, key, ident):
    """A broken log kept for the lab (/events.bad) and a new one begun in its place."""
    import os
    store.close()
    os.rename(store.path, store.path[:-3] + "bad")
    return EventLog(store, key, ident)


def deferred(ctrl, key, ident, check):
    """Once play has begun after the boot's quick open (main.py's loop, after its first
    step): the power-up's entry written (open_events held it), and with `check`
    (opening.quick's unchecked) the log checked whole, every sealed segment against its
    seal, as a boot without it would have. A break: the log set aside as at boot
    (open_events) and a journal-failure tilt, which locks; True if it held."""
    st = ctrl.events["store"]  # (EventLog.park)
    log = EventLog(st, parked=ctrl.events)
    log.write()
    ctrl.events = log.park()
    if not check:
        return True
    try:
        for _ in log.walk(True, None, lambda b: False):
            pass
        st.close()
        return True
    except JournalError as e:
        ctrl.events, ctrl.locked = aside(st, key, ident).park(), []
        ctrl.tilt(JOURNAL, "event log refused after the boot (kept as events.bad): %s" % e)
        return False


def free_bytes():
    import os
    try:
        s = os.statvfs("/")
        return s[0] * s[4]
    except (AttributeError, OSError):
        return MIN_FREE


def make_room(store, key, ident, meters=None, free=free_bytes):
    """At boot, a filesystem short of space has its journal cut to the unfinished game
    (not a journal whose chain is broken: that one is refused, never cut); the meters
    brought up to its end first (a compaction never drops records they still need). The
    event log and the meters are never its to cut. Both copies of the meters bad: nothing
    cut (the journal's records are all the lab has left of them) and the boot goes on to
    boot.build, whose commit finds them bad again and tilts (a locking RAM error). (why the
    table cannot run or None, how many finished games were dropped)."""
    if free() >= MIN_FREE:
        return None, 0
    from ..journal.writer import Journal
    from ..journal.resume import load  # boot-only: boot.unload frees it
    j = Journal(store, key=key, device=ident)
    try:
        load(j, False, False)  # (where the games start is all it needs)
    except JournalError:
        return None, 0  # boot.build refuses it, on the displays
    dropped = max(len(j.starts) - 1, 0)
    if dropped > 0:
        if meters is not None:
            j.meters = meters
            try:
                meters.commit(j, True)
            except JournalError:  # (meters.MeterError: no on_tilt before the controller)
                store.close()
                return None, 0
        j.keep = 0
        j.compact()
    left = free()
    if left < MIN_FREE:
        return "the filesystem is full (%d bytes free) even with the journal compacted" % left, dropped
    return None, dropped


def compacted(events, dropped):
    """The journal cut by make_room, in the event log: critical memory the supervisor did not
    clear (SPEC §10), so it is said, with what went (the meters keep their totals), and it
    locks: the table plays again once the supervisor has seen it and cleared it (the clear
    names who). The cut is made first: a full filesystem could record no game."""
    events.log(JOURNAL, "the filesystem was short of space: the journal compacted to its unfinished "
               "game, %d finished game%s dropped (the meters keep their totals)" % (dropped, "" if dropped == 1 else "s"),
               None, True)
