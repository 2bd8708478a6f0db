# The operator's link on the board's USB (the signed configuration's "host_link": "usb";
# docs/hardware.md, "The host link on the USB"): the keyed host interface (hostlink.py) on
# the USB CDC serial port, where MicroPython's console was. main.py loads it only when the
# configuration asks for it; a board without the option never imports it.
#
# Frames go out through sys.stdout.buffer, which writes bytes as they are: sys.stdout (what
# print uses) turns "\n" into "\r\n", which would break a frame. What the board prints
# meanwhile (report.py's lines, a crash before the reset) goes out between whole frames
# (one write each, nothing runs between), as text the host's decoder skips: it takes only
# a 0xA5 followed by a header and a good CRC (frames.py), and ASCII holds no 0xA5.
# Bytes come in through select.poll, never blocking the table's loop. A frame may hold any
# byte, 0x03 too, which MicroPython's console would take for Ctrl-C and stop the board on:
# open() switches that off for as long as the board runs (micropython.kbd_intr(-1)), so the
# console is closed (docs/security.md): the board is flashed again through the boot window
# or BOOTSEL (docs/hardware.md).
import select
import sys

from ..compat import const
from .hostlink import board_end

MAX_IN = const(256)  # the longest payload taken from the host (its HELLO with its serial, a VERIFY)
_CHUNK = const(512)  # bytes taken from the USB in one poll at most (the stdin ring buffer's size)


class USBPort:
    """A Port (read() -> bytes, write(b)) over the USB CDC: MicroPython's stdin and stdout."""

    def __init__(self):
        self.rx, self.tx = sys.stdin.buffer, sys.stdout.buffer  # type: ignore  (MicroPython: raw bytes)
        self.p = select.poll()
        self.p.register(sys.stdin, select.POLLIN)

    def read(self):
        if not self.p.poll(0):
            return b""
        got = bytearray()
        rx, p = self.rx, self.p
        while len(got) < _CHUNK and p.poll(0):
            got += rx.read(1)  # (read(n) would wait for n bytes: one a time, as many as are there)
        return bytes(got)

    def write(self, data):
        return self.tx.write(data)


def open_link(device_key, rto_ms):
    """The board's end of the operator's link on the USB, keyed with the device key; the
    console's Ctrl-C switched off from here on."""
    import micropython
    micropython.kbd_intr(-1)
    return board_end(USBPort(), device_key, rto_ms=rto_ms, max_in=MAX_IN)
