"""The emulated Pico's runner: rp2040js in a Node process (pico.mjs, which documents the
envelope), and the requests and answers on its stdin and stdout. EmulatedPico (board.py)
is a Runner with the chip's serial lines; the pty bridge (pty.py) speaks to the same
runner while it runs free. The flash chip is a file (a temp one unless flash_path is
given) that the runner loads at each start and saves when it stops.
"""
import hashlib
import json
import os
import select
import struct
import subprocess
import tempfile
import threading
from pathlib import Path

from tapis.simulator.pico.setup import RUNNER, PicoError, bootrom_path, ensure_installed, image_path

DEFAULT_ID = bytes.fromhex("e6614103e7000001")  # a temporary board's flash ID
USB = 2  # index of the USB CDC in the envelope's (UART0, UART1, USB) triples


class Runner:
    def __init__(self, image=None, flash_path=None, gate=None, unique_id=None, flash_timing=True,
                 timeout=120):
        """gate: {uart: gpio}, a UART whose TX reaches the wire only while that GPIO is high
        (the RS-485 driver enable: {1: 6} on the table's board). unique_id: the flash chip's
        8-byte ID (machine.unique_id(), hence the device id `tapis flash` keys on); by default
        one derived from flash_path, so each flash file is another board (a fixed one for the
        temporary flash). flash_timing=False: erase and program take no emulated time (by
        default a W25Q16JV's typical 45 ms a 4 KB sector, 0.4 ms a page, interrupts off)."""
        ensure_installed()
        self.image = image_path(image)
        self.bootrom = bootrom_path()
        self._tmp = None
        if flash_path is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="tapis-pico-")
            flash_path = Path(self._tmp.name) / "flash.bin"
        self.flash_path = Path(flash_path)
        if unique_id is None:
            unique_id = DEFAULT_ID if self._tmp else hashlib.sha256(
                str(self.flash_path.resolve()).encode()).digest()[:8]
        if len(unique_id) != 8:
            raise PicoError("a unique_id is 8 bytes, not %r" % (unique_id,))
        self.unique_id = bytes(unique_id)
        self.gate = dict(gate or {})
        self.flash_timing = flash_timing
        self.timeout = timeout  # wall seconds the runner may take to answer one request
        self.lock = threading.RLock()
        self.base_ns = 0  # emulated time before the last (re)start
        self.t_ns = 0  # emulated time of this run of the runner
        self.boots = 0
        self.watchdog_reason = 0  # for the next start: why the watchdog reset the chip (1, 2)
        self.proc = None
        self.err = None
        self.bridge = None  # the pty bridge while free-running (pty.py)
        self.pokes = {}  # {flash offset: bytes} written over the image at each start (pico.mjs --poke)
        self.atecc = None  # a host path: an ATECC608 on I2C0 keeping its counters there, off the flash (--atecc)

    def start(self):
        if self.proc is not None:
            return self
        argv = ["node", str(RUNNER), "--image", str(self.image), "--bootrom", str(self.bootrom),
                "--flash", str(self.flash_path), "--id", self.unique_id.hex()]
        for uart, gpio in sorted(self.gate.items()):
            argv += ["--gate", "%d:%d" % (uart, gpio)]
        if not self.flash_timing:
            argv.append("--instant-flash")
        for offset, data in sorted(self.pokes.items()):
            argv += ["--poke", "%d:%s" % (offset, bytes(data).hex())]
        if self.atecc is not None:
            argv += ["--atecc", str(self.atecc)]
        # the ring oscillator's noise: another at each boot, the same for the same board and boot
        noise = hashlib.sha256(self.unique_id + b"%d" % self.boots).digest()[:4]
        argv += ["--entropy", str(int.from_bytes(noise, "big"))]
        if self.watchdog_reason:
            argv += ["--watchdog-reason", str(self.watchdog_reason)]
            self.watchdog_reason = 0
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, bufsize=0, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err)
        self.hello = self.read_json()
        self.boots += 1
        self.t_ns = 0
        return self

    def fail(self, why):
        """Stop the runner and raise PicoError: why, its status and what it printed."""
        code = self.proc.poll()
        if code is None:
            self.proc.kill()
            code = self.proc.wait()
        self.err.seek(0)
        detail = self.err.read().decode(errors="replace").strip()
        self.proc = None
        raise PicoError("%s (runner status %s)%s" % (why, code, "\n" + detail if detail else ""))

    def read_exactly(self, n):
        """n bytes of the runner's output (PicoError if it does not answer in time)."""
        data = b""
        fd = self.proc.stdout.fileno()
        while len(data) < n:
            if not select.select([fd], [], [], self.timeout)[0]:
                self.fail("the emulated Pico did not answer in %s s" % self.timeout)
            got = os.read(fd, n - len(data))
            if not got:
                self.fail("the emulated Pico's runner exited")
            data += got
        return data

    def send_request(self, data):
        try:
            self.proc.stdin.write(data)
        except (BrokenPipeError, AttributeError):
            self.fail("the emulated Pico's runner closed its input")

    def read_json(self):
        if self.read_exactly(1) != b"J":
            self.fail("the emulated Pico did not start")
        (n,) = struct.unpack(">I", self.read_exactly(4))
        return json.loads(self.read_exactly(n))

    def lockstep(self, request):
        """Send `request` with the runner in lockstep (a free-running one is paused for it)."""
        free = self.bridge is not None
        if free:
            self.bridge.pause()
        try:
            self.start()
            self.send_request(request)
            op = self.read_exactly(1)
            if op == b"J":
                (n,) = struct.unpack(">I", self.read_exactly(4))
                return json.loads(self.read_exactly(n))
            if op != b"A":
                self.fail("bad answer %r to %r" % (op, request))
            return struct.unpack(">Q", self.read_exactly(8))[0]
        finally:
            if free:
                self.bridge.resume()

    def stop_runner(self):
        """Ask the runner to save the flash and leave (killed if it will not)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.send_request(b"Q")
                self.read_exactly(9)  # "A" and the time: the flash is saved
                self.proc.wait(timeout=30)
            except (PicoError, subprocess.TimeoutExpired):
                if self.proc is not None:
                    self.proc.kill()
                    self.proc.wait()
        self.proc = None
        self.err.close()

    def restart(self, watchdog_reason=0):
        """Start again from the saved flash, after the runner left for a watchdog reset."""
        self.watchdog_reason = watchdog_reason
        self.base_ns += self.t_ns
        self.t_ns = 0
        self.proc = None
        self.err.close()
        self.start()

    def close(self):
        self.stop_runner()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
