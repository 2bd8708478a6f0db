# The table with the firmware on the virtual board (simulator/boards/vboard.py): the same wires,
# emulated shoe, consoles and table display as simulator/table/emulated.py, the board in the
# controller's place. A CPython mirror of the game is fed the board's actions: `until`
# predicates and recorders read it, and every step checks that MicroPython's events are
# exactly the mirror's (ParityError otherwise). `board_log` is the board's own event log.
from tapis.simulator.table.emulated import EmulatedTable
from tapis.simulator.boards.vboard import BoardError, ParityError, VirtualBoard


class BusBridge:
    """Stands where the firmware controller stands in EmulatedTable: hands the board what
    its two UARTs received (the board's ends of the shoe's wire and of the bus), steps it,
    and puts what it sent on those wires."""

    def __init__(self, board, ends, game, host=None):
        self.board = board
        self.host = host  # the board's operator's link: a Port (host/table/hostport.py's pty), or None
        (_s, self.shoe), (_b, self.bus) = ends  # the board's ends: the shoe's line, the bus
        self.game = game  # the CPython mirror
        self.log = []  # the board's event log, across power cycles
        self.faults = []
        self.resumed = False  # the board was power-cycled: it boots into its journal's game

    def step(self, now_ms):
        if self.host is None:
            shoe, bus, applied = self.board.step(now_ms, self.shoe.read(), self.bus.read())
        else:
            shoe, bus, applied = self.board.step(now_ms, self.shoe.read(), self.bus.read(), host=self.host.read())
            if self.board.to_host:
                self.host.write(self.board.to_host)
        if shoe:
            self.shoe.write(shoe)
        if bus:
            self.bus.write(bus)
        for action, events in applied:
            if action is None and self.resumed:
                self._resume(events, now_ms)
                continue
            mine = self.game.log if action is None else self.game.apply(action)
            if tuple(mine) != tuple(events):
                raise ParityError("action %r at %d ms: MicroPython gave %r, CPython %r"
                                  % (action, now_ms, events, mine))
            self.log.extend(events)

    def _resume(self, events, now_ms):
        """The board rebuilt its game from the journal: its events must be the last ones
        the board logged (nothing is lost: the board journals each input before it
        answers the step, and the power goes between steps)."""
        self.resumed = False
        n = len(events)
        if n > len(self.log) or tuple(self.log[len(self.log) - n:]) != tuple(events):
            raise ParityError("at %d ms the board resumed into %r, not the game played so far (its last "
                              "events %r)" % (now_ms, events[-4:], self.log[-4:]))


class VirtualBoardTable(EmulatedTable):
    """EmulatedTable with the firmware on the virtual board: same devices, same bots,
    same run()/run_deals()/run_games(); `board_log` is the board's event log."""

    def __init__(self, seed, game="ecarte", options=None, evaluator=None, players=None,
                 on_table=None, heap=False, source=None, unix_heap=None, rom=False, frozen=None, counter=None,
                 host=None, pacer=None):
        """host: a Port for the board's operator's link (tapis table --host-port), its flash
        then holding a manifest of the files it runs; pacer: EmulatedTable's."""
        self.host = host
        self.options, self.heap, self.source, self.unix_heap, self.rom = options, heap, source, unix_heap, rom
        self.counter = counter  # the unix port: an emulated ATECC608's counters off its flash (VirtualBoard's)
        self.frozen = frozen  # a unix port with the firmware frozen in (VirtualBoard's frozen)
        self.resumes = 0  # power cycles (power_cycle)
        EmulatedTable.__init__(self, seed, game, options, evaluator, players, on_table, pacer=pacer)

    def _controller(self):
        self.board = VirtualBoard(self.name, self.options, heap=self.heap, source=self.source,
                                  unix_heap=self.unix_heap, rom=self.rom,
                                  frozen=self.frozen, counter=self.counter, host=self.host is not None)
        return BusBridge(self.board, self.wires, self.game, self.host)

    @property
    def board_log(self):
        return self.controller.log

    def power_cycle(self, down_ms=200):
        """Power the board off between two steps, let the devices go on `down_ms` without
        it (what reaches its UARTs meanwhile is lost), and boot it again from its flash:
        the unix port only (its journal is a file). Returns the new board's resident heap."""
        old = self.board
        if not old.unix:
            raise BoardError("only the unix port keeps its journal across a power cycle")
        old.power_off()
        for _ in range(down_ms):
            self.now += 1
            for d in self.devices:
                d.step(self.now)
            for line in self.lines:
                line.step(self.now)
            for _a, end in self.wires:
                end.inbox.clear()
        for _a, end in self.wires:
            end.inbox.clear()  # what the UARTs had buffered went with the power
            end.tx.clear()
        self.board = VirtualBoard(self.name, self.options, heap=self.heap, source=self.source,
                                  unix_heap=self.unix_heap, flash=old.flash, rom=self.rom,
                                  frozen=self.frozen, counter=self.counter, host=self.host is not None)
        self.controller.board = self.board
        if self.door:
            self.board.set_door(True)
        self.controller.resumed = True
        self.resumes += 1
        return self.board.resident

    def open_door(self):
        self.door = True
        self.board.set_door(True)

    def close_door(self):
        self.door = False
        self.board.set_door(False)

    def close(self):
        """Stop the board; return its heap high-water mark (0 unless heap=True)."""
        return self.board.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
