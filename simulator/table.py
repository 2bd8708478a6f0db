# The table simulator: the firmware controller, wired by in-memory links to an
# emulated shoe, a console (panel + display) per seat with a bot behind it, and the
# table display. Time is virtual: each step is one millisecond. The game and its
# host-side kit are found by name (tapis.firmware.games, tapis.simulator.kits).
from tapis.firmware import wire as W
from tapis.firmware.controller import Controller
from tapis.firmware.games import find
from tapis.firmware.link import Link
from tapis.firmware.rng import Seeded
from tapis.simulator import kits
from tapis.simulator.devices import EmuConsole, EmuDisplay, EmuShoe
from tapis.simulator.pipes import pipe

STALL_STEPS = 1000  # steps without a new event before the run is declared stuck


class StalledTable(RuntimeError):
    pass


class EmulatedTable:
    def __init__(self, seed, game="ecarte", options=None, evaluator=None, players=None,
                 on_table=None):
        self.name = game
        self.package = find(game)
        self.kit = kits.find(game)
        self.game = self.kit.new_game(options, evaluator)
        self.table = self.package.Table(self.game)
        seats = self.table.SEATS
        players = players or [self.kit.Bot() for _ in range(seats)]
        self.wires = []  # (addresses, the controller's end of the wire), in polling order
        ctrl_end, dev_end = pipe()
        self.wires.append(((W.SHOE,), ctrl_end))
        self.shoe = EmuShoe(dev_end, Seeded(seed))
        self.devices = [self.shoe]
        self.consoles = []
        for s in range(seats):
            ctrl_end, dev_end = pipe()
            self.wires.append(((W.PANEL + s, W.DISPLAY + s), ctrl_end))
            self.consoles.append(EmuConsole(dev_end, s, players[s]))
        self.devices.extend(self.consoles)
        ctrl_end, dev_end = pipe()
        self.wires.append(((W.TABLE_DISPLAY,), ctrl_end))
        self.devices.append(EmuDisplay(dev_end, on_table))
        self.controller = self._controller()
        self.now = 0

    def route(self):
        """{device address: a Link on its wire}, as a board's controller is handed them."""
        route = {}
        for addrs, end in self.wires:
            link = Link(end)
            for a in addrs:
                route[a] = link
        return route

    def _controller(self):
        """The firmware controller on this process."""
        return Controller(self.table, self.route())

    def run(self, until, on_events=None):
        """Step the table until until(game) is true; on_events(new events) as they come."""
        game, idle, seen = self.game, 0, len(self.game.log)
        if on_events and seen:
            on_events(game.log[:seen])
        while not until(game):
            self.now += 1
            self.controller.step(self.now)
            for d in self.devices:
                d.step(self.now)
            if len(game.log) == seen:
                idle += 1
                if idle > STALL_STEPS:
                    raise StalledTable("no progress for %d ms; faults: %r" % (
                        STALL_STEPS, self.controller.faults))
            else:
                if on_events:
                    on_events(game.log[seen:])
                idle, seen = 0, len(game.log)

    def run_deals(self, n, on_events=None):
        self.run(lambda g: g.finished_deals() >= n, on_events)

    def run_games(self, n, on_events=None):
        self.run(lambda g: g.finished_games() >= n, on_events)
