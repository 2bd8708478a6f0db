# The emulated table's milliseconds, each part stepped only when it may act (issue 33.3).
#
# EmulatedTable.step steps the controller, every device and every wire each millisecond;
# most of those steps do nothing: a device whose link has no timer due and no byte in, a
# controller waiting for an answer on the bus. Here each part is stepped in a millisecond
# only if something may happen in it: bytes came in (the wires' lazy ends hand a clean
# frame over whole, in the millisecond its last byte arrives, and a frame a bus device
# would only hear go by is not handed over at all: whole.py), or one of its timers is
# due (the wakes below, read off the firmware's state: a resend, a HELLO, a heartbeat, a
# bus poll or a silent device's turn, a display's pace, the shoe asked again, the health
# check). A part not stepped in a millisecond is one whose step would have changed
# nothing, and a millisecond in which no part is stepped and no byte is handed over is
# skipped (the wires spend its credit later, at once): the run is the same, millisecond for
# millisecond, byte for byte (tests/simulator/table/test_clock.py plays it both ways).
#
# A wake may come early (the step then does nothing) but never late. The firmware's
# timings are its own constants, mirrored here (tests/simulator/table/test_clock.py holds them equal).
# `until` is asked after each millisecond in which something happened: a predicate on
# the game or the devices sees every change, one on the clock alone would not.
from tapis.firmware import wire as W
from tapis.firmware.link.bus import BusMaster
from tapis.firmware.table.controller import Controller
from tapis.firmware.offboard.device import BusDevice
from tapis.firmware.games.rules import CHANCE
from tapis.simulator.table.devices import EmuConsole, EmuDisplay, EmuShoe
from tapis.simulator.table.faults import FaultyShoe

CHECK_MS = 50  # controller.py's _CHECK_MS: the device health, looked at this often
RESEND_MS = 2000  # outgoing.py's _RESEND_MS: the shoe asked again after this long
EVENTS_PER_FRAME = 16  # outgoing.py's _EVENTS_PER_FRAME: a full burst goes at once
ANSWER_MS = 4  # bus.py's _ANSWER_MS: a device silent this long has its turn taken back
NEVER = 1 << 62

DEVICES = (EmuShoe, FaultyShoe, EmuDisplay, EmuConsole)  # stepped by what their link polls


def link_wake(link, now):
    """The first millisecond after `now` in which link.poll may act with no bytes in."""
    if link.announce:
        return now + 1
    w = NEVER
    hold = link.hold
    rto, beat = link.rto, link.heartbeat
    for p in link.peers.values():
        if p.ack_due and not hold:
            return now + 1
        pend = p.pending
        if pend and not p.quiet and pend[0][2] is not None and pend[0][2] + rto < w:
            w = pend[0][2] + rto  # a resend
        if p.greet:
            if not p.helloed:  # HELLO again
                t = now + 1 if p.hello_ms is None else p.hello_ms + (beat if p.dead else rto)
            elif not pend:  # a heartbeat
                t = max(p.heard, p.ping_ms) + beat
            else:
                continue
            if t < w:
                w = t
    return w if w > now else now + 1


def bus_wake(bus, now):
    """BusMaster.poll's own: a silent device's turn taken back, the bus handed over."""
    w = link_wake(bus, now)
    if bus.owner is not None:
        if bus.turn is not None:
            return now + 1
        t = max(bus.until, bus.rx_ms) + ANSWER_MS
    else:
        for q in bus.queue.values():
            if q:
                return now + 1
        t = NEVER
        polled = bus.polled
        for a, every in bus.every.items():
            due = polled.get(a, -100000) + every
            if due < t:
                t = due
    return min(w, t) if t > now else now + 1


def display_wake(d, now):
    """Display.flush: a view held back for the display's pace."""
    if not d.link.alive(d.addr):
        return now + 1 if d.want is not None or d.codec.sent is not None else NEVER
    want = d.want
    if want is None or d.link.waiting(d.addr):
        return NEVER
    if want.get("turn"):
        return now + 1
    return max(now + 1, d.at + d.every)


def controller_wake(c, now):
    """The first millisecond after `now` in which Controller.step may act with no bytes in."""
    bus = c.bus
    if bus.owner is None:  # the quick answers first: the bus handed over, the views made
        if c.dirty:
            return now + 1
        for q in bus.queue.values():
            if q:
                return now + 1
    elif bus.turn is not None:
        return now + 1
    w = c.checked + CHECK_MS
    for link in c.links:
        t = bus_wake(link, now) if link is c.bus else link_wake(link, now)
        if t < w:
            w = t
    game = c.game
    if game.to_act == CHANCE:  # the shoe kept supplied
        shoe = c.route[W.SHOE]
        p = shoe.peers.get(W.SHOE)
        if p is not None and p.lost and not p.dead:
            return now + 1
        ready = shoe.ready(W.SHOE)
        if c.awaiting and not c.reask:
            if ready:
                w = min(w, max(c.asked_ms, shoe.heard(W.SHOE)) + RESEND_MS)
        elif ready:
            return now + 1
    if bus.owner is None:  # the displays refreshed while the bus is free
        for d in c.seats:
            t = display_wake(d, now)
            if t < w:
                w = t
        board = c.board
        if board.want is None and not board.link.waiting(board.addr):
            if len(game.log) - c.shown >= EVENTS_PER_FRAME:
                return now + 1
            if c.shown < len(game.log) or c.told != c.forged:
                w = min(w, board.at + board.every)
    return w if w > now else now + 1


def fits(sim):
    """Can this table be run here? The controller and devices as simulator/table/emulated.py builds
    them, the board's wires, no journal, no pacer: else every part is stepped each ms."""
    c = sim.controller
    return (type(c) is Controller and c.journal is None and c.keep_log and sim.pacer is None
            and len(sim.lines) == 2 and isinstance(c.bus, BusMaster) and len(c.links) == 2
            and all(type(d) in DEVICES for d in sim.devices)
            and sum(len(w.ends) for w in sim.lines) == 2 + len(sim.devices))


def _lazy(link, end):
    """A link's end of its wire made lazy: what its decoder is, what it may ignore."""
    end.lazy, end.synced, end.holding = True, False, None
    end.max_in = link.decoder.max
    # the longest frame handed whole: one its decoder takes, and only if a millisecond's bytes
    # do not overrun its buffer (they go a millisecond at a time)
    end.longest = end.max_in + 8 if int(end.wire.per_ms) < end.rx_size else -1
    end.at_rest = lambda: not link.decoder.buf
    if isinstance(link, BusDevice):  # it takes frames to its own addresses only
        addrs, peers = link.addrs, link.peers

        def ignores(a):
            if a in addrs:
                return False
            for p in peers.values():  # hearing any frame, a device that gave up resending
                if p.quiet:  # starts again (Link.poll)
                    return False
            return True
        end.ignores = ignores
    else:
        end.ignores = lambda a: False
    end.wire.lazy = True


def run(sim, until, on_events, stall, stalled):
    """EmulatedTable.run, each part stepped only when it may act: stalled(message, faults, locked) is
    raised after `stall` ms without an event, as there."""
    game, ctrl, devices, lines = sim.game, sim.controller, sim.devices, sim.lines
    mine = [end for _a, end in sim.wires]
    for d in devices:
        _lazy(d.link, d.link.port)
    for link, end in zip(ctrl.links, mine):
        _lazy(link, end)
    bus = ctrl.bus
    # the bus's other ends: when the board last heard a byte on it (BusMaster.poll takes a
    # device's turn back after ANSWER_MS without one; a frame handed over whole comes late)
    talkers = [e for e in mine[1].wire.ends if e is not mine[1]]
    parts = [ctrl] + list(devices)
    ins = [mine] + [[d.link.port] for d in devices]  # each part's ends
    links = [None] + [d.link for d in devices]
    inboxes = [(i, e) for i in range(len(parts)) for e in ins[i]]  # each end, with its part's index
    order = range(len(parts))
    for line in lines:
        line.advance(sim.now)
        line.written = False
    wakes = [sim.now + 1] * len(parts)
    lw = [line.wake(sim.now) for line in lines]  # a line not written to is stepped at its wake
    both = range(len(lines))
    idle, seen = 0, len(game.log)
    if on_events and seen:
        on_events(game.log[:seen])
    try:
        while not until(game):
            now = min(wakes)
            t = min(lw)
            if t < now:
                now = t
            if now - sim.now + idle > stall:  # the millisecond it is found stalled
                now = sim.now + stall + 1 - idle
            idle += now - sim.now - 1  # the milliseconds skipped: nothing happened in them
            before = now - 1
            for line in lines:  # the lines up to the ms before (a quiet one has nothing to do)
                if line.at < before:
                    if line.busy:
                        line.advance(before)
                    else:
                        line.at = before
            sim.now = now
            due = [i for i in order if wakes[i] <= now]  # stepped in this ms, in order
            for i in due:
                if i:
                    parts[i].step(now)
                else:
                    heard = max([e.spoke for e in talkers]) + 1  # read in the ms after it came
                    if bus.rx_ms < heard:
                        bus.rx_ms = heard
                    ctrl.step(now)
            for j in both:
                line = lines[j]
                if line.written or lw[j] <= now:  # (it stands at the ms before)
                    line.written = False
                    line.step(now)
                    lw[j] = line.wake(now)
            # the next wakes: a part with bytes come reads them in the next ms; another
            # stepped wakes as its state says
            for i, e in inboxes:
                if e.inbox:
                    wakes[i] = -1
            for i in due:
                if wakes[i] >= 0:
                    wakes[i] = link_wake(links[i], now) if i else controller_wake(ctrl, now)
            for i, e in inboxes:
                if wakes[i] < 0:
                    wakes[i] = now + 1
            if len(game.log) == seen:
                idle += 1
                if idle > stall:
                    raise stalled("no progress for %d ms" % stall, ctrl.faults, getattr(ctrl, "locked", ()))
            else:
                if on_events:
                    on_events(game.log[seen:])
                idle, seen = 0, len(game.log)
    finally:
        for line in lines:
            line.advance(sim.now)
            line.lazy = False
            for e in line.ends:
                e.unheld()
                e.lazy, e.longest = False, -1
