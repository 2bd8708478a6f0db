# The virtual board, host side: the firmware runs under real MicroPython (firmware/vboard.py
# in the webassembly port, in Node), and its one UART is this process's pipe. The host
# routes the board's frames by device address to the same emulated shoe, consoles and
# table display as simulator/table.py, and steps board and devices in lockstep: each
# millisecond it sends the time and the devices' bytes, and the board answers with its own
# bytes and the (action, events) its game applied.
#
# The host also keeps a mirror of the game (the CPython rules) fed with the board's actions:
# `until` predicates and recorders read it, and every step checks that MicroPython's events
# are exactly the mirror's (ParityError otherwise). `board_log` is the board's own event log.
import ast
import inspect
import os
import select
import struct
import subprocess
import tempfile

from firmware import protocol as P
from firmware.rng import Seeded
from simulator import micropython
from simulator.devices import EmuConsole, EmuDisplay, EmuShoe
from simulator.games import GAMES
from simulator.pipes import pipe
from simulator.table import STALL_STEPS, EmulatedTable, StalledTable  # noqa: F401

# The heap the interpreter holds before any firmware is imported: the board's figure is above it.
ENTRY = ("import sys, gc, asyncio\ngc.collect()\nawait asyncio.sleep(0)\nbase = gc.mem_alloc()\n"
         "from firmware.vboard import main\nawait main(sys.argv[1:], base)")
HELLO = b"TAPIS-VBOARD 1\n"


class BoardError(RuntimeError):
    """The MicroPython process failed or broke the envelope."""


class ParityError(AssertionError):
    """MicroPython's events differ from CPython's for the same action."""


def options_kwargs(options):
    """The keyword arguments that rebuild `options` (an Options instance) on the board."""
    if options is None:
        return None
    params = inspect.signature(type(options).__init__).parameters
    return {k: getattr(options, k) for k in params if k != "self" and hasattr(options, k)}


class VirtualBoard:
    """The MicroPython process running firmware/vboard.py, spoken to in its envelope."""

    def __init__(self, game="ecarte", options=None, heap=False, timeout=60):
        micropython.ensure_installed()
        args = [game] + ([repr(options_kwargs(options))] if options is not None else [])
        if heap:
            args.append("--heap")
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(micropython.command(code=ENTRY, args=args), bufsize=0,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err)
        self.timeout = timeout  # seconds the board may take to answer one request
        self.heap = 0  # high-water mark reported by the board (with heap=True)
        self.steps = 0
        got = self._read(len(HELLO))
        if got != HELLO:
            raise BoardError("the virtual board did not start: %r" % (got,))

    def _fail(self, why):
        self.proc.kill()
        self.proc.wait()
        self.err.seek(0)
        raise BoardError("%s\n%s" % (why, self.err.read().decode(errors="replace")))

    def _read(self, n):
        data = b""
        fd = self.proc.stdout.fileno()
        while len(data) < n:
            if not select.select([fd], [], [], self.timeout)[0]:
                self._fail("the virtual board did not answer in %s s" % self.timeout)
            got = os.read(fd, n - len(data))
            if not got:
                self._fail("the virtual board exited (status %s)" % (self.proc.wait(),))
            data += got
        return data

    def _exchange(self, request):
        try:
            self.proc.stdin.write(request)
            self.proc.stdin.flush()
        except BrokenPipeError:
            self._fail("the virtual board closed its input")
        head = self._read(13)
        if head[:1] != b"R":
            self._fail("bad reply %r" % (head,))
        n, m, self.heap = struct.unpack(">III", head[1:])
        bus = self._read(n) if n else b""
        report = ast.literal_eval(self._read(m).decode()) if m else []
        return bus, report

    def step(self, now_ms, data=b""):
        """Hand the board the bus bytes and the time; return (its bytes, [(action, events)])."""
        self.steps += 1
        return self._exchange(b"S" + struct.pack(">IH", now_ms, len(data)) + data)

    def close(self):
        """Stop the board; return its heap high-water mark (0 unless heap=True)."""
        if self.proc.poll() is None:
            try:
                self._exchange(b"Q")
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            finally:
                if self.proc.poll() is None:
                    self.proc.kill()
                    self.proc.wait()
        self.err.close()
        return self.heap


class BusBridge:
    """Stands where the firmware controller stands in EmulatedTable: gathers what the
    devices wrote onto the bus, steps the board, and routes its frames by address."""

    def __init__(self, board, ends, game):
        self.board = board
        self.ends = ends  # [(addresses, the controller-side pipe end)], in polling order
        self.game = game  # the CPython mirror
        self.by_addr = {a: end for addrs, end in ends for a in addrs}
        self.decoder = P.Decoder()
        self.log = []  # the board's event log
        self.faults = []  # frames addressed to nobody

    def step(self, now_ms):
        data = b"".join(end.read() for _addrs, end in self.ends)
        bus, applied = self.board.step(now_ms, data)
        for addr, seq, ftype, payload in self.decoder.feed(bus):
            end = self.by_addr.get(addr)
            if end is None:
                self.faults.append("frame for unknown address 0x%02x" % addr)
            else:
                end.write(P.encode(addr, seq, ftype, payload))
        for action, events in applied:
            mine = self.game.log if action is None else self.game.apply(action)
            if tuple(mine) != tuple(events):
                raise ParityError("action %r at %d ms: MicroPython gave %r, CPython %r"
                                  % (action, now_ms, events, mine))
            self.log.extend(events)


class VirtualBoardTable(EmulatedTable):
    """EmulatedTable with the firmware on the virtual board: same devices, same bots,
    same run()/run_deals()/run_games(); `board_log` is the board's event log."""

    def __init__(self, seed, game="ecarte", options=None, evaluator=None, players=None,
                 on_table=None, heap=False):
        self.kit = GAMES[game]
        self.game = self.kit.new_game(options, evaluator)
        self.table = self.kit.Table(self.game)
        seats = self.table.SEATS
        players = players or [self.kit.Bot() for _ in range(seats)]
        ends = []
        ctrl_end, dev_end = pipe()
        ends.append(((P.SHOE,), ctrl_end))
        self.devices = [EmuShoe(dev_end, Seeded(seed))]
        self.consoles = []
        for s in range(seats):
            ctrl_end, dev_end = pipe()
            ends.append(((P.PANEL + s, P.DISPLAY + s), ctrl_end))
            self.consoles.append(EmuConsole(dev_end, s, players[s]))
        self.devices.extend(self.consoles)
        ctrl_end, dev_end = pipe()
        ends.append(((P.TABLE_DISPLAY,), ctrl_end))
        self.devices.append(EmuDisplay(dev_end, on_table))
        self.board = VirtualBoard(game, options, heap=heap)
        self.controller = BusBridge(self.board, ends, self.game)
        self.now = 0

    @property
    def board_log(self):
        return self.controller.log

    def close(self):
        """Stop the board; return its heap high-water mark (0 unless heap=True)."""
        return self.board.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
