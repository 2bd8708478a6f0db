# The table loop: poll the links, turn frames into rule actions, journal them, and at a
# safe point let what they caused out (outgoing.py: the shoe supplied, the displays
# refreshed). Only this layer touches ports and time, and it constructs no device: it is
# handed Links routed by device address. The supervisor's frames it hands to whoever
# built it (handler.py): recall and the supervisor's commands sit above this loop.
from .. import wire as W
from ..compat import const, unload
from ..link.drivers import Display, Shoe
from .outgoing import feed_shoe, refresh
from .watch import Watch, look
from ..games.panel import SUPERVISOR  # the supervisor's button, never a panel's
from ..games.rules import CHANCE, IllegalAction

_CHECK_MS = const(50)  # how often the device health is looked at
_POLL_HOST_MS = const(1000)  # the bus polls the supervisor device this often
_SYNC_MS = const(100)  # a held journal record is written within this (the devices resend after 198)
_SYNC_BYTES = const(2048)  # ... or once this many bytes are held
_SEAT_SHOW_MS = const(40)  # on the bus, a seat display waits this long between changes, but at its turn
_TABLE_SHOW_MS = const(100)  # ... the table display, between bursts of events


class Controller:
    def __init__(self, table, route, journal=None, resumed=False, keep_log=True, supervisor=None):
        """table: a game's table adapter (firmware/games/<name>/table.py), with .game, .SEATS,
        press(), view(), shoe_fault(), done() and refuse(); route: {device address: Link};
        journal: a firmware.journal.writer.Journal that records every input applied (or None);
        resumed: the game was rebuilt from the journal after a reset, so cards the shoe
        had in flight are still welcome before the controller asks it again;
        keep_log: keep the game's whole event log in memory (the host reads it); a board passes
        False: the journal keeps the events, the log cut once shown (any session fits the heap);
        supervisor: handed every RECALL, SUPERVISE and frame from the supervisor's address,
        as supervisor(controller, link, addr, ftype, payload, seq) (supervisor.frame loads
        recall.py for it); None: such frames are refused and counted."""
        self.supervisor = supervisor
        self.keep_log = keep_log
        self.sent = 0  # events sent to the table display since boot: numbers its frames
        self.table = table
        self.game = table.game
        self.route = route
        self.journal = journal
        self.resuming = resumed
        self.voided = False  # resumed into a voided deal: cards still in flight are not its
        self.links = []
        for link in route.values():
            if link not in self.links:
                self.links.append(link)
        route[W.SHOE].greet(W.SHOE, True)  # a DRAW is kept through a death, never re-asked
        for s in range(table.SEATS):
            route[W.DISPLAY + s].greet(W.DISPLAY + s)
        route[W.TABLE_DISPLAY].greet(W.TABLE_DISPLAY)
        self.shoe = Shoe(route[W.SHOE])
        on_bus = hasattr(route[W.TABLE_DISPLAY], "poll_every")
        self.seats = [Display(route[W.DISPLAY + s], W.DISPLAY + s, _SEAT_SHOW_MS if on_bus else 0)
                      for s in range(table.SEATS)]
        self.board = Display(route[W.TABLE_DISPLAY], W.TABLE_DISPLAY, _TABLE_SHOW_MS if on_bus else 0)
        self.now = 0
        self.awaiting = 0  # cards asked of the shoe and not yet delivered
        self.asked_ms = 0
        self.shown = 0  # events already sent to the table display
        if resumed:  # the table display shows what happened last, not the replayed game
            self.shown = max(0, len(self.game.log) - 8)
        self.faults = []
        self.down = {}  # device address greeted -> True while it is dead or refused
        for a in [W.SHOE, W.TABLE_DISPLAY] + [W.DISPLAY + s for s in range(table.SEATS)]:
            self.down[a] = False
        self.reask, self.checked = False, 0
        self.errors = {}  # what went wrong with an input, counted: {kind: n}
        self.writing = False  # the journal is being written
        self.dirty = True  # the views may have changed since they were last made
        self.fast = None  # the seats whose panels the bus polls often
        self.forged = 0  # bus frames the links refused (forged, replayed, out of session)
        self.told = 0  # ... as the table display was last shown
        # the tilts (tilts.py): the log parked (events.py; None: in memory), the open tilts' classes
        self.events = None
        self.locked = []
        self.watch = Watch()  # the door, the bursts of refused frames (main.py: the board's door and policy)
        self.recalled = -1 << 30  # when the supervisor last recalled: the displays say so
        self.screen = None  # the supervisor's meters screen (commands.py SCREEN): (view, its place in the log)
        self.root = "/"  # the board's filesystem, as the software checks hash it (a virtual board's: "")
        self.mode_shown = self.mode_seats = None  # the mode the table display, the seats were shown
        bus = route[W.TABLE_DISPLAY]
        self.bus = bus if hasattr(bus, "poll_every") else None
        if self.bus is not None:
            self.bus.poll_every(W.SUPERVISOR, _POLL_HOST_MS)
        # the pack asked for; counted (0: none, -1: pulled); cards out (a resumed board's:
        # packcount.resumed, from boot.build)
        self.asked = self.pack = self.out = 0

    def step(self, now_ms):
        for link in self.links:
            for addr, seq, ftype, payload in link.poll(now_ms):
                self.dirty = True
                if self.route.get(addr, link) is not link:
                    # an address is bound to its wire: nothing on the bus speaks as the
                    # shoe, and nothing on the shoe's UART as a seat (SPEC §8)
                    self.error("wire", "0x%02x: not its wire" % addr)
                    continue
                try:
                    self.on_frame(link, addr, seq, ftype, payload)
                except MemoryError:
                    raise
                except Exception as e:  # no input stops the table: counted and reported
                    if self.writing:  # but the journal failing to write is the board's
                        raise  # (main.py: a reset into the resume, or a full filesystem)
                    self.error("input", "frame 0x%02x from 0x%02x: %r" % (ftype, addr, e))
        self.now = now_ms
        # the journal's held records are written at a safe point: once what came has all
        # come (the bus handed back, the cards asked for in) or soon enough that no device
        # resends. Until then nothing they caused leaves the board, no acknowledgement, no
        # view, no DRAW: no device can act on an input a power loss would take back, so
        # the devices send again what it took and the board resumes into the same game
        j = self.journal
        hold = False
        if j is not None and j.holding:
            held = j.held
            if held:
                if not j.held_ms:
                    j.held_ms = now_ms or 1
                elif now_ms - j.held_ms >= _SYNC_MS or len(held) >= _SYNC_BYTES or \
                        not self.awaiting and (self.bus is None or self.bus.free()):
                    j.flush()
            hold = bool(j.held)
            if not hold:
                j.held_ms = 0
            for link in self.links:
                link.hold = hold
        if not hold:
            feed_shoe(self, now_ms)
            refresh(self)
        if now_ms - self.checked >= _CHECK_MS:
            self.checked = now_ms
            look(self)

    def error(self, kind, why):
        """An input that went wrong, counted by kind and reported (recall and supervise too)."""
        self.errors[kind] = self.errors.get(kind, 0) + 1
        self.faults.append(why)

    def tilt(self, cls, detail="", locks=True):
        """A tilt (the others' on_tilt): logged; one that locks stops play at this safe point
        (no press taken, no card asked for; cards already asked for still come in) until
        the supervisor clears it (clears.py); counted in the meters (tilts.metered)."""
        self.event(cls, detail, None, locks, True)
        self.faults.append("tilt %s: %s" % (cls, detail))
        self.dirty = True

    def event(self, cls, detail="", who=None, locks=False, tilt=False):
        """An event for the log (the others' on_event); its seq (None without a log).
        Events are seldom: events.py is loaded for one and unloaded after, the log parked
        in between (plain values: EventLog.park)."""
        from .tilts import log
        n = log(self, cls, detail, who, locks, tilt)
        unload("table.tilts", "eventlog.log", "eventlog.walk", "eventlog.repeats", "meters.tally", "eventlog")
        return n

    def apply(self, action, addr, seq):
        """Apply a rules action and journal it with who sent it; its events (IllegalAction
        changes nothing)."""
        events = self.game.apply(action)
        if self.journal is not None:
            self.writing = True
            link = self.route.get(addr) if addr is not None else None
            p = link.peers.get(addr) if link is not None else None
            self.journal.record(action, events, addr, seq, p.session if p is not None else None)
            self.writing = False
        return events

    def on_frame(self, link, addr, seq, ftype, payload):
        if addr == W.SHOE and self.pack < 0 and ftype != W.COUNT:
            return self.faults.append("a card of a pulled pack: set aside")  # (packcount.py)
        if addr == W.SHOE and ftype == W.CARD and len(payload) == 1:
            self.out += 1  # out of the pack (packcount.py), whatever becomes of it
            if self.resuming and self.voided:
                self.faults.append("a card of the voided deal came in flight: set aside")
                return
            if self.awaiting <= 0 and not (self.resuming and self.game.to_act == CHANCE):
                self.faults.append("shoe delivered a card nobody asked for")
                return
            if self.awaiting > 0:
                self.awaiting -= 1
            try:
                self.apply(("shoe", CHANCE, payload[0]), addr, seq)
            except IllegalAction as e:
                self.faults.append(str(e))
            if self.awaiting and self.game.cards_due()[1]:
                self.awaiting = 0  # the deal was voided: the rest of that request is not wanted
        elif addr == W.SHOE and ftype == W.COUNT:  # a pack counted: seldom, so loaded for it
            from .packcount import on_count
            on_count(self, payload)
            unload("table.packcount")
        elif (ftype == W.RECALL or ftype == W.EVENTS or ftype == W.SUPERVISE or ftype == W.METERS
              or ftype == W.VERIFY or addr == W.SUPERVISOR or addr == W.HOST):
            # the supervisor's (recall.py checks the credential): seldom, so loaded for it
            if self.supervisor is None:
                return self.error("credentials", "0x%02x: frame 0x%02x: no supervisor at this table" % (addr, ftype))
            self.supervisor(self, link, addr, ftype, payload, seq)
        elif W.PANEL <= addr < W.PANEL + 8 and ftype == W.BUTTON and len(payload) == 2:
            t = self.table
            seat, button = addr - W.PANEL, payload[0]
            if self.locked and seat < t.SEATS:  # a tilt stopped play: nothing is taken
                t.refuse(seat, "the table is locked (%s): the supervisor must clear it" % self.locked[0])
                return
            if seat >= t.SEATS or button == SUPERVISOR:  # a seat too many; the supervisor's
                self.error("credentials" if seat < t.SEATS else "seat",  # button (SPEC §8)
                            "seat %d button %d: not of this table's panels" % (seat, button))
                return
            try:
                action = t.press(seat, button, payload[1])
                if action is not None:
                    self.apply(action, addr, seq)
                    t.done(seat)
            except IllegalAction as e:
                t.refuse(seat, str(e))
            except (IndexError, KeyError, TypeError, ValueError) as e:
                # a press the adapter could not read (a selection the hand no longer has)
                self.error("press", "seat %d button %d: %r" % (seat, button, e))
                t.refuse(seat, "that press no longer means anything: select again")
        elif ftype == W.FAULT:
            cut = addr == W.SHOE and payload[:1] == bytes((W.CUT,))  # the cut card: a shoe event, not a fault
            if not cut:
                self.faults.append("device 0x%02x fault %r" % (addr, bytes(payload)))
            if addr == W.SHOE:  # the table adapter turns it into a rules action (or None)
                if not cut:
                    self.event("shoe-fault", "fault %r" % bytes(payload))
                k = payload[0] if payload else 0  # the cards it brought out of the pack
                self.out += 1 if k == W.UNREAD else len(payload) - 1 if k in (W.FACE_UP, W.DOUBLE) else 0
                self.awaiting = 0  # the shoe stopped: ask again for what is still due
                try:
                    action = self.table.shoe_fault(bytes(payload))
                    if action is not None:
                        self.apply(action, W.SHOE, seq)
                except IllegalAction as e:
                    self.faults.append(str(e))
        elif ftype == W.BUTTON or ftype == W.CARD:
            self.error("malformed", "device 0x%02x: a %d-byte payload for frame type 0x%02x"
                        % (addr, len(payload), ftype))
