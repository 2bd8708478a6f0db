# What the controller looks at its safe points (Controller.step, every 50 ms): the devices'
# health, and the frames the links refused, the door and the bursts of refused frames, in a
# Watch the controller keeps; tilts.py, loaded only when one of those changed, acts on it.
from .. import wire as W
from ..compat import const, unload

# config.tilts' defaults: refused frames (well formed, failing their MAC or counter) that make
# a burst. Measured (docs/reliability.md, "Noise is not an attack"): lossy lines up to 20 %
# and random bytes into either port, none in any window; a spliced device at 1 in 20 of the
# bus's silent ms, 6 to 70 in its first 10 s
ATTACK = const(4)
WINDOW_MS = const(10000)  # ... within this many ms of the first


class Watch:
    def __init__(self, door=None, attack=ATTACK, window_ms=WINDOW_MS, lock=False):
        """door(now_ms) -> True while the door is open (the board's pin, the simulator's
        switch), or None; the policy (the signed configuration's, config.tilts): `attack`
        refused frames within `window_ms` of the first are a burst, which locks if `lock`."""
        self.door = door
        self.opened = False  # the door as last read
        self.start = 0  # a burst's first refused frame (ms)
        self.refused = 0  # the frames refused since
        self.alerted = False  # its attack logged
        self.attack, self.window_ms, self.lock = attack, window_ms, lock


def look(ctrl):
    """The controller's safe point (every 50 ms): the frames the links refused counted and
    shown, the door and the bursts (tilts.py, loaded only if something changed), each
    device's health: lost, dead or refused, back or reset (its view sent again, whole)."""
    del ctrl.faults[:-32]  # a board keeps the latest only (every kind of fault appends)
    n = 0
    for link in ctrl.links:
        n += link.forged
    new = n - ctrl.forged
    if new > 0:  # refused by the links, never acted on: counted, and shown
        ctrl.error("forged", "%d bus frames refused: forged, replayed or out of session" % new)
        ctrl.forged = n  # (outgoing.refresh shows it)
    w = ctrl.watch  # the door as last read, a burst of refused frames: tilts.py, loaded if changed
    door = w.door is not None and bool(w.door(ctrl.now))
    if new > 0 or w.opened != door or w.refused and ctrl.now - w.start >= w.window_ms:
        from .tilts import check
        check(ctrl, ctrl.now, max(0, new))
        unload("table.tilts")
    for a in ctrl.down:
        link = ctrl.route[a]
        bad = link.refused(a) or ("device 0x%02x is dead: no answer" % a if not link.alive(a) else None)
        if bad and not ctrl.down.get(a):
            ctrl.faults.append(bad)
            ctrl.event("device-lost", bad)
        if a != W.SHOE and link.lost(a):  # back or reset: its view is sent again, whole
            ctrl.event("device-rebooted", "device 0x%02x is back or was reset" % a)
            for d in ctrl.seats + [ctrl.board]:
                if d.addr == a:
                    d.reset()
                    ctrl.dirty = True
                    if d is ctrl.board:
                        ctrl.shown = max(0, ctrl.shown - 8)  # what happened last, again
        ctrl.down[a] = bool(bad)
