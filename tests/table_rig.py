# A table whose controller can be reset: the emulated devices and the wires live on,
# the board (controller, its Links, what its UARTs had buffered) is rebuilt from the
# journal by firmware.boot.build.build, as after a power loss.
from tapis.firmware.boot.build import build
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.journal.resume import load
from tapis.simulator.table.emulated import EmulatedTable


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


class Rig(EmulatedTable):
    """The emulated table with the controller built by firmware.boot.build.build from a journal,
    as a board builds it, and rebuilt so after a power loss."""

    def __init__(self, seed, game="ecarte", store=None, options=None, held=True, key=None, device="", **kw):
        """held: the journal holds records and writes them at safe points, as on a board;
        key, device: the board's device key and id (its journal is chained under them)."""
        self.options = options
        self.journal_key, self.device = key, device  # (self.key is the bus's: EmulatedTable's)
        self.store = store if store is not None else MemoryStore()
        self.resets = 0
        self.held = held
        self.events_store = kw.pop("events_store", None)
        EmulatedTable.__init__(self, seed, game, options, **kw)

    def _controller(self):
        for _addrs, end in self.wires:
            end.inbox.clear()  # what the UART had buffered is lost with the power
            if hasattr(end, "tx"):
                end.tx.clear()  # and what it had still to send
        self.journal = Journal(self.store, held=self.held, key=self.journal_key, device=self.device)
        events = getattr(self, "events_store", None)  # an event log beside the journal
        if events is not None:
            from tapis.firmware.eventlog.log import EventLog
            self.events = EventLog(events, self.journal_key, self.device)
            self.events.log("power-up")
        ctrl = build(self.route(), self.journal, self.name, self.options, events=self.events)
        ctrl.watch.door = lambda now: self.door
        self.game = ctrl.game
        return ctrl

    def boot(self):
        self.controller = self._controller()

    @property
    def ctrl(self):
        return self.controller

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
            for line in self.lines:
                line.step(self.now)
        self.journal.flush()
        return load(self.journal)
