# What the controller looks at its safe points (Controller._check, every 50 ms) besides the
# devices' health: the door's pin, and the frames the links refused, counted into bursts.
# Nothing here is per frame: the links count what they refuse (link.forged), this reads
# the sum. A burst (the signed configuration's `attack` refused frames within `window`
# seconds, config.tilts) is a bus-attack event, which locks only if the configuration says
# so: the MAC is 4 bytes, so a patient forger's tries are seen and logged, not only dropped.
# The refused frames of each window are one "forged" entry at the window's end (a power cut
# loses at most one window's count, never an attack: that one is logged at once).
from .compat import const

_DOOR = "door-open"  # events.py's classes: named here so that this small module needs not load it
_FORGED = "forged"
_ATTACK = "bus-attack"
ATTACK = const(20)  # config.tilts' defaults: refused frames that make a burst
WINDOW_MS = const(10000)  # ... within this many ms


class Watch:
    """One per controller: the door as last read, and the refused frames' window."""

    def __init__(self, door=None, attack=ATTACK, window_ms=WINDOW_MS, lock=False):
        """door(now_ms): True while the door is open (the board's pin, the simulator's
        switch), or None: no door."""
        self.door = door
        self.was_open = False
        self.attack, self.window_ms, self.lock = attack, window_ms, lock
        self.start = 0  # the window's first ms
        self.refused = 0  # frames refused in it
        self.alerted = False  # its attack logged

    def check(self, ctrl, now, new):
        """ctrl's safe point at `now`: `new` frames refused since the last."""
        if self.door is not None:
            opened = bool(self.door(now))
            if opened and not self.was_open and _DOOR not in ctrl.locked:
                ctrl.tilt(_DOOR, "the door was opened")
            self.was_open = opened
        if now - self.start >= self.window_ms:
            if self.refused:
                ctrl.event(_FORGED, "%d frames refused in %d s" % (self.refused, (now - self.start) // 1000))
            self.start, self.refused, self.alerted = now, 0, False
        if new:
            self.refused += new
            if self.refused >= self.attack and not self.alerted:
                self.alerted = True
                ctrl.tilt(_ATTACK, "%d frames refused in %d ms: forged, replayed or out of session" % (
                    self.refused, now - self.start), self.lock)

    def shut(self, now):
        """Whether the door is shut now (a door-open tilt is cleared only then)."""
        return self.door is None or not self.door(now)
