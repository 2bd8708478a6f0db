# The supervisor's side of the tilts, the clears (SPEC §8's credential first: recall.py checks it, then
# loads this for the frame and unloads it after):
#   EVENTS [since: 4 bytes]   the event log's entries after `since` (tapis events --port)
#   BUTTON [CLEAR, 0]         clear the open tilts (tapis clear), logged with who
#   BUTTON [CLEAR, 1]         a RAM clear (tapis clear --ram): meters, journal and event log
#                             together, the first entry of the new log the old meters' values;
#                             a disable (the host's, hostframes.py) is written again after it
# Each is answered with RECORD frames [i, n, k, kn] + an entry's JSON (as RECALL's games,
# chunked), up to PAGE entries; [0, 0, 0, 0] when there are none: a clear's answer is its
# own entry. A clear is never automatic: only a frame with the credential makes one.
import json

from .. import wire as W
from ..compat import const
from ..eventlog.log import EventLog

PAGE = const(16)
_DOOR = "door-open"
_DISABLED = "disabled"  # (hostframes.DISABLED: the host's disable, which no clear of the supervisor's lifts)


def unparked(ctrl):
    """The controller's event log, from where it was parked (Controller.event), or None."""
    return EventLog(None, parked=ctrl.events) if ctrl.events is not None else None


def on_frame(ctrl, link, addr, ftype, payload, who):
    if ftype == W.EVENTS:
        since = payload[0] << 24 | payload[1] << 16 | payload[2] << 8 | payload[3]
        return send(unparked(ctrl), link, addr, since)
    if who[:2] == "0x":  # no HELLO yet: the log would not say who
        return ctrl.error("supervisor", "%s: a clear before the device said who it is" % who)
    if payload[1] == 1:
        ram_clear(ctrl, who)
        ctrl.dirty = True
        return send(unparked(ctrl), link, addr, 0)
    ev = unparked(ctrl)
    before = ev.seq if ev is not None else 0
    from ..table.tilts import shut
    keep = (_DISABLED,) if shut(ctrl.watch, ctrl.now) else (_DOOR, _DISABLED)  # an open door stays a
    # tilt; a table the host disabled stays so until it enables it (hostframes.py)
    gone = [c for c in ctrl.locked if c not in keep]
    if ev is not None:
        ev.clear(who, gone)
        ctrl.locked = ev.locked()
        ctrl.events = ev.park()
    else:
        ctrl.locked = [c for c in ctrl.locked if c in keep]
    ctrl.faults.append("tilts cleared by the supervisor %s: %s" % (who, ", ".join(gone) or "none open"))
    if gone and not ctrl.locked:  # the seats told (their last word was the lock's refusal),
        # each clear in words of its own: a press refused while locked, its refusal not yet
        # shown, must see a view it has not acted on (the same words again would not be new)
        n = ev.seq if ev is not None else ctrl.now
        for s in range(ctrl.table.SEATS):
            ctrl.table.refuse(s, "the supervisor cleared the tilt (#%d): play on" % n)
    ctrl.dirty = True
    send(ev, link, addr, before)


def send(ev, link, addr, since):
    got = ev.since(since, None, PAGE) if ev is not None else []
    if not got:
        link.send(addr, W.RECORD, bytes(4))
    for i, e in enumerate(got):
        b = json.dumps(e).encode()
        n = (len(b) + W.RECORD_CHUNK - 1) // W.RECORD_CHUNK
        for k in range(n):
            link.send(addr, W.RECORD, bytes((i, len(got), k, n)) + b[k * W.RECORD_CHUNK:(k + 1) * W.RECORD_CHUNK])


def ram_clear(ctrl, who):
    """Meters, journal and event log cleared together: first the new event log, in one
    step, its first entry the old meters' final values and the journal's last tag (so that
    a power cut before the journal is cleared is finished at boot: finish()); then the
    journal emptied; the meters (Meters.clear) all 0 from its start; its new game begun.
    A power cut at any step is finished at boot (walk.finish)."""
    from binascii import hexlify
    from ..games import find
    j, ev = ctrl.journal, unparked(ctrl)
    m = j.meters if j is not None else None
    meters = None
    if m is not None:  # committed at the journal's end: a boot finds them there (finish())
        meters = list(m.commit(j, force=True).m)  # (tally.py's order: docs/protocol.md, "Meters")
    # a disable is the host's remote state, not a fault: the new log keeps it (hostframes.py)
    kept = [(e["c"], e["d"], e.get("w")) for e in (ev.open if ev is not None else ()) if e["c"] == _DISABLED]
    detail = {"meters": meters, "tilts": [c for c in ctrl.locked if c != _DISABLED], "journal": ""}
    if j is not None:
        j.flush()
        if j.store.size() >= 8:
            detail["journal"] = hexlify(j.store.read_at(j.store.size() - 8, 8)).decode()
    if ev is not None:
        detail["events"] = [ev.seq, hexlify(ev.head).decode()]
        from ..eventlog.walk import restart
        restart(ev, "ram-clear", detail, who, kept)
        ctrl.events = ev.park()
    ctrl.locked = ev.locked() if ev is not None else [c for c in ctrl.locked if c == _DISABLED]
    ctrl.watch.opened = False  # a door still open tilts again at the next safe point
    if j is not None:
        kit = find(j.name)
        game = kit.Rules(kit.Options.restore(j.opts))
        _empty(j)
        if m is not None:  # before the new game's records: they are counted from 0
            m.clear(j)
        j.begin(j.name, game)
        j.write({"k": "s", "do": "ram-clear", "who": who})
        j.flush()
        ctrl.table, ctrl.game = kit.Table(game), game
        ctrl.shown = 0
        ctrl.awaiting = 0
        ctrl.resuming = ctrl.voided = True  # what the shoe had in flight is not the new game's
    ctrl.faults.append("RAM clear by the supervisor %s" % who)


def _empty(j):
    """The journal's store emptied and the journal as a fresh one."""
    j.store.keep(0, 0)
    j.size = j.fed = j.number = 0
    j.starts, j.held, j.head, j.seg, j.frames = [], b"", bytes(8), None, {}
