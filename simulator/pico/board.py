"""An emulated Raspberry Pi Pico running the official MicroPython image: rp2040js in Node
(runner.py), driven from here in lockstep slices of emulated time, so a run is
deterministic.

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
import struct

from tapis.simulator.port import Port

from tapis.simulator.pico.pty import PtyBridge
from tapis.simulator.pico.runner import Runner
from tapis.simulator.pico.setup import (IMAGE_ENV, RUNNER, PicoError, bootrom_path, ensure_installed,  # noqa: F401
                                  image_path)


class PicoPort(Port):
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


class EmulatedPico(Runner):
    def __init__(self, image=None, flash_path=None, gate=None, unique_id=None, flash_timing=True,
                 timeout=120):
        """The runner's arguments (runner.py): the image, the flash file, the gated UARTs,
        the flash chip's ID and timing, the wall seconds an answer may take."""
        Runner.__init__(self, image, flash_path, gate, unique_id, flash_timing, timeout)
        self.uart0, self.uart1, self.usb = (PicoPort(self, i) for i in range(3))
        self.ports = (self.uart0, self.uart1, self.usb)
        self._pending = [bytearray(), bytearray(), bytearray()]  # for the next request
        self.watchdog_resets = [0, 0]  # how many times it did: timed out, forced (machine.reset())

    def read_reply(self):
        """One "R" frame: store each line's bytes; return its flags (1: a watchdog reset)."""
        op = self.read_exactly(1)
        if op != b"R":
            self.fail("bad reply %r from the emulated Pico" % (op,))
        return self.reply_body(len(self.ports))[0]

    def reply_body(self, lines):
        """The rest of an "R" frame: the chip's time, and each line's bytes, stored for the
        first `lines` lines; (its flags, each line's bytes)."""
        t, flags, *sizes = struct.unpack(">QBIII", self.read_exactly(21))
        data = [self.read_exactly(n) if n else b"" for n in sizes]
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
        self.send_request(b"S" + struct.pack(">IIII", int(ms * 1000), *map(len, data)) + b"".join(data))
        flags = self.read_reply()
        if flags & 1:  # the watchdog reset the chip: the runner saved the flash and left
            self.proc.wait()
            if flags >> 1 in (1, 2):
                self.watchdog_resets[(flags >> 1) - 1] += 1
            self.restart(flags >> 1)
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

    def stats(self):
        """The runner's counters (instructions, bytes lost on the wires, ...)."""
        return self.lockstep(b"T")

    def set_input(self, pin, value):
        """Drive the input pin `pin` high (1) or low (0) from outside the chip, as a switch
        wired to it (the door's: firmware/link/boards.py); no reply, from the next step on. A power
        cycle starts a new chip: drive it again."""
        self.send_request(b"G" + bytes((pin, 1 if value else 0)))

    def poke_flash(self, offset, data):
        """Write `data` into the flash chip at `offset` while the chip runs (a flash editor's
        change, as --poke makes before it starts; nothing the chip's own flash writes see)."""
        self.lockstep(b"P" + struct.pack(">II", offset, len(data)) + bytes(data))

    def cut_power_at(self, n, torn=False):
        """The power goes at the chip's n-th flash erase or program from now (1: the next),
        right after it or torn (half of it done): the chip stops there, and the step it
        falls in starts it again from its flash as at power-on (no watchdog reset counted)."""
        self.lockstep(b"C" + struct.pack(">IB", n, 1 if torn else 0))

    def flash_bytes(self):
        """The whole flash chip's bytes as they are now (saved to the flash file first)."""
        self.save_flash()
        with open(self.flash_path, "rb") as f:
            return f.read()

    def save_flash(self):
        self.lockstep(b"W")

    def power_cycle(self):
        """Power off (the flash file is saved; RAM and the wires' bytes in flight are lost)
        and on again: the chip boots from its flash as a Pico does."""
        with_pty = self.bridge is not None
        if with_pty:
            self.bridge.pause()
        self.stop_runner()
        self.base_ns += self.t_ns
        self.t_ns = 0
        self._take_pending()
        self.start()
        if with_pty:
            self.bridge.resume()

    # ---- free-running on a pty ----
    def pty(self):
        """Run free with the USB CDC on a pseudo-terminal; return its path."""
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
        Runner.close(self)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
