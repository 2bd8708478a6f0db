# Why a table stopped, in words an operator acts on (issue 46): which device, what fault, what
# to do (the event log's classes in words: host/memory/words.py).
import re

from tapis.firmware import wire as W
from tapis.host.memory.words import FIX, cause, in_words

STOPPED = 3  # tapis table's exit status when the table cannot go on: locked by a tilt, or stalled

_DEAD = re.compile(r"device 0x([0-9a-f]{2}) is dead: no answer")
_FAULT = re.compile(r"device 0x([0-9a-f]{2}) (fault .*)")


class TableStopped(Exception):
    """The table cannot go on (the message says why and what to do): exit STOPPED."""


def device(addr):
    """A bus address in words: 'the shoe', 'seat 2's display'."""
    if addr == W.SHOE:
        return "the shoe"
    if addr == W.TABLE_DISPLAY:
        return "the table display"
    if addr == W.HOST:
        return "the operator's link"
    for base, what in ((W.DISPLAY, "display"), (W.PANEL, "button panel")):
        if base <= addr < base + 8:
            return "seat %d's %s" % (addr - base, what)
    return "the device at 0x%02x" % addr


def fault(text):
    """A controller's fault line in words: a device that does not answer is named."""
    m = _DEAD.fullmatch(text)
    if m:
        return "%s does not answer" % device(int(m.group(1), 16))
    m = _FAULT.fullmatch(text)
    if m:
        return "%s: %s" % (device(int(m.group(1), 16)), in_words(m.group(2)))
    return in_words(text)


def clearing(port_hint):
    return ("a supervisor clears it over the operator's link: tapis clear --port %s (tapis events shows the "
            "tilt)" % port_hint)


def locked(classes, port_hint="PATH", entries=()):
    """The sentence for a table held by the tilts of `classes` (oldest first); entries: the
    open tilts' log entries, for their numbers and details."""
    said = {e["c"]: e for e in entries}
    what = "; ".join("%s%s (%s%s)" % ("#%d " % said[c]["n"] if c in said else "", c, cause(c),
                                      ": %s" % said[c]["d"] if c in said and said[c].get("d") else "")
                     for c in classes)
    fixes = [FIX[c] for c in classes if c in FIX]
    return "the table is locked by %s %s. %s%s" % (
        "the tilt" if len(classes) == 1 else "the tilts", what,
        ("First " + ", then ".join(fixes) + "; then " if fixes else "To go on, "), clearing(port_hint))


def stalled(faults, classes=(), port_hint="PATH"):
    """Why a table made no progress, from its latest faults and the tilts that hold it."""
    if classes:
        return locked(list(classes), port_hint)
    dead = []
    for f in faults:
        said = fault(f)
        if said not in dead:
            dead.append(said)
    if not dead:
        return ("the table made no progress and logged no fault: run it again with the same --seed "
                "and report it with the command line")
    return ("the table cannot go on: %s. Check %s cable and power, then run it again (an unfinished "
            "game in a --journal resumes)" % ("; ".join(dead[-4:]), "that device's" if len(dead) == 1 else "those devices'"))


def booted_locked(ctrl, journal):
    """The sentence for a table whose journal's boot left it locked (an open tilt, or what
    firmware/boot/custody.py found disagreeing): which tilts, what, and how it is cleared."""
    from tapis.firmware.eventlog.log import EventLog
    return "--journal %s: %s" % (journal, locked(
        ctrl.locked, "PATH with the table run as tapis table --journal %s --host-port PATH" % journal,
        EventLog(None, parked=ctrl.events).open))
