# The operator's link on the board's USB (firmware/operator/usb.py), under CPython: the port
# takes what the USB holds without waiting and bytes as they are both ways (03 and 0A too),
# and the link opened on it switches the console's Ctrl-C off. The real MicroPython's run of
# it: test_usblink.py (unix port) and test_hostlink_usb_pico.py (the emulated Pico).
import io
import os
import sys
import types

import pytest

from tapis.firmware.operator import usb

KEY = bytes(range(32))


class Stdin:
    """sys.stdin as the port takes it: a raw byte stream, and a file descriptor to poll."""

    def __init__(self, fd):
        self.fd, self.buffer = fd, os.fdopen(fd, "rb", buffering=0)

    def fileno(self):
        return self.fd


@pytest.fixture
def usb_pipe():
    r, w = os.pipe()
    stdin = Stdin(r)
    yield stdin, w
    os.close(w)
    stdin.buffer.close()


def as_usb(monkeypatch, stdin):
    """The board's stdin and stdout (in the test's call: pytest captures sys.stdout at each phase)."""
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(buffer=out))
    return out


def test_the_port_reads_what_is_there_without_waiting_and_writes_bytes_as_they_are(usb_pipe, monkeypatch):
    stdin, w = usb_pipe
    out = as_usb(monkeypatch, stdin)
    port = usb.USBPort()
    assert port.read() == b""  # nothing there: no wait
    frame = bytes([0xA5, 0x03, 0x0A, 0x0D, 0x00, 0xFF])
    os.write(w, frame)
    assert port.read() == frame
    assert port.read() == b""
    os.write(w, bytes(1000))
    assert len(port.read()) == 512 and len(port.read()) == 488  # a poll's chunk at most
    port.write(frame + b"\n")
    assert out.getvalue() == frame + b"\n"  # no "\r\n" in a frame


def test_the_link_on_the_usb_is_keyed_and_the_console_ctrl_c_switched_off(usb_pipe, monkeypatch):
    as_usb(monkeypatch, usb_pipe[0])
    calls = []
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace(kbd_intr=calls.append))
    link = usb.open_link(KEY, 300)
    assert calls == [-1]
    assert isinstance(link.port, usb.USBPort) and link.keys == KEY
