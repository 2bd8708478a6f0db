"""The emulated Pico free-running, its USB CDC on a pseudo-terminal: mpremote, `tapis flash`
or a person's serial terminal open the pty's path as they would a Pico's /dev/ttyACM0.

The runner paces itself to at most real time and sends what the chip sent as it comes; a
thread here copies the pty's input to the chip and the chip's USB output to the pty. The
UARTs stay Ports on the EmulatedPico (their writes go straight to the chip meanwhile). A
watchdog reset restarts the runner from the saved flash, the pty staying open.
"""
import os
import select
import struct
import threading
import tty

from tapis.simulator.pico.runner import USB
from tapis.simulator.pico.setup import PicoError

_MAX_BACKLOG = 1 << 20  # USB output kept for a pty nobody reads, before the oldest is dropped


class PtyBridge:
    def __init__(self, pico):
        self.pico = pico
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo and no line discipline: a serial port
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.backlog = bytearray()  # chip output the pty has not taken yet
        self.transcript = bytearray()  # everything the chip said on USB, for tests and debugging
        self.thread = None
        self.failure = None
        self.resume()

    def feed(self, index, data):
        """Bytes for the chip now (called with the pico's lock held)."""
        sizes = [len(data) if i == index else 0 for i in range(3)]
        self.pico.send_request(b"I" + struct.pack(">III", *sizes) + data)

    def to_pty(self, data):
        self.transcript += data
        self.backlog += data
        if len(self.backlog) > _MAX_BACKLOG:
            del self.backlog[:len(self.backlog) - _MAX_BACKLOG]
        try:
            while self.backlog:
                n = os.write(self.master, self.backlog)
                del self.backlog[:n]
        except BlockingIOError:
            pass

    def resume(self):
        with self.pico.lock:
            self.pico.send_request(b"F")
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="pico-pty", daemon=True)
        self.thread.start()

    def pause(self):
        """Back to lockstep: the runner answers "L" with its last output, then "A"."""
        if self.thread is None:
            return
        self.stopping.set()
        with self.pico.lock:
            if self.pico.proc is not None and self.pico.proc.poll() is None:
                self.pico.send_request(b"L")
        self.thread.join(timeout=60)
        self.thread = None
        if self.failure is not None:
            raise self.failure

    def _loop(self):
        pico = self.pico
        try:
            while True:
                fds = [pico.proc.stdout.fileno()] + ([] if self.stopping.is_set() else [self.master])
                ready = select.select(fds, [], [], 0.05)[0]
                if self.master in ready:
                    try:
                        data = os.read(self.master, 4096)
                    except (BlockingIOError, OSError):
                        data = b""
                    if data:
                        with pico.lock:
                            self.feed(USB, data)
                if pico.proc.stdout.fileno() in ready:
                    op = pico.read_exactly(1)
                    if op == b"A":  # the answer to "L": paused
                        pico.read_exactly(8)
                        return
                    if op != b"R":
                        pico.fail("bad frame %r from the free-running Pico" % (op,))
                    with pico.lock:
                        flags, data = pico.reply_body(USB)  # the UARTs' bytes; the USB's to the pty
                        pico.usb.sent += len(data[USB])
                        self.to_pty(data[USB])
                        if flags & 1:  # a watchdog reset: the runner saved the flash and left
                            pico.proc.wait()
                            pico.restart(flags >> 1)
                            pico.send_request(b"F")
                elif self.backlog:
                    self.to_pty(b"")
        except PicoError as e:
            self.failure = e

    def close(self):
        try:
            self.pause()
        finally:
            for fd in (self.master, self.slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
