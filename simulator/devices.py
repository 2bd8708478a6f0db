# Emulated devices: a shoe that deals a seeded shuffle as frames, seat consoles
# (a panel and a display on one link) and the table display. They speak the same
# frames as real devices, through the same codec. On the bus (bus=True, the table as
# built) the consoles and the display hear every frame, take their own and speak only
# when the bus is handed to them (firmware/link/bus.py).
from tapis.firmware.offboard import deck
from tapis.firmware import wire as W
from tapis.firmware.link.boards import rto_ms
from tapis.firmware.link.hello import TEST_KEY, pair_key
from tapis.firmware.link.link import Link
from tapis.firmware.offboard.device import BusDevice, Decoder, Device

RTO_MS = rto_ms(115200)  # the devices resend as the board does, at the line's rate
ASK_AGAIN_MS = 1000  # a display that asked for its view whole and has none asks again

# Packs with a cut card, and the span of places it is put at (club écarté's shoe): when
# it comes out the shoe reports FAULT CUT and stops; the next DRAW goes on past it.
CUTS = deck.CUT_SPAN


class EmuShoe:
    """The shoe, framed, paired with the table whose device key is `key` (None: not paired,
    as a keyed table refuses it): its frames sealed, its cards encrypted."""

    def __init__(self, port, rng, addr=W.SHOE, cuts=CUTS, key=TEST_KEY):
        keys = paired(W.DEV_SHOE, (addr,), b"EMU-SHOE", key) if key is not None else None
        self.link = Device(port, W.DEV_SHOE, b"EMU-SHOE", rto_ms=RTO_MS, speaks=(addr,), keys=keys)
        self.rng, self.addr = rng, addr
        self.pack = []
        self.dealt = 0
        self.cuts, self.cut = cuts, None

    def step(self, now_ms):
        for _addr, _seq, ftype, payload in self.link.poll(now_ms):
            if ftype == W.SHUFFLE:
                self.unload()
                self.pack = deck.shuffle(deck.pack(payload[0]), self.rng.below)
                self.dealt = 0
                span = self.cuts.get(payload[0])
                self.cut = span[0] + self.rng.below(span[1] - span[0] + 1) if span else None
                self.count(W.LOADED, len(self.pack))
            elif ftype == W.DRAW:
                for _ in range(payload[0]):
                    if self.dealt == self.cut:
                        self.cut = None
                        self.link.send(self.addr, W.FAULT, bytes((W.CUT,)))
                        break
                    if not self.deliver():
                        break  # empty: said once, the rest of the DRAW is not dealt

    def pair(self, port, timeout=10.0):
        """Answer `tapis pair` on its own cable (EmuDisplay.pair): the key it is given is the
        one its sessions are keyed with from then on."""
        return EmuDisplay.pair(self, port, timeout)

    def count(self, kind, n):
        """COUNT [kind, n]: the shoe's reader counted the pack (firmware/table/packcount.py)."""
        self.link.send(self.addr, W.COUNT, bytes((kind, n >> 8, n & 255)))

    def unload(self):
        """A SHUFFLE takes the pack in the shoe out first: what is left in it is counted."""
        if self.pack:
            self.count(W.LEFT, len(self.pack) - self.dealt)

    def deliver(self):
        """The next card, or the fault EMPTY: whether a card came out."""
        if self.dealt >= len(self.pack):
            self.link.send(self.addr, W.FAULT, bytes((W.EMPTY,)))
            return False
        self.link.send(self.addr, W.CARD, bytes((self.pack[self.dealt],)))
        self.dealt += 1
        return True


def paired(device, addrs, serial, key=TEST_KEY):
    """The keys `tapis pair` provisions into a device: one per address it speaks on, from
    the table's device key (the emulated table's is hello.TEST_KEY)."""
    return {a: pair_key(key, device, a, serial) for a in addrs}


class EmuDisplay:
    """Keeps the last view it was shown; `on_show` lets a renderer watch. On the bus it is
    paired with the table whose device key is `key` (None: not paired)."""

    def __init__(self, port, on_show=None, device=W.DEV_DISPLAY, addrs=(W.TABLE_DISPLAY,), bus=True,
                 key=TEST_KEY):
        serial = b"EMU-%d-%d" % (device, addrs[0])
        if bus:
            keys = paired(device, addrs, serial, key) if key is not None else None
            self.link = BusDevice(port, device, serial, addrs, rto_ms=RTO_MS, keys=keys)
        else:
            self.link = Link(port, device, serial, rto_ms=RTO_MS, speaks=addrs)
        self.view = None
        self.views = Decoder()
        self.on_show = on_show
        self.shows = 0
        self.refused = 0  # SHOWs it could not apply
        self.addr = addrs[-1]  # the display's own address (a console's: its second)
        self.asked = None  # when a whole view was asked for (WHOLE), none decoded since

    def again(self, now_ms):
        """Ask for the view whole (WHOLE): once until a SHOW decodes, or a while has gone."""
        if self.asked is None or now_ms - self.asked >= ASK_AGAIN_MS:
            self.asked = now_ms
            self.link.send(self.addr, W.WHOLE)

    def pair(self, port, timeout=10.0):
        """Answer `tapis pair` on the device's own port (a thread while it runs): the keys
        it is given are the ones it speaks with on the bus from then on."""
        import time
        from tapis.firmware.link.frames import Decoder as Frames, encode
        from tapis.firmware.offboard.device import PAIR, answer_pair
        frames, end = Frames(), time.monotonic() + timeout
        keys = dict(self.link.keys or {})
        while time.monotonic() < end:
            for _a, seq, ftype, payload in frames.feed(port.read() or b""):
                if ftype == PAIR:
                    port.write(encode(W.HOST, seq, PAIR, answer_pair(payload, self.link.device,
                                                                    self.link.serial, keys)))
                    if payload:
                        self.link.keys = keys
                        return keys
            time.sleep(0.005)
        return None

    def step(self, now_ms):
        frames = self.link.poll(now_ms)
        if self.link.lost(self.addr):  # frames skipped or taken twice: its view is not the
            self.views.view = None  # controller's; refused until a whole one comes
            self.again(now_ms)
        for _addr, _seq, ftype, payload in frames:
            if ftype == W.SHOW:
                try:
                    self.view = self.views.feed(payload)
                    self.asked = None
                except ValueError:  # a change to a view it does not have (it was reset, or
                    self.refused += 1  # a frame was lost): the next SHOW whole, please
                    self.again(now_ms)
                    continue
                self.shows += 1
                if self.on_show:
                    self.on_show(self.view)
        if self.asked is not None:  # asked, and no view decoded since: ask again in a while
            self.again(now_ms)


class EmuConsole(EmuDisplay):
    """A seat: its display, and a panel pressed by `player.presses(view)`, which
    returns the (button, arg) presses to make, if any, on each new view."""

    def __init__(self, port, seat, player, bus=True, key=TEST_KEY):
        EmuDisplay.__init__(self, port, None, W.DEV_CONSOLE, (W.PANEL + seat, W.DISPLAY + seat), bus, key)
        self.seat, self.player = seat, player
        self.hold = False  # the player's hands off the panel (the table is draining)
        self.pressed = None  # when the last presses were made, until the display answers
        self.latencies = []  # ms from a press to the seat's own display showing what it did

    def step(self, now_ms):
        before = self.view
        EmuDisplay.step(self, now_ms)
        if self.view is not before and self.view is not None:
            if self.pressed is not None:
                self.latencies.append(now_ms - self.pressed)
                self.pressed = None
            if self.hold:
                return
            for button, arg in self.player.presses(self.view):
                self.link.send(W.PANEL + self.seat, W.BUTTON, bytes((button, arg)))
                self.pressed = now_ms
