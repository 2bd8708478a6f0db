# The event log in words (issue 46): each class with its cause, a shoe's fault code with its
# meaning (the firmware logs the FAULT payload as Python shows bytes: "fault b'E'"), a RAM
# clear's old meters by name, and a board time as a local date-time. The firmware logs short
# codes (firmware/events.py); the words are the host's, for tapis events, clear and table.
import re
import time

from tapis.firmware.offboard.dialect import fault_line, meaning

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
_BYTES = re.compile(r"(?:fault )?b('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")
EPOCH_2020 = 1577836800  # a board time before this is a clock never set (a Pico's RTC starts in 2021)


def cause(cls):
    """An event class in words (the class itself for one the host does not know)."""
    return CAUSES.get(cls, cls)


def _fault(m):
    import ast
    try:
        payload = ast.literal_eval("b" + m.group(1))
    except (ValueError, SyntaxError):
        return m.group(0)
    return "%s (%s)" % (meaning(payload), fault_line(payload)) if payload else "an empty fault"


def in_words(text):
    """A detail with each bytes repr ("fault b'E'") said as the fault it is ("shoe empty (E)")."""
    return _BYTES.sub(_fault, text)


def old_meters(m):
    """A RAM clear's old meters (tally.py's order) as "deals begun 201, ..., seat 0 wagered 5"."""
    from tapis.host.memory.meters import labelled
    return ", ".join("%s %d" % kv for kv in labelled(m) if kv[1])


def text(cls, detail):
    """An entry's detail in words, after its class's cause."""
    if isinstance(detail, dict):  # a RAM clear: the old meters, the tilts it cleared
        said = "old meters: %s" % (old_meters(detail.get("meters") or []) or "all 0")
        if detail.get("tilts"):
            said += "; tilts cleared: %s" % ", ".join(detail["tilts"])
        return "%s: %s" % (cause(cls), said)
    detail = detail if isinstance(detail, str) else repr(detail)
    return "%s: %s" % (cause(cls), in_words(detail)) if detail else cause(cls)


def when(entry, clock):
    """The entry's local date-time, ISO 8601 with its offset (None: no clock dates it): the
    wall time a TIME gave, else a board's own seconds once its clock was set."""
    t = entry.get("wall")
    if t is None and clock == "s" and isinstance(entry.get("time"), int) and entry["time"] >= EPOCH_2020:
        t = entry["time"]
    if t is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t)) + _offset(t)


def _offset(t):
    z = time.strftime("%z", time.localtime(t))  # +0100
    return z[:3] + ":" + z[3:] if z else "Z"
