# The host interface's own operations (docs/protocol.md, "The host interface"), after the
# supervisor's credential (recall.py checks it, loads this for the frame and unloads it after):
#   SUBSCRIBE [1 | 0]          NOTICE [deals over: 4, last event: 4, state] to this host at
#                              each deal's end and each event (notice(), from the operator's
#                              link's poll: hostlink.Operator), and once at once; [0]: no more
#   BUTTON [CLEAR, 2]          disable play: a locking entry of class "disabled" (play stops
#                              at the next safe point, as at a tilt; the event log keeps it
#                              open over a reboot: boot.py's locked()), with who
#   BUTTON [CLEAR, 3]          enable play: that entry cleared, with who
# A disable or enable is answered with its own entry, as a clear is (clears.send).
from .. import wire as W
from ..compat import const
from ..wire import NOTICE, SUBSCRIBE

DISABLED = "disabled"  # the event class a disable logs, open until an enable
_DISABLE = const(2)


def _u32(n):
    return bytes((n >> 24 & 255, n >> 16 & 255, n >> 8 & 255, n & 255))


def on_frame(ctrl, link, addr, ftype, payload, who):
    if ftype == SUBSCRIBE:
        if not hasattr(link, "notify"):  # (a link built before the host interface: hostlink.board_end)
            return ctrl.error("supervisor", "%s: no subscription on this link" % who)
        link.notify = [ctrl, addr, -1, -1, -1] if payload[0] else None
        ctrl.event("supervisor", "host %s %s" % (who, "subscribed" if payload[0] else "unsubscribed"), who)
        return notice(link)
    if who[:2] == "0x":  # no HELLO yet: the log would not say who
        return ctrl.error("supervisor", "%s: a disable or enable before the device said who it is" % who)
    from .clears import send, unparked
    ev = unparked(ctrl)
    before = ev.seq if ev is not None else 0
    if payload[1] == _DISABLE:
        if DISABLED not in ctrl.locked:
            ctrl.event(DISABLED, "play disabled by the host, at the next safe point", who, True)
    elif ev is not None:
        if ev.clear(who, [DISABLED], "play enabled by the host") is not None:
            ctrl.locked = ev.locked()
            ctrl.events = ev.park()
    elif DISABLED in ctrl.locked:
        ctrl.locked.remove(DISABLED)
    ctrl.faults.append("play %s by %s" % ("disabled" if payload[1] == _DISABLE else "enabled", who))
    if payload[1] != _DISABLE and not ctrl.locked:  # the seats told in words of their own (clears.py)
        for s in range(ctrl.table.SEATS):
            ctrl.table.refuse(s, "the host enabled play (%s): play on" % who)
    ctrl.dirty = True
    send(unparked(ctrl), link, addr, before)


def state(ctrl):
    """0 running, 1 locked (a tilt), 2 disabled (the host's)."""
    return 2 if DISABLED in ctrl.locked else 1 if ctrl.locked else 0


def notice(link):
    """The host subscribed on `link` (hostlink.Operator) told, if the deals over, the last
    event or the state moved since it was last told (Operator.poll asks when they moved)."""
    n = link.notify
    if n is None:
        return
    ctrl = n[0]
    ev = ctrl.events["seq"] if ctrl.events is not None else 0  # (EventLog.park)
    now = [ctrl.game.finished_deals(), ev, state(ctrl)]
    if now != n[2:]:
        n[2:] = now
        link.send(n[1], NOTICE, _u32(now[0]) + _u32(now[1]) + bytes((now[2],)))
