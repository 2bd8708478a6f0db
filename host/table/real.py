"""Real devices at the table simulator (tapis table --shoe URL --bus URL): the firmware
controller here, the shoe and/or the RS-485 bus of panels and displays on serial ports
(pyserial URLs, host/ports.py), in real time. A shoe that speaks the plain-text dialect
(one card a line, ERR for faults: firmware/offboard/dialect.py) is bridged to the framed link the
controller speaks: its lines become CARD and FAULT frames; what the controller asks of it
(SHUFFLE, DRAW) cannot be told to such a shoe and is counted."""
import sys
import time

from tapis.firmware.offboard import dialect as D
from tapis.firmware import wire as W
from tapis.firmware.cards import parse
from tapis.firmware.link.link import Link
from tapis.simulator.table.pipes import pipe


class TextShoe:
    """A text-dialect shoe on `port`, as a device of the table: step(now) reads its lines
    and sends them to the controller as a framed shoe would."""

    def __init__(self, port, name=None):
        from tapis.host.shoe.traffic import Monitor

        self.port, self.name = port, name  # name: the port as the operator gave it, said once asked
        self.controller_end, mine = pipe()
        self.link = Link(mine, W.DEV_SHOE, b"TEXT-SHOE", speaks=(W.SHOE,))
        self.monitor = Monitor("text")  # the shoe tool's reader of the text dialect
        self.unheard = 0  # SHUFFLE and DRAW a text shoe cannot be told
        self.garbled = 0

    def step(self, now_ms):
        for _a, _s, ftype, _p in self.link.poll(now_ms):
            if ftype in (W.SHUFFLE, W.DRAW):
                self.unheard += 1
                if self.unheard == 1 and self.name:  # a card dealt before would be one nobody asked for
                    sys.stderr.write("tapis table: the table asks the text shoe on %s for cards: deal them\n" % self.name)
                    sys.stderr.flush()
        for ev in self.monitor.feed(self.port.read()):
            if ev["type"] == "CARD":
                self.link.send(W.SHOE, W.CARD, bytes((parse(ev["card"]),)))
            elif ev["type"] == "FAULT":
                self.link.send(W.SHOE, W.FAULT, D.parse_line("ERR " + ev["fault"])[1])
            else:
                self.garbled += 1


class Pacer:
    """Keeps the table's milliseconds on the wall clock (real devices answer in real time)."""

    def __init__(self):
        self.t0 = time.monotonic()

    def wait(self, now_ms):
        ahead = now_ms / 1000.0 - (time.monotonic() - self.t0)
        if ahead > 0:
            time.sleep(ahead)
