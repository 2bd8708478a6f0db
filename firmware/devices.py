# Drivers for the table's devices, each over a Link (link.py): none builds its port, so
# tests and the simulator hand them pipes, and the board hands them UARTs (main.py).
from . import wire as W
from .views import Encoder


class Shoe:
    """The dealer shoe: told to load a pack and to deliver n cards, it reports each card."""

    def __init__(self, link, addr=W.SHOE):
        self.link, self.addr = link, addr

    def shuffle(self, size):
        self.link.send(self.addr, W.SHUFFLE, bytes((size,)))

    def draw(self, n):
        self.link.send(self.addr, W.DRAW, bytes((n,)))


class Display:
    """A display shows a view (views.py: only what changed goes on the wire). While the
    last SHOW still waits for the bus, a newer view waits too, and goes as one change."""

    def __init__(self, link, addr, every=0):
        """every: at most one SHOW in this many ms, unless the view says it is the
        seat's turn (the bus is shared: a display nobody waits on is sent less often)."""
        self.link, self.addr = link, addr
        self.codec = Encoder()
        self.want = None  # a view not sent yet
        self.every = every
        self.at = -every  # when the last SHOW went

    def show(self, view, now=0):
        self.want = view
        self.flush(now)

    def flush(self, now=0):
        want = self.want
        if want is None or self.link.waiting(self.addr):
            return
        if now - self.at < self.every and not want.get("turn"):
            return
        data = self.codec.encode(want)
        self.want = None
        if data is not None:
            self.at = now
            self.link.send(self.addr, W.SHOW, data)

    def reset(self):
        """The display lost what it showed (it was reset): the next view goes whole."""
        self.codec.reset()
