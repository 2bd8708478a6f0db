# What the controller looks at its safe points (Controller._check, every 50 ms) besides the
# devices' health: the door's pin, and the frames the links refused, counted into bursts;
# and its events written to the event log (log: Controller.event; a tilt counted in the meters).
# Nothing here is per frame: the links count what they refuse (link.forged), the controller
# reads the sum. The controller keeps the state, `watch`, a plain list, and loads this module
# only when something changed (the door, a frame refused, a burst's window over): on a board
# it is out of the heap the rest of the time. A burst (the signed configuration's `attack`
# refused frames within `window` seconds of the first, config.tilts) is a bus-attack event,
# which locks only if the configuration says so: the MAC is 4 bytes, so a patient forger's
# tries are seen and logged, not only dropped. Each window's refused frames are one "forged"
# entry at its end (a power cut loses at most one window's count, never an attack: that one
# is logged at once).
from .compat import const

# config.tilts' defaults: refused frames (well formed, failing their MAC or counter) that make
# a burst. Measured (docs/reliability.md, "Noise is not an attack"): lossy lines up to 20 %
# and random bytes into either port, none in any window; a spliced device at 1 in 20 of the
# bus's silent ms, 6 to 70 in its first 10 s
ATTACK = const(4)
WINDOW_MS = const(10000)  # ... within this many ms of the first
# watch's items: DOOR(now_ms) -> True while the door is open (the board's pin, the
# simulator's switch) or None, the door OPEN as last read, a burst's START (ms), the
# frames REFUSED since, ALERTED (its attack logged), and the policy: ATTACK_N, WINDOW, LOCK
DOOR, OPEN, START, REFUSED, ALERTED, ATTACK_N, WINDOW, LOCK = range(8)


def watch(door=None, attack=ATTACK, window_ms=WINDOW_MS, lock=False):
    """A controller's `watch` (Controller.__init__ makes the default one)."""
    return [door, False, 0, 0, False, attack, window_ms, lock]


def check(ctrl, now, new):
    """ctrl's safe point at `now`, something changed: `new` frames refused since the last."""
    w = ctrl.watch
    if w[DOOR] is not None:
        opened = bool(w[DOOR](now))
        if opened and not w[OPEN] and "door-open" not in ctrl.locked:
            ctrl.tilt("door-open", "the door was opened")
        w[OPEN] = opened
    if w[REFUSED] and now - w[START] >= w[WINDOW]:  # a burst's window is over
        ctrl.event("forged", "%d frames refused in %d s" % (w[REFUSED], (now - w[START]) // 1000))
        w[REFUSED], w[ALERTED] = 0, False
    if new:
        if not w[REFUSED]:
            w[START] = now
        w[REFUSED] += new
        if w[REFUSED] >= w[ATTACK_N] and not w[ALERTED]:
            w[ALERTED] = True
            ctrl.tilt("bus-attack", "%d frames refused in %d ms: forged, replayed or out of session" % (
                w[REFUSED], now - w[START]), w[LOCK])


def log(ctrl, cls, detail, who, locks, tilt=False):
    """Controller.event: the entry logged, the open tilts read back; the log parked again
    (plain values: EventLog.park), so that events.py leaves the heap with this module. A
    tilt's is counted in the meters too."""
    n = None
    if ctrl.events is None:
        if locks:
            ctrl.locked.append(cls)
    else:
        from .events import EventLog
        ev = EventLog(None, parked=ctrl.events)
        n = ev.log(cls, detail, who, locks)
        ctrl.locked = ev.locked()
        ctrl.events = ev.park()
    if tilt:  # after its entry: a power cut between leaves the tilt logged (it locks), one
        metered(ctrl, cls)  # count short; and the copies note that entry (tally.commit)
    return n


# the meters' tilt classes (tally.TILTS) of the event log's
_METERED = {"ram-error": "ram", "check-failed": "software", "journal-failure": "journal", "door-open": "door",
            "deck-count": "shoe", "shoe-fault": "shoe", "bus-attack": "bus"}


def metered(ctrl, cls):
    """A tilt counted in the meters by class (a RAM error is the meters' own: their copies
    are being rebuilt, and a commit now would read them again)."""
    j = ctrl.journal
    m = getattr(j, "meters", None) if j is not None else None
    if m is not None and cls != "ram-error":
        m.commit(j, tilt=_METERED.get(cls, "other"))


def shut(w, now):
    """Whether the door is shut now (a door-open tilt is cleared only then)."""
    return w[DOOR] is None or not w[DOOR](now)
