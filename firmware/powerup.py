# What a board knows of itself at power-up (main.py; boot-only: boot.unload frees it): its
# device key and id, and its event log opened with this boot's power-up and its cause
# (machine.reset_cause()), a watchdog reset, the crashes in a row before it; a log whose
# chain is broken set aside for the lab, never lost nor cut.
from .events import EventLog
from .store import JournalError


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


def open_events(store, key, ident, crashed=0):
    """The event log beside the journal, and this boot's power-up in it (and a watchdog
    reset, a crash before). A broken one is kept for the lab (/events.bad) and a new one
    begun, locked by a journal-failure tilt: the supervisor must look before play."""
    try:
        events = EventLog(store, key, ident)
    except JournalError as e:
        import os
        store.close()
        os.rename(store.path, store.path[:-3] + "bad")
        events = EventLog(store, key, ident)
        events.log("journal-failure", "event log refused (kept as events.bad): %s" % e, None, True)
    try:
        import machine
        cause = machine.reset_cause()
    except (ImportError, AttributeError):  # a port without it (the virtual board's)
        machine, cause = None, "reset cause unknown"
    names = {getattr(machine, n, -1): n for n in ("PWRON_RESET", "HARD_RESET", "WDT_RESET", "SOFT_RESET",
                                                  "DEEPSLEEP_RESET")}
    n = crashed
    events.log("power-up", "%s%s" % (names.get(cause, cause), ", after %d crashes in a row" % n if n else ""))
    if machine is not None and cause == getattr(machine, "WDT_RESET", -1):
        events.log("watchdog", "the watchdog reset the board: its loop stalled %d ms (main._WDT_MS)" % 8000)
    return events
