# The virtual board's entry: the firmware controller under real MicroPython (the
# webassembly port, run by simulator/mp/run.mjs), with its two UARTs carried over
# stdin/stdout: the shoe's link, and the RS-485 bus of which it is the master (bus.py).
# The controller is built as firmware/boot/main.py builds it: self-test, then
# firmware.boot.build.build from the journal.
#
# It runs in lockstep with the host (simulator/boards/vboard.py), which sends the time along with
# the bus bytes, so a run is deterministic. The envelope (big-endian):
#
#   host -> board  "S" now_ms:u32 n:u16 m:u16 h:u16 shoe[n] bus[m] host[h]   what each UART
#                                                  received (host: the operator's link, --host),
#                                                  then one controller step
#                  "Q"                             quit (after the last reply)
#                  "D" open:u8                     the door's switch (no reply; read at the
#                                                  controller's safe points, as a board's pin)
#   board -> host  "TAPIS-VBOARD 1 %10d\n"         once, when ready: the heap it then
#                                                  holds (with --heap; the firmware's
#                                                  modules and the fresh table), else 0
#                  "R" n:u32 b:u32 m:u32 heap:u32 h:u32 shoe[n] bus[b] host[h] report[m]
#                                                  after each "S" (and "Q")
#
# With --host the board has a third port, its operator's link (firmware/operator/hostlink.py,
# keyed with the test key, as a board's USB with "host_link": "usb"), and answers a VERIFY
# over the files its flash's manifest lists (the host writes one, unsigned: this board's boot
# checks no signature), found beside the firmware package it imported.
# `report` is the repr() of the list of (action, events) the game applied in that step,
# or empty (the first reply starts with (None, events the game logged when set up)): the host
# rebuilds the event log from it. `heap` is the GC heap high-water
# mark so far (bytes, after gc.collect() at each step) when run with --heap, else 0.
#
# Under the webassembly port gc.collect() only marks a collection as due: it happens when
# control returns to the JavaScript top level, which `await asyncio.sleep(0)` does. So the
# loop is a coroutine that yields after each step when measuring the heap, and every
# _YIELD_EVERY steps otherwise (or the port's heap only grows). The objects the port hands
# to JavaScript at each await are freed only when JavaScript collects them: measuring, the
# host runs node with --expose-gc and passes its collector as js_gc, called every
# _JS_GC_EVERY steps (else the figure creeps some 50 bytes an await, firmware or not).
# Run it with run.mjs -c:
#
#   -c "...; from firmware.offboard.vboard import main; await main(sys.argv[1:], base)" GAME [OPTS] [--heap]
#
# `base` is what the heap held before the firmware was imported (the interpreter's own
# objects and asyncio): the reported high-water mark is above it, so it counts the
# firmware's modules and the game's working set.
import asyncio
import gc
import struct
import sys

from ..link.bus import MAX_IN, BusMaster, route_for, rto_ms
from ..compat import const
from ..link.link import Link
from ..journal.writer import Journal
from ..journal.store import FileStore

_YIELD_EVERY = const(32)
_JS_GC_EVERY = const(16)  # with --heap: steps between calls of JavaScript's collector (js_gc)


class BusPort:
    """One of the board's UARTs: what the host sent for this step, and what the board wrote."""

    def __init__(self):
        self.inbox = b""
        self.out = []

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.out.append(bytes(data))
        return len(data)

    def take(self):
        data = b"".join(self.out)
        self.out = []
        return data


def new_controller(name, kw, shoe, bus, journal, counter=None, host=None, root=""):
    """The controller as firmware/boot/main.py makes it on a real board: the self-test first,
    then firmware.boot.build.build from the journal (a file: the port's filesystem is not the
    Python heap, as flash is not), the shoe on a Link over `shoe`, every other device on
    the bus over `bus`. `name` and `kw` (its Options' keyword arguments) say what a fresh
    journal begins. counter: the path of an emulated ATECC608's counters (off the board's
    flash: offboard/atecc608.py), whose counter main.py's board finds on its I2C; None: none.
    host: the port of the operator's link (main.py's USB with "host_link": "usb"), or None;
    root: where its files are (Controller.root)."""
    from ..boot import build as boot, selftest  # boot-only: unloaded once the table is built

    store = FileStore(journal)
    failed = selftest.run(None, name)  # as main.py: boot.build checks the journal as it reads it
    if failed:
        raise RuntimeError("self-test failed: " + "; ".join(failed))
    from ..games import find
    options = find(name).Options(**kw) if kw else None
    rto = rto_ms(115200)
    from ..link.hello import TEST_KEY  # the emulated table's devices are paired with it
    route = route_for(Link(shoe, rto_ms=rto, max_in=MAX_IN),
                      BusMaster(bus, 115200, rto_ms=rto, max_in=MAX_IN, keys=TEST_KEY))
    if host is not None:  # (as main.py puts it on the USB)
        from ..operator.hostlink import board_end
        from ..wire import HOST
        route[HOST] = board_end(host, TEST_KEY, rto_ms=rto, max_in=MAX_IN)
    # the test key is the table's device key too: the journal is chained under it, and
    # the event log and the meters beside it (its open tilts lock the table across a power cycle)
    from ..eventlog.log import beside
    from ..boot.powerup import open_events
    from ..compat import unload
    from ..link.counter import probe, said  # (as main.py: the unix port has no machine.I2C)
    if counter is not None:
        from .atecc608 import ATECC608, I2C
        counter, words = probe(I2C(ATECC608(counter)))
    else:
        words = said(None)
        unload("link.counter")  # (as main.py: none to read, its code out of the heap before the build)
    del probe, said
    events = open_events(FileStore(beside(journal)), TEST_KEY, "vboard", quick=True, counter=words)
    unchecked = events.unchecked
    j = Journal(store, key=TEST_KEY, device="vboard")
    from ..meters.holder import Meters  # beside the journal (tally.beside)
    p = journal[:-4] if journal.endswith(".bin") else journal
    j.meters = Meters(p + ".meters.a", p + ".meters.b", key=TEST_KEY)  # type: ignore
    j.meters.counter = counter  # type: ignore  (bound into the meters' commits: boot/custody.py)
    ctrl = boot.build(route, j, name, options, keep_log=False, events=events)
    ctrl.counter = counter  # type: ignore  (Controller.counter: None or a Counter)
    from ..boot.powerup import deferred  # main.py's once playing: the power-up, the older segments
    deferred(ctrl, TEST_KEY, "vboard", unchecked)
    # its files where it runs, as recall.py and swcheck.py read them (the unix port: the
    # directory of the host's it runs in; the webassembly port's flashed image: /img/)
    ctrl.root = root
    unload("link.hello")
    boot.unload()
    unload("boot")  # (a board's main.py runs in it: this entry holds its own package instead)
    return ctrl


def read_exactly(stream, n):
    buf = b""
    while len(buf) < n:
        got = stream.read(n - len(buf))
        if not got:
            raise EOFError("the host closed the link")
        buf += got
    return buf


async def serve(name, kw, heap=False, base=0, stdin=None, stdout=None, js_gc=None, journal=None, counter=None,
                host=False, root=""):
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    shoe, port, usb = BusPort(), BusPort(), BusPort()
    ctrl = new_controller(name, kw, shoe, port, journal, counter, usb if host else None, root)
    applied = [(None, tuple(ctrl.game.log))]  # what the game logged when it was set up
    rules = ctrl.game.apply

    def apply(action):  # game.apply, and each (action, events) also goes into `applied`
        events = rules(action)
        applied.append((action, events))
        return events

    ctrl.game.apply = apply
    door = bytearray(1)
    ctrl.watch.door = lambda now: door[0]
    high = steps = 0
    if heap:
        gc.collect()
        await asyncio.sleep(0)
        high = gc.mem_alloc() - base
    stdout.write(b"TAPIS-VBOARD 1 %10d\n" % high)
    while True:
        op = read_exactly(stdin, 1)
        if op == b"S":
            now, n, m, h = struct.unpack(">IHHH", read_exactly(stdin, 10))
            shoe.inbox = read_exactly(stdin, n) if n else b""
            port.inbox = read_exactly(stdin, m) if m else b""
            usb.inbox = read_exactly(stdin, h) if h else b""
            ctrl.step(now)
        elif op == b"D":
            door[0] = read_exactly(stdin, 1)[0]
            continue
        elif op != b"Q":
            raise ValueError("bad envelope %r" % (op,))
        report = [repr(x).encode() for x in applied]  # (pieces: not one block of the board's heap)
        applied[:] = []
        steps += 1
        if heap or steps % _YIELD_EVERY == 0:
            if js_gc is not None and steps % _JS_GC_EVERY == 0:
                js_gc()  # JavaScript frees what it held of the Python heap (at the next await)
                await asyncio.sleep(0)
            gc.collect()
            await asyncio.sleep(0)
            if heap:
                high = max(high, gc.mem_alloc() - base)
        out, bus, to_host = shoe.take(), port.take(), usb.take()
        n = sum(len(r) + 2 for r in report)  # "[" a ", " b "]": the repr() of the list
        stdout.write(b"R" + struct.pack(">IIIII", len(out), len(bus), n, high, len(to_host)))
        stdout.write(out)
        stdout.write(bus)
        stdout.write(to_host)
        sep = b"["
        for r in report:
            stdout.write(sep)
            stdout.write(r)
            sep = b", "
        if report:
            stdout.write(b"]")
        if op == b"Q":
            return


async def main(argv, base=0, js_gc=None):
    heap, host = "--heap" in argv, "--host" in argv
    journal = "/journal.bin"  # in the port's in-memory filesystem: a fresh one every run
    counter, root = None, ""
    for a in argv:
        if a.startswith("--root="):  # where its files are: the webassembly port's flashed image (/img/)
            root = a[7:]
        if a.startswith("--journal="):  # the unix port: a file of the host's
            journal = a[10:]
        if a.startswith("--counter="):  # an emulated ATECC608's counters: a file off the board's flash
            counter = a[10:]
    named = ("--journal=", "--counter=", "--root=")
    rest = [a for a in argv if a not in ("--heap", "--host") and not any(a.startswith(n) for n in named)]
    if not rest:
        raise SystemExit("usage: vboard.py GAME [OPTIONS_REPR] [--heap] [--host]")
    kw = eval(rest[1]) if len(rest) > 1 else None  # a dict literal from the host
    await serve(rest[0], kw, heap, base, js_gc=js_gc, journal=journal, counter=counter, host=host, root=root)
