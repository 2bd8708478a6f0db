# Emulated devices: a shoe that deals a seeded shuffle as frames, seat consoles
# (a panel and a display on one link) and the table display. They speak the same
# frames as real devices, through the same codec.
import json

from tapis.firmware import deck, protocol as P
from tapis.firmware.devices import Link

PACKS = {32: deck.deck32, 36: deck.deck36, 52: deck.deck52, 104: deck.shoe}
# Packs with a cut card, and the span of places it is put at (club écarté's shoe): when
# it comes out the shoe reports FAULT "C" and stops; the next DRAW goes on past it.
CUTS = {104: (52, 78)}


class EmuShoe:
    def __init__(self, port, rng, addr=P.SHOE, cuts=CUTS):
        self.link, self.rng, self.addr = Link(port, P.DEV_SHOE, b"EMU-SHOE"), rng, addr
        self.pack = []
        self.dealt = 0
        self.cuts, self.cut = cuts, None

    def step(self, now_ms):
        for _addr, _seq, ftype, payload in self.link.poll(now_ms):
            if ftype == P.SHUFFLE:
                self.pack = deck.shuffle(PACKS[payload[0]](), self.rng.below)
                self.dealt = 0
                span = self.cuts.get(payload[0])
                self.cut = span[0] + self.rng.below(span[1] - span[0] + 1) if span else None
            elif ftype == P.DRAW:
                for _ in range(payload[0]):
                    if self.dealt == self.cut:
                        self.cut = None
                        self.link.send(self.addr, P.FAULT, b"C")  # the cut card
                        break
                    self.deliver()

    def deliver(self):
        if self.dealt >= len(self.pack):
            self.link.send(self.addr, P.FAULT, b"E")  # empty
            return
        self.link.send(self.addr, P.CARD, bytes((self.pack[self.dealt],)))
        self.dealt += 1


class EmuDisplay:
    """Keeps the last view it was shown; `on_show` lets a renderer watch."""

    def __init__(self, port, on_show=None, device=P.DEV_DISPLAY):
        self.link = Link(port, device, b"EMU-%d" % device)
        self.view = None
        self.on_show = on_show

    def step(self, now_ms):
        for _addr, _seq, ftype, payload in self.link.poll(now_ms):
            if ftype == P.SHOW:
                self.view = json.loads(payload)
                if self.on_show:
                    self.on_show(self.view)


class EmuConsole(EmuDisplay):
    """A seat: its display, and a panel pressed by `player.presses(view)`, which
    returns the (button, arg) presses to make, if any, on each new view."""

    def __init__(self, port, seat, player):
        EmuDisplay.__init__(self, port, None, P.DEV_CONSOLE)
        self.seat, self.player = seat, player

    def step(self, now_ms):
        before = self.view
        EmuDisplay.step(self, now_ms)
        if self.view is not before and self.view is not None:
            for button, arg in self.player.presses(self.view):
                self.link.send(P.PANEL + self.seat, P.BUTTON, bytes((button, arg)))
