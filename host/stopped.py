# Why a table stopped, in words an operator acts on (issue 46): which device, what fault, what
# to do; and what each class of the event log means (tapis events, tapis table). The firmware
# logs short codes (firmware/events.py); the words are the host's.
import re

from tapis.firmware import wire as W

STOPPED = 3  # tapis table's exit status when the table cannot go on: locked by a tilt, or stalled

CAUSES = {  # an event class -> what happened, in words
    "power-up": "the table was switched on",
    "watchdog": "the board restarted itself: its watchdog fired",
    "ram-error": "the critical memory failed its check (the meters, journal and event log disagree)",
    "journal-failure": "the journal could not be written or read back",
    "check-failed": "the software check failed: the code on the board is not the code that was signed",
    "check-passed": "the software check passed",
    "shoe-fault": "the shoe reported a fault",
    "deck-count": "the cards counted are not a whole pack",
    "device-lost": "a device on the bus stopped answering",
    "device-rebooted": "a device on the bus came back or was reset",
    "forged": "a frame failed its authentication (forged, replayed or corrupted)",
    "bus-attack": "frames on the bus look like an attack",
    "supervisor": "a supervisor's action",
    "door-open": "the table's door was opened",
    "meter-repaired": "a meters copy was rebuilt from the journal",
    "clear": "a supervisor cleared the open tilts",
    "ram-clear": "a supervisor cleared the critical memory (a RAM clear)",
}
FIX = {  # a locking tilt -> what is done before the supervisor clears it
    "ram-error": "have the board's memory checked",
    "journal-failure": "have the board's flash checked",
    "check-failed": "flash the signed firmware again (tapis flash --verify)",
    "door-open": "close the door",
    "deck-count": "count the pack and replace it if a card is missing",
}
_DEAD = re.compile(r"device 0x([0-9a-f]{2}) is dead: no answer")


class TableStopped(Exception):
    """The table cannot go on (the message says why and what to do): exit STOPPED."""


def cause(cls):
    """An event class in words (the class itself for one the host does not know)."""
    return CAUSES.get(cls, cls)


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
    return text


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
