"""An emulated Raspberry Pi Pico running the official MicroPython image: rp2040js in Node
(pico.mjs, which documents the envelope), driven from here in lockstep slices
of emulated time, so a run is deterministic.

    with EmulatedPico("RPI_PICO-v1.27.0.uf2") as pico:
        pico.usb.write(b"print(1 + 1)\\r")
        pico.run_for(50)
        print(pico.usb.read())

Its UART0, UART1 and USB CDC are Ports (read() -> bytes, write(bytes)), as the firmware's
Link wants: write() queues bytes for the chip (a UART's arrive one per line time), read()
returns what the chip sent. pty() runs it free (paced to at most real time) with the USB
CDC on a pseudo-terminal, for mpremote or `tapis flash`. The flash chip is a file (a temp
one unless flash_path is given): power_cycle() saves it and restarts the chip from it.
"""
import os
import select
import struct
import subprocess
import tempfile
from pathlib import Path

from tapis.simulator.pico.setup import (IMAGE_ENV, RUNNER, PicoError, bootrom_path, ensure_installed,  # noqa: F401
                                  image_path)

DEFAULT_ID = bytes.fromhex("e6614103e7000001")  # a temporary board's flash ID
USB = 2  # index of the USB CDC in the envelope's (UART0, UART1, USB) triples


class PicoPort:
    """One of the chip's serial lines, from the host's side."""

    def __init__(self, pico, index):
        self.pico, self.index = pico, index
        self.inbox = bytearray()  # what the chip sent, not read yet
        self.sent = 0  # bytes the chip ever sent on it

    def read(self):
        with self.pico.lock:
            data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data):
        self.pico.feed(self.index, bytes(data))
        return len(data)


class EmulatedPico:
    def __init__(self, image=None, flash_path=None, gate=None, unique_id=None, flash_timing=True,
                 timeout=120):
        """gate: {uart: gpio}, a UART whose TX reaches the wire only while that GPIO is high
        (the RS-485 driver enable: {1: 6} on the table's board). unique_id: the flash chip's
        8-byte ID (machine.unique_id(), hence the device id `tapis flash` keys on); by default
        one derived from flash_path, so each flash file is another board (a fixed one for the
        temporary flash). flash_timing=False: erase and program take no emulated time (by
        default a W25Q16JV's typical 45 ms a 4 KB sector, 0.4 ms a page, interrupts off)."""
        import threading

        ensure_installed()
        self.image = image_path(image)
        self.bootrom = bootrom_path()
        self._tmp = None
        if flash_path is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="tapis-pico-")
            flash_path = Path(self._tmp.name) / "flash.bin"
        self.flash_path = Path(flash_path)
        if unique_id is None:
            import hashlib
            unique_id = DEFAULT_ID if self._tmp else hashlib.sha256(
                str(self.flash_path.resolve()).encode()).digest()[:8]
        if len(unique_id) != 8:
            raise PicoError("a unique_id is 8 bytes, not %r" % (unique_id,))
        self.unique_id = bytes(unique_id)
        self.gate = dict(gate or {})
        self.flash_timing = flash_timing
        self.timeout = timeout  # wall seconds the runner may take to answer one request
        self.lock = threading.RLock()
        self.uart0, self.uart1, self.usb = (PicoPort(self, i) for i in range(3))
        self.ports = (self.uart0, self.uart1, self.usb)
        self._pending = [bytearray(), bytearray(), bytearray()]  # for the next request
        self.base_ns = 0  # emulated time before the last (re)start
        self.t_ns = 0  # emulated time of this run of the runner
        self.boots = 0
        self.watchdog_reason = 0  # for the next start: why the watchdog reset the chip (1, 2)
        self.watchdog_resets = [0, 0]  # how many times it did: timed out, forced (machine.reset())
        self.proc = None
        self.err = None
        self.bridge = None  # the pty bridge while free-running (pty.py)

    # ---- the runner ----
    def start(self):
        if self.proc is not None:
            return self
        argv = ["node", str(RUNNER), "--image", str(self.image), "--bootrom", str(self.bootrom),
                "--flash", str(self.flash_path), "--id", self.unique_id.hex()]
        for uart, gpio in sorted(self.gate.items()):
            argv += ["--gate", "%d:%d" % (uart, gpio)]
        if not self.flash_timing:
            argv.append("--instant-flash")
        # the ring oscillator's noise: another at each boot, the same for the same board and boot
        import hashlib
        noise = hashlib.sha256(self.unique_id + b"%d" % self.boots).digest()[:4]
        argv += ["--entropy", str(int.from_bytes(noise, "big"))]
        if self.watchdog_reason:
            argv += ["--watchdog-reason", str(self.watchdog_reason)]
            self.watchdog_reason = 0
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, bufsize=0, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err)
        self.hello = self._json()
        self.boots += 1
        self.t_ns = 0
        return self

    def _fail(self, why):
        code = self.proc.poll()
        if code is None:
            self.proc.kill()
            code = self.proc.wait()
        self.err.seek(0)
        detail = self.err.read().decode(errors="replace").strip()
        self.proc = None
        raise PicoError("%s (runner status %s)%s" % (why, code, "\n" + detail if detail else ""))

    def _read(self, n):
        data = b""
        fd = self.proc.stdout.fileno()
        while len(data) < n:
            if not select.select([fd], [], [], self.timeout)[0]:
                self._fail("the emulated Pico did not answer in %s s" % self.timeout)
            got = os.read(fd, n - len(data))
            if not got:
                self._fail("the emulated Pico's runner exited")
            data += got
        return data

    def _send(self, data):
        try:
            self.proc.stdin.write(data)
        except (BrokenPipeError, AttributeError):
            self._fail("the emulated Pico's runner closed its input")

    def _json(self):
        import json

        if self._read(1) != b"J":
            self._fail("the emulated Pico did not start")
        (n,) = struct.unpack(">I", self._read(4))
        return json.loads(self._read(n))

    def read_reply(self):
        """One "R" frame: store each line's bytes; return its flags (1: a watchdog reset)."""
        op = self._read(1)
        if op != b"R":
            self._fail("bad reply %r from the emulated Pico" % (op,))
        return self.reply_body(len(self.ports))[0]

    def reply_body(self, lines):
        """The rest of an "R" frame: the chip's time, and each line's bytes, stored for the
        first `lines` lines; (its flags, each line's bytes)."""
        t, flags, *sizes = struct.unpack(">QBIII", self._read(21))
        data = [self._read(n) if n else b"" for n in sizes]
        with self.lock:
            self.t_ns = t
            for port, d in zip(self.ports[:lines], data):
                port.inbox += d
                port.sent += len(d)
        return flags, data

    def feed(self, index, data):
        with self.lock:
            if self.bridge is not None:  # free-running: straight to the chip
                self.bridge.feed(index, data)
            else:
                self._pending[index] += data

    def _take_pending(self):
        with self.lock:
            data, self._pending = [bytes(p) for p in self._pending], [bytearray(), bytearray(), bytearray()]
        return data

    # ---- lockstep ----
    def step(self, ms=1):
        """Run `ms` milliseconds of emulated time (one slice), with the bytes written since."""
        if self.bridge is not None:
            raise PicoError("the Pico is free-running on a pty: stop_pty() before stepping it")
        self.start()
        data = self._take_pending()
        self._send(b"S" + struct.pack(">IIII", int(ms * 1000), *map(len, data)) + b"".join(data))
        flags = self.read_reply()
        if flags & 1:  # the watchdog reset the chip: the runner saved the flash and left
            self.proc.wait()
            if flags >> 1 in (1, 2):
                self.watchdog_resets[(flags >> 1) - 1] += 1
            self._restart(flags >> 1)
        return self.now_ms

    def run_for(self, ms, until=None):
        """Step 1 ms at a time for `ms` ms, or until until() is true; True if it became true."""
        end = self.now_ns + ms * 1_000_000
        while self.now_ns < end:
            self.step(1)
            if until is not None and until():
                return True
        return False

    @property
    def now_ns(self):
        """The board's emulated clock, in ns since the first start (power cycles go on counting)."""
        return self.base_ns + self.t_ns

    @property
    def now_ms(self):
        return self.now_ns // 1_000_000

    def _lockstep(self, request):
        """Send `request` with the runner in lockstep (a free-running one is paused for it)."""
        free = self.bridge is not None
        if free:
            self.bridge.pause()
        try:
            self.start()
            self._send(request)
            op = self._read(1)
            if op == b"J":
                import json
                (n,) = struct.unpack(">I", self._read(4))
                return json.loads(self._read(n))
            if op != b"A":
                self._fail("bad answer %r to %r" % (op, request))
            return struct.unpack(">Q", self._read(8))[0]
        finally:
            if free:
                self.bridge.resume()

    def stats(self):
        """The runner's counters (instructions, bytes lost on the wires, ...)."""
        return self._lockstep(b"T")

    def save_flash(self):
        self._lockstep(b"W")

    def _stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self._send(b"Q")
                self._read(9)  # "A" and the time: the flash is saved
                self.proc.wait(timeout=30)
            except (PicoError, subprocess.TimeoutExpired):
                if self.proc is not None:
                    self.proc.kill()
                    self.proc.wait()
        self.proc = None
        self.err.close()

    def _restart(self, watchdog_reason=0):
        self.watchdog_reason = watchdog_reason
        self.base_ns += self.t_ns
        self.t_ns = 0
        self.proc = None
        self.err.close()
        self.start()

    def power_cycle(self):
        """Power off (the flash file is saved; RAM and the wires' bytes in flight are lost)
        and on again: the chip boots from its flash as a Pico does."""
        with_pty = self.bridge is not None
        if with_pty:
            self.bridge.pause()
        self._stop()
        self.base_ns += self.t_ns
        self.t_ns = 0
        self._take_pending()
        self.start()
        if with_pty:
            self.bridge.resume()

    # ---- free-running on a pty ----
    def pty(self):
        """Run free with the USB CDC on a pseudo-terminal; return its path."""
        from tapis.simulator.pico.pty import PtyBridge

        self.start()
        if self.bridge is None:
            self.bridge = PtyBridge(self)
        return self.bridge.path

    def stop_pty(self):
        """Back to lockstep (the pty closes)."""
        if self.bridge is not None:
            bridge, self.bridge = self.bridge, None
            bridge.close()

    def close(self):
        self.stop_pty()
        self._stop()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
