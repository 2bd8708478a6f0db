"""The operator's link on the board's USB (issue 31.1; firmware/operator/usb.py): the signed
configuration's "host_link" checked, `tapis flash --host-link usb` writing it (and nothing
without it), and the link's port on the real MicroPython (the unix port, its stdin and
stdout piped as a board's USB CDC): a keyed host's frames answered through the board's own
text, frames holding 03 and 0A (Ctrl-C, a newline) and text holding A5 (a false start) among
them. The emulated Pico's run of it: tests/firmware/operator/test_hostlink_usb_pico.py."""
import json
import os
import subprocess
import sys
import time

import pytest

from tapis.firmware.boot import config
from tapis.firmware import wire as W
from tapis.firmware.operator.hostlink import host_end
from tapis.host.errors import FlashError
from tapis.host.flash.image import configuration

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
UNIX = os.path.join(os.path.dirname(sys.executable), "micropython")
KEY = bytes(range(32))


def test_the_configuration_says_usb_or_nothing():
    plain = configuration("ecarte")
    assert "host_link" not in json.loads(plain) and not config.host_link(plain)  # the bytes as before
    usb = configuration("ecarte", host_link="usb")
    assert json.loads(usb)["host_link"] == "usb" and config.host_link(usb)
    assert config.parse(usb)[0] == "ecarte"
    for bad in ("bus", True, 1):
        c = json.loads(usb)
        c["host_link"] = bad
        with pytest.raises(config.ConfigError, match="host_link"):
            config.parse(json.dumps(c).encode())
    with pytest.raises(FlashError):
        configuration("ecarte", host_link="bus")


def test_tapis_flash_takes_usb_only():
    p = subprocess.run([sys.executable, "-m", "tapis", "flash", "--port", "/nonexistent", "--host-link", "bus"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and "--host-link" in p.stderr, p.stderr


# The board's side on the unix port: the link on its stdin and stdout (usblink.USBPort), each
# frame taken echoed back as a RECORD, with lines of text printed before and after it.
BOARD = """
import time
from firmware import wire as W
from firmware.operator.usb import open_link
link = open_link(bytes(range(32)), 40)
t0 = time.ticks_ms()
print('tapis: the board says hello, \\u00e5 \\u00a5')
while time.ticks_diff(time.ticks_ms(), t0) < 20000:
    for a, s, t, p in link.poll(time.ticks_diff(time.ticks_ms(), t0)):
        print('tapis: took', t, '\\u00e5')
        link.send(a, W.RECORD, p)
        print('tapis: answered \\u00e5\\u00a5\\u00a5')
    time.sleep_ms(1)
"""


class Pipe:
    """The host's end of the board's stdin and stdout, as a Port."""

    def __init__(self, proc):
        self.proc = proc
        os.set_blocking(proc.stdout.fileno(), False)
        self.seen = bytearray()

    def read(self):
        try:
            got = os.read(self.proc.stdout.fileno(), 4096)
        except BlockingIOError:
            return b""
        self.seen += got
        return got

    def write(self, data):
        self.proc.stdin.write(bytes(data))
        self.proc.stdin.flush()
        return len(data)


@pytest.mark.skipif(not os.path.exists(UNIX), reason="the unix port is installed by make install")
def test_the_link_on_micropythons_stdin_and_stdout_through_the_boards_text():
    proc = subprocess.Popen([UNIX, "-c", BOARD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    try:
        port = Pipe(proc)
        host = host_end(port, b"tapis-test", KEY)
        sent = [bytes((3, 10, 13, 0xA5, 3)) * 4, b"\x03", bytes(range(256))[:200]]
        got = []
        start = time.monotonic()
        for payload in sent:
            host.send(W.HOST, W.METERS, payload)
            while len(got) < sent.index(payload) + 1:
                assert time.monotonic() - start < 15 and proc.poll() is None, (bytes(port.seen[-300:]),
                                                                               proc.stderr.read() if proc.poll() is not None else "")
                got += [p for _a, _s, t, p in host.poll(int((time.monotonic() - start) * 1000)) if t == W.RECORD]
                time.sleep(0.002)
        assert got == sent
        text = bytes(port.seen)
        assert b"tapis: took" in text and "å".encode() in text  # the board's text was on the same wire
        assert proc.poll() is None  # no Ctrl-C stopped it
    finally:
        proc.kill()
        proc.wait(10)
