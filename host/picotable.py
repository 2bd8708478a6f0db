"""The real firmware on an emulated Raspberry Pi Pico, at the emulated table (tapis table
--board pico): `tapis flash` deploys it over the USB CDC (a pty) with the configuration of
the game, a power cycle starts main.py (manifest check, configuration, self-test, UART0 to
the shoe, UART1 to the RS-485 bus with its driver enable on GPIO6), and the host's
emulated shoe, consoles (with bots) and table display answer on the same wires as the
CPython board's (simulator/table.py), stepped in lockstep with the chip one emulated
millisecond at a time.

The board reports each (action, events) it applies on its USB console (firmware/boot/report.py,
switched on by the file report.on); a CPython mirror of the game is fed the board's actions
and each report is checked against it (ParityError otherwise), as simulator/vtable.py does
for the webassembly board. Recorders and `until` predicates read the mirror. The flash and
the raw REPL are host/picoflash.py's; the figures measured on it, host/picomeasure.py's.

    with PicoTable(7, image="RPI_PICO-v1.27.0.uf2") as t:
        t.run_deals(3)
        t.board_log, t.heap
"""
import ast

from tapis.firmware.boot.report import APPLIED, HEAP
from tapis.host import picoflash
from tapis.host.picoflash import BOOT_MS
from tapis.simulator.pico.board import EmulatedPico, PicoError
from tapis.simulator.table import EmulatedTable, StalledTable  # noqa: F401
from tapis.simulator.vboard import ParityError

BUS_DE_GPIO = 6  # firmware/link/boards.py: the RS-485 transceiver's driver enable
DOOR_GPIO = 7  # ... the door's switch (undriven, rp2040js reads it low: shut)


class PicoBridge:
    """Stands where the firmware controller stands in EmulatedTable: the chip's UART0 and
    UART1 on the board's ends of the shoe's wire and of the bus."""

    def __init__(self, table):
        self.t = table
        (_a, self.shoe), (_b, self.bus) = table.wires
        self.faults = []

    def step(self, now_ms):
        t = self.t
        pico = t.pico
        pico.uart0.write(self.shoe.read())
        pico.uart1.write(self.bus.read())
        usb = t.usb  # the operator's link's pty (a board flashed with --host-link usb), or None
        if usb is not None:
            pico.usb.write(usb.read())
        pico.step(1)
        for port, end in ((pico.uart0, self.shoe), (pico.uart1, self.bus)):
            data = port.read()
            if data:
                end.write(data)
        data = pico.usb.read()
        if usb is not None and data:
            usb.write(data)  # frames and the board's text alike: the host's decoder skips the text
        t.console(data)


class PicoTable(EmulatedTable):
    def __init__(self, seed, game="ecarte", options=None, evaluator=None, players=None, on_table=None,
                 image=None, flash_path=None, log=None, host_link=None, check_minutes=None, atecc=None, **kw):
        self.image, self.flash_path, self.say = image, flash_path, log or (lambda line: None)
        self.atecc = atecc  # a host path: an ATECC608 on the chip's I2C0 keeps its counters there (Runner.atecc)
        self.host_link = host_link  # "usb": flashed with the operator's link on the USB
        self.check_minutes = check_minutes  # the periodic software check's (tapis flash --check-minutes)
        self.usb = None  # then a Port (host/hostport.py Pty) the USB is bridged to, once given
        self.options = options
        self.board_log = []  # the board's events, across power cycles
        self.applied = []  # the (action, events) the mirror took, in order
        self.marks = []  # len(board_log) after the setup and after each applied input
        self.inputs_lost = 0  # inputs the board took but lost with the power (taken again)
        self.resumes = []  # how many events each resumed game was rebuilt with
        self.heap = []  # (ms, alloc, free) the board reported at each deal
        self.lines_seen = []  # the board's other console lines ("tapis: firmware verified ...")
        self._line = bytearray()
        self._greeted = -1
        EmulatedTable.__init__(self, seed, game, options, None, players, on_table, **kw)
        self.mirror_options = options
        self.flash()
        self.boot()

    def _controller(self):
        self.pico = EmulatedPico(self.image, self.flash_path, gate={1: BUS_DE_GPIO})
        self.pico.atecc = self.atecc
        return PicoBridge(self)

    # ---- deploying and booting ----
    def flash(self):
        """`tapis flash --verify` with this game's configuration, or the cached flash
        (host/picoflash.py)."""
        picoflash.deploy(self.pico, self.name, self.options, self.key, self.say, self.host_link,
                         self.check_minutes)

    def boot(self, ms=BOOT_MS):
        """Power cycle the board and step until its game reports; the emulated ms it took."""
        self.pico.power_cycle()
        if self.door:  # a new chip: its door pin driven again
            self.pico.set_input(DOOR_GPIO, 1)
        for _addrs, end in self.wires:
            end.inbox.clear()  # what the UARTs had buffered went with the power
            end.tx.clear()
        start = self.pico.now_ms
        while self._greeted != self.pico.boots:
            self.step()
            if self.pico.now_ms - start > ms:
                raise PicoError("the Pico's game did not start in %d ms; its console: %r"
                                % (ms, self.lines_seen[-8:]))
        return self.pico.now_ms - start

    # ---- what the board says on its USB console ----
    def console(self, data):
        self._line += data
        while b"\n" in self._line:
            i = self._line.index(b"\n")
            line = self._line[:i].decode(errors="replace").rstrip("\r")
            del self._line[:i + 1]
            for tag in (APPLIED, HEAP):  # after the tail of a frame of the operator's link on the USB
                at = line.find(tag)
                if at > 0:
                    line = line[at:]
            if line.startswith(APPLIED):
                self._applied(*ast.literal_eval(line[len(APPLIED):]))
            elif line.startswith(HEAP):
                alloc, free = map(int, line[len(HEAP):].split())
                self.heap.append((self.pico.now_ms, alloc, free))
            else:
                self.lines_seen.append(line)
                self.say(line)

    def _applied(self, action, events):
        events = tuple(events)
        if action is None:  # the game as the board built it, at boot
            if not self.marks:
                if tuple(self.game.log) != events:
                    raise ParityError("the board began with %r, CPython with %r" % (events, self.game.log))
                self.board_log.extend(events)
                self.marks.append(len(self.board_log))
            else:
                self._resumed(events)
            self._greeted = self.pico.boots
            return
        mine = tuple(self.game.apply(action))
        if mine != events:
            raise ParityError("action %r at %d ms: the Pico gave %r, CPython %r"
                              % (action, self.pico.now_ms, events, mine))
        self.applied.append((action, events))
        self.board_log.extend(events)
        self.marks.append(len(self.board_log))

    def _resumed(self, events):
        """The board rebuilt its game from the journal, whose last events must be those of
        the game played so far, or of it without its last inputs (taken but not written
        when the power went: their devices were not acknowledged and send them again)."""
        n, done = len(events), len(self.applied)
        self.resumes.append(n)
        for k in range(done, max(-1, done - 16), -1):
            log = self.board_log[:self.marks[k]]
            if len(log) >= n and tuple(log[len(log) - n:]) == events:
                break
        else:
            raise ParityError("the board resumed into %r, not the game played so far" % (events,))
        if k < done:
            self.inputs_lost += done - k
            self.game = self.kit.new_game(self.options)
            for action, _ev in self.applied[:k]:
                self.game.apply(action)
            del self.applied[k:], self.marks[k + 1:], self.board_log[self.marks[k]:]

    def power_cycle(self):
        """Power off and on in the middle of play; the emulated ms the resume took."""
        return self.boot()

    def open_door(self):
        """The door's switch opens: its pin (boards.py, GP7) reads high at the next safe point."""
        self.door = True
        self.pico.set_input(DOOR_GPIO, 1)

    def close_door(self):
        self.door = False
        self.pico.set_input(DOOR_GPIO, 0)

    def identity(self):
        """(device key, device id) the flashed board chains its journal under, read off it
        (host/picoflash.py). The table is not running after it: boot() starts it."""
        return picoflash.identity(self.pico)

    def put_files(self, files, chunk=2048):
        """Write {board path: bytes} on the board's filesystem through its raw REPL
        (host/picoflash.py). The table is not running after it: boot() starts it."""
        picoflash.put_files(self.pico, files, chunk)

    def close(self):
        self.pico.close()
        return 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
