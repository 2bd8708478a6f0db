# What leaves the board once the journal holds nothing (controller.py, at a safe point):
# the DRAWs that keep the shoe supplied, and the views the displays are shown. Functions
# of the controller (`ctrl`), which holds their state; split from its loop, which takes
# frames in.
from .. import wire as W
from ..compat import const
from ..games.rules import CHANCE

_RESEND_MS = const(2000)  # ask the shoe again if a requested card has not come by then
_EVENTS_PER_FRAME = const(16)  # table-display events per SHOW frame: a burst must fit a frame
_POLL_TURN_MS = const(10)  # the bus polls the panel of a seat whose turn it is this often
_POLL_IDLE_MS = const(100)  # ... the others' (a player may abandon or bet at any time)
_RECALL_MS = const(5000)  # the displays say "recall" this long after a recall (AGCO 13.1.4)


def mode_of(ctrl):
    """What the displays say of the table's mode: locked (the open tilts), a communication
    tilt (frames refused within the last 2 s: link.tilt, which counts each), recall, or None.
    Play the host disabled (hostframes.py) is said as that, not as a tilt."""
    if ctrl.locked:
        tilts = [c for c in ctrl.locked if c != "disabled"]
        if len(tilts) < len(ctrl.locked):
            return "disabled" + ("; locked: " + ", ".join(tilts) if tilts else "")
        return "locked: " + ", ".join(tilts)
    for link in ctrl.links:
        if link.tilt(ctrl.now):
            return "communication tilt"
    if ctrl.now - ctrl.recalled < _RECALL_MS:
        return "recall"
    return None


def board_mode(ctrl, mode):
    """The table display's: the mode, and a text-dialect shoe taken unpaired on a keyed
    table (the signed configuration's text_shoe) named as the unauthenticated shoe it is."""
    if ctrl.shoe.link.keys is None and ctrl.bus is not None and ctrl.bus.keys is not None:
        mode = "unauthenticated shoe" if mode is None else mode + "; unauthenticated shoe"
    if ctrl.screen is not None:  # the supervisor's meters screen (commands.py)
        mode = "meters" if mode is None else mode + "; meters"
    return mode


def feed_shoe(ctrl, now_ms):
    """The DRAWs (and SHUFFLE) that keep the shoe supplying what the game is due."""
    if ctrl.game.to_act != CHANCE:
        return
    link = ctrl.route[W.SHOE]
    ready = link.ready(W.SHOE)
    if link.lost(W.SHOE):
        # the shoe was reset: what was queued for it is gone (a death keeps it). Seen
        # here, not in Controller._check, so that no DRAW goes out between its return and the
        # re-ask (asking twice over-draws).
        ctrl.reask = True  # once its cards in flight are in
        ctrl.event("device-rebooted", "the shoe is back or was reset")
    if ctrl.reask and ready:
        ctrl.reask, ctrl.awaiting = False, 0
    if ctrl.awaiting:
        # asked and not all come: wait, unless the shoe has been silent that long (a
        # live shoe is heard at least at each heartbeat, and the link delivers the DRAW)
        quiet = now_ms - link.heard(W.SHOE)
        if now_ms - ctrl.asked_ms < _RESEND_MS or quiet < _RESEND_MS:
            return
    if not ready or ctrl.locked:
        return  # not greeted yet, dead, or cards it had in flight still coming; or a tilt
    ctrl.resuming = ctrl.voided = False
    n, pack = ctrl.game.cards_due()
    if pack:
        ctrl.shoe.shuffle(pack)
        ctrl.asked = pack  # what its COUNT must say (packcount.py)
    ctrl.shoe.draw(n)
    ctrl.awaiting, ctrl.asked_ms = n, now_ms


def refresh(ctrl):
    """The seats' views, the table display's bursts of events, the bus's poll rates."""
    if ctrl.bus is not None and not ctrl.bus.free():
        return  # a device is answering: its presses are taken together, then shown
    now = ctrl.now
    mode = mode_of(ctrl)  # locked (by a tilt), a communication tilt, recall, or None: every display says it
    if mode != ctrl.mode_seats:
        ctrl.dirty = True
    if ctrl.dirty:
        ctrl.dirty = False
        ctrl.mode_seats = mode
        fast = []
        for s, d in enumerate(ctrl.seats):
            view = ctrl.table.view(s)
            if mode is not None:
                view = dict(view)
                view["mode"] = mode
            if view.get("turn"):
                fast.append(s)
            d.show(view, now)
        if ctrl.bus is not None and fast != ctrl.fast:
            ctrl.fast = fast
            for s in range(len(ctrl.seats)):
                ctrl.bus.poll_every(W.PANEL + s, _POLL_TURN_MS if s in fast else _POLL_IDLE_MS)
    else:
        for d in ctrl.seats:
            d.flush(now)
    log = ctrl.game.log
    board = ctrl.board
    scr = ctrl.screen  # the supervisor's meters screen (commands.py)
    if scr is not None and ctrl.sent + len(log) - ctrl.shown > scr[1]:
        ctrl.screen = scr = None  # play resumed: the screen closes
    mode = board_mode(ctrl, mode)
    # a burst waits for more events to go with it, but a full one goes at once: else a
    # table that plays faster than 16 events a burst falls behind for ever (and the
    # log it has still to show grows in the heap)
    full = len(log) - ctrl.shown >= _EVENTS_PER_FRAME
    due = board.want is None and not board.link.waiting(board.addr) and (
        now - board.at >= board.every or full)
    while due and ctrl.shown < len(log) and not board.link.waiting(board.addr):
        chunk = log[ctrl.shown:ctrl.shown + _EVENTS_PER_FRAME]
        if full:
            board.at = now - board.every  # not held back by the display's pace
        # "n" numbers the events, so that two equal bursts are still two frames
        view = {"n": ctrl.sent, "events": [ctrl.game.public(e) for e in chunk]}
        if ctrl.forged:
            view["refused"] = ctrl.told = ctrl.forged
        if mode is not None:
            view["mode"] = mode
        if scr is not None:
            view["meters"] = scr[0]
        ctrl.mode_shown = mode
        board.show(view, now)
        ctrl.shown += len(chunk)
        ctrl.sent += len(chunk)
    if (ctrl.told != ctrl.forged or ctrl.mode_shown != mode) and board.want is None and \
            not board.link.waiting(board.addr) and now - board.at >= board.every:
        # frames refused, or the mode changed, and no events to go with
        view = {"n": ctrl.sent, "events": []}
        if ctrl.forged:
            view["refused"] = ctrl.forged
        if mode is not None:
            view["mode"] = mode
        if scr is not None:
            view["meters"] = scr[0]
        board.show(view, now)
        ctrl.told, ctrl.mode_shown = ctrl.forged, mode
    if not ctrl.keep_log and ctrl.shown:
        del log[:ctrl.shown]
        ctrl.shown = 0
