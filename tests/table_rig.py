# A table whose controller can be reset: the emulated devices and the wires live on,
# the board (controller, its Links, what its UARTs had buffered) is rebuilt from the
# journal by firmware.boot.build, as after a power loss.
from tapis.firmware import wire as W
from tapis.firmware.boot import build
from tapis.firmware.link import Link
from tapis.firmware.journal import Journal, MemoryStore
from tapis.firmware.rng import Seeded
from tapis.simulator.devices import EmuConsole, EmuDisplay, EmuShoe
from tapis.simulator.games import GAMES
from tapis.simulator.pipes import pipe


class PowerLoss(Exception):
    pass


class FailingStore(MemoryStore):
    """A store that loses power right after write number `at` (1-based) is on flash,
    or, with torn=k, after only k bytes of it were written."""

    def __init__(self, data=b""):
        MemoryStore.__init__(self, data)
        self.at = None
        self.torn = 0

    def append(self, b):
        if self.at is not None and self.writes + 1 == self.at:
            self.at = None
            if self.torn:
                self.data.extend(b[:self.torn])
                self.writes += 1
                raise PowerLoss()
            MemoryStore.append(self, b)
            raise PowerLoss()
        MemoryStore.append(self, b)


def total_events(games):
    """Every event of every journaled game, in order."""
    out = []
    for g in games:
        out.extend(tuple(e) for e in g["events"])
        for _a, events, _f in g["inputs"]:
            out.extend(events)
    return out


class Rig:
    def __init__(self, seed, game="ecarte", store=None, options=None):
        self.name, self.options = game, options
        self.kit = GAMES[game]
        seats = self.kit.Table(self.kit.new_game(options)).SEATS
        self.store = store if store is not None else MemoryStore()
        self.wires = []  # (addresses, controller-side end)
        c, d = pipe()
        self.wires.append(((W.SHOE,), c))
        self.devices = [EmuShoe(d, Seeded(seed))]
        for s in range(seats):
            c, d = pipe()
            self.wires.append(((W.PANEL + s, W.DISPLAY + s), c))
            self.devices.append(EmuConsole(d, s, self.kit.Bot()))
        c, d = pipe()
        self.wires.append(((W.TABLE_DISPLAY,), c))
        self.devices.append(EmuDisplay(d))
        self.now = 0
        self.resets = 0
        self.boot()

    def boot(self):
        route = {}
        for addrs, end in self.wires:
            end.inbox.clear()  # what the UART had buffered is lost with the power
            link = Link(end)
            for a in addrs:
                route[a] = link
        self.journal = Journal(self.store)
        self.ctrl = build(route, self.journal, self.name, self.options)

    def games_done(self):
        return self.journal.done(self.ctrl.game) if self.journal.done else 0

    def run(self, games, limit=2000000, on_reset=None):
        """Step until the journal has `games` completed games; a PowerLoss resets the board."""
        while self.journal.number <= games:
            self.now += 1
            if self.now > limit:
                raise RuntimeError("no end after %d ms; faults %r" % (limit, self.ctrl.faults))
            try:
                self.ctrl.step(self.now)
            except PowerLoss:
                while True:  # the power may go again while it boots (it writes too)
                    self.resets += 1
                    if on_reset:
                        on_reset(self)
                    try:
                        self.boot()
                        break
                    except PowerLoss:
                        pass
            for d in self.devices:
                d.step(self.now)
        return self.journal.open()
