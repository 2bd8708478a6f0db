# The table simulator: the firmware controller, wired to an emulated shoe, a console
# (panel + display) per seat with a bot behind it, and the table display. Time is
# virtual: each step is one millisecond. The game and its host-side kit are found by name
# (tapis.firmware.games, tapis.simulator.kits).
#
# By default the wires are the board's (simulator/table/wires.py): the shoe on a UART of its
# own, every console and the table display on one half-duplex RS-485 bus of which the
# controller is the master (firmware/link/bus.py), both at 115200 baud with receive buffers
# that lose bytes when full. wires=False gives each device an infinitely fast pipe of
# its own (the tests that play thousands of deals for the rules' sake).
from tapis.firmware.link import boards
from tapis.firmware import wire as W
from tapis.firmware.link.bus import BusMaster
from tapis.firmware.table.controller import Controller
from tapis.firmware.games import find
from tapis.firmware.link.link import Link
from tapis.firmware.offboard.rng import source
from tapis.firmware.operator.handler import frame
from tapis.simulator.table import clock, codecache
from tapis.simulator import kits
from tapis.firmware.link.hello import TEST_KEY
from tapis.simulator.table.devices import RTO_MS, EmuConsole, EmuDisplay, EmuShoe
from tapis.simulator.table.faults import FaultyShoe
from tapis.simulator.table.pipes import pipe
from tapis.simulator.table.wires import BAUD, Wire

codecache.install()  # the firmware's modules a board loads for a moment, compiled once

BOARD_RX = 1024  # the board's UART receive buffers (firmware/boot/main.py opens them so)

STALL_STEPS = 3000  # steps without a new event before the run is declared stuck


def _line_seed(seed, k):
    """The lossy lines' fault stream: from the seed (None: from os.urandom, random.Random)."""
    return None if seed is None else seed * 7 + k


class StalledTable(RuntimeError):
    """The table made no progress: `faults`, the controller's latest faults (text), and
    `locked`, the classes of the tilts that hold it (host/table/stopped.py says it in words)."""

    def __init__(self, message, faults=(), locked=()):
        self.faults, self.locked = list(faults), list(locked)
        super().__init__(message + ("; faults: " + "; ".join(self.faults) if self.faults else ""))


class EmulatedTable:
    def __init__(self, seed, game="ecarte", options=None, evaluator=None, players=None,
                 on_table=None, wires=True, faults=None, baud=BAUD, rx_size=None, journal=None,
                 shoe=None, bus=None, pacer=None, device_key=None, events=None, counter=None):
        """wires: the board's wires (else a pipe per device); faults: {"drop": p,
        "corrupt": p, "shoe": p} for the lines and the shoe (simulator/table/wires.py
        parse_faults); baud and rx_size (the devices' receive buffers) for the lines.
        journal: a firmware Journal the controller keeps, built by firmware.boot.build.build
        as a board builds it (resuming the journal's unfinished game). shoe: a device
        with step(now) and `controller_end` (a real shoe, host/table/real.py) or a Port
        (a framed shoe); bus: a Port to real panels and displays (no emulated consoles);
        pacer: wait(now_ms) keeps the milliseconds on the wall clock (real devices).
        device_key: the board's device key, which the bus devices are paired with
        (hello.TEST_KEY unless given; False: a bus without pairing, as issue 11 built it).
        events: a firmware EventLog beside the journal (its open tilts lock the table);
        the table's door is `door` (open_door(), close_door()), read at the controller's
        safe points as a board reads its pin. counter: the board's monotonic counter off the
        flash (a firmware link.counter.Counter, over an emulated ATECC608: firmware/offboard/
        atecc608.py), said in the power-up entry and the verify answer; None: it has none."""
        self.journal = journal
        self.counter = counter
        self.events = events
        self.door = False
        self.pacer = pacer
        self.name = game
        self.package = find(game)
        self.kit = kits.find(game)
        self.game = self.kit.new_game(options, evaluator)
        self.table = self.package.Table(self.game)
        seats = self.table.SEATS
        players = players or [self.kit.Bot() for _ in range(seats)]
        self.wires = []  # (addresses, the controller's end of the wire), in polling order
        self.lines = []  # the Wires, when the table is wired as built
        self.baud = baud
        self.consoles = []
        self.key = None  # the device key the bus devices are paired with (the board's)
        if wires:
            self.key = TEST_KEY if device_key is None else device_key or None
            f = dict(faults or {})
            lossy = {"drop": f.get("drop", 0.0), "corrupt": f.get("corrupt", 0.0)}
            addrs = [W.TABLE_DISPLAY] + [a for s in range(seats) for a in (W.PANEL + s, W.DISPLAY + s)]
            real_shoe, real_bus = shoe_port, bus_port = shoe, bus
            shoe, bus = Wire("shoe", False, baud, rx_size or 256, seed=_line_seed(seed, 1), **lossy), \
                Wire("bus", True, baud, rx_size or 256, seed=_line_seed(seed, 2), **lossy)
            if real_shoe is None:
                self.lines.append(shoe)
                self.wires.append(((W.SHOE,), shoe.end("board", BOARD_RX)))
                self.shoe = EmuShoe(shoe.end("shoe"), source(seed), key=self.key)
                if f.get("shoe"):
                    self.shoe = FaultyShoe(self.shoe.link.port, source(seed), rate=f["shoe"], key=self.key)
            elif hasattr(real_shoe, "controller_end"):  # a device bridged here (a text shoe)
                self.wires.append(((W.SHOE,), real_shoe.controller_end))
                self.shoe = real_shoe
            else:  # a framed shoe on a port
                self.wires.append(((W.SHOE,), real_shoe))
                self.shoe = None
            if real_bus is None:
                self.lines.append(bus)
                self.wires.append((tuple(addrs), bus.end("board", BOARD_RX)))
                for s in range(seats):
                    self.consoles.append(EmuConsole(bus.end("seat %d" % s), s, players[s], key=self.key))
                display = EmuDisplay(bus.end("table display"), on_table, key=self.key)
            else:
                self.wires.append((tuple(addrs), real_bus))
                display = None
        else:
            ctrl_end, dev_end = pipe()
            self.wires.append(((W.SHOE,), ctrl_end))
            self.shoe = EmuShoe(dev_end, source(seed), key=None)
            for s in range(seats):
                ctrl_end, dev_end = pipe()
                self.wires.append(((W.PANEL + s, W.DISPLAY + s), ctrl_end))
                self.consoles.append(EmuConsole(dev_end, s, players[s], bus=False))
            ctrl_end, dev_end = pipe()
            self.wires.append(((W.TABLE_DISPLAY,), ctrl_end))
            display = EmuDisplay(dev_end, on_table, bus=False)
        self.devices = [d for d in [self.shoe] + self.consoles + [display] if d is not None]
        self.wired = wires
        self.skip = True  # run() steps each part only when it may act (clock.py); False: each ms
        self.controller = self._controller()
        self.now = 0

    def route(self):
        """{device address: a Link on its wire}, as a board's controller is handed them."""
        if self.wired:
            (_a, shoe), (_b, bus) = self.wires
            rto = boards.rto_ms(self.baud)
            mx = boards.MAX_IN
            return boards.route_for(Link(shoe, rto_ms=rto, max_in=mx),
                                    BusMaster(bus, self.baud, rto_ms=rto, max_in=mx, keys=self.key),
                                    text_shoe=hasattr(self.shoe, "controller_end"))  # (a text shoe bridged)
        route = {}
        for addrs, end in self.wires:
            link = Link(end)
            for a in addrs:
                route[a] = link
        return route

    def step(self):
        """One millisecond: the controller, the devices, then the bytes on the lines."""
        self.now += 1
        now = self.now
        self.controller.step(now)
        for d in self.devices:
            d.step(now)
        for line in self.lines:
            line.step(now)
        if self.pacer is not None:
            self.pacer.wait(now)

    def wire_stats(self):
        """{line: {bytes, line_ms, collisions, overruns, damaged}} of the wires as built."""
        return {w.name: {"bytes": w.bytes, "line_ms": round(w.line_ms(), 1), "collisions": w.collisions,
                         "overruns": sum(e.overruns for e in w.ends), "damaged": w.damaged}
                for w in self.lines}

    def _controller(self):
        """The firmware controller on this process (built from the journal if it has one),
        its door this table's, a power-up in its event log."""
        if self.events is not None:  # held: counted by the meters' commit, then written (boot/custody.py)
            from tapis.firmware.link.counter import said
            self.events.log("power-up", "the emulated table started; " + said(self.counter), hold=True)
        if self.journal is not None and self.journal.meters is not None:
            self.journal.meters.counter = self.counter  # bound into the meters' commits (docs/security.md)
        if self.journal is not None:
            from tapis.firmware.boot.build import build
            from tapis.firmware.boot.powerup import deferred
            ctrl = build(self.route(), self.journal, self.name, self.game.options, events=self.events)
            if self.events is not None:
                deferred(ctrl, None, "", False)  # the held entries written, as a board once playing
            self.game, self.table = ctrl.game, ctrl.table
        else:
            ctrl = Controller(self.table, self.route(), supervisor=frame)
            if self.events is not None:
                self.events.write()
                ctrl.events, ctrl.locked = self.events.park(), self.events.locked()
        ctrl.watch.door = lambda now: self.door
        ctrl.counter = self.counter
        return ctrl

    def open_door(self):
        """The table's door opened (its switch): a tilt at the controller's next safe point."""
        self.door = True

    def close_door(self):
        self.door = False

    def run(self, until, on_events=None):
        """Step the table until until(game) is true; on_events(new events) as they come.
        A table as built here runs each part only in the milliseconds it may act in
        (simulator/table/clock.py): the same run, faster."""
        if self.skip and self.wired and clock.fits(self):
            return clock.run(self, until, on_events, STALL_STEPS, StalledTable)
        game, idle, seen = self.game, 0, len(self.game.log)
        if on_events and seen:
            on_events(game.log[:seen])
        while not until(game):
            self.step()
            if self.game is not game:  # rebuilt: a board that resumed without its last inputs (host/pico/table.py)
                game, idle, seen = self.game, 0, len(self.game.log)
            elif len(game.log) == seen:
                idle += 1
                if idle > STALL_STEPS:
                    raise StalledTable("no progress for %d ms" % STALL_STEPS, self.controller.faults,
                                       getattr(self.controller, "locked", ()))
            else:
                if on_events:
                    on_events(game.log[seen:])
                idle, seen = 0, len(game.log)

    def drain(self, limit_ms=5000):
        """Let the table display catch up with the game (the bus lags behind it), the
        shoe and the players holding still meanwhile."""
        ctrl = self.controller
        if not self.lines or not hasattr(ctrl, "board") or not hasattr(ctrl, "shown"):
            return  # no bus, or a board of its own (virtual, Pico) that runs its displays itself
        for c in self.consoles:
            c.hold = True
        try:
            end = self.now + limit_ms
            while self.now < end and (ctrl.shown < len(ctrl.game.log) or ctrl.board.want is not None
                                      or any(l.pending for l in ctrl.board.link.peers.values())
                                      or any(w.busy for w in self.lines)):
                self.now += 1
                ctrl.step(self.now)
                for d in self.devices[1:]:
                    d.step(self.now)
                for line in self.lines:
                    line.step(self.now)
                if self.pacer is not None:  # real devices: their milliseconds are the wall's
                    self.pacer.wait(self.now)
        finally:
            for c in self.consoles:
                c.hold = False

    def run_deals(self, n, on_events=None):
        self.run(lambda g: g.finished_deals() >= n, on_events)

    def run_games(self, n, on_events=None):
        self.run(lambda g: g.finished_games() >= n, on_events)


def faulty_table(seed, faults=None, stack=None, **kw):
    """An EmulatedTable whose shoe is a FaultyShoe (simulator/table/faults.py: `faults` by
    (pack, delivery), `stack` the packs to load first; kw: game, options, players, ...)."""
    sim = EmulatedTable(seed, **kw)
    port = sim.devices[0].link.port
    sim.devices[0] = sim.shoe = FaultyShoe(port, source(seed), faults, stack, key=sim.key)
    return sim
