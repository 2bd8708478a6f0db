# Drivers for the table's devices, each over a Link (link.py): none builds its port, so
# tests and the simulator hand them pipes, and the board hands them UARTs (main.py).
import json

from . import wire as W


class Shoe:
    """The dealer shoe: told to load a pack and to deliver n cards, it reports each card."""

    def __init__(self, link, addr=W.SHOE):
        self.link, self.addr = link, addr

    def shuffle(self, size):
        self.link.send(self.addr, W.SHUFFLE, bytes((size,)))

    def draw(self, n):
        self.link.send(self.addr, W.DRAW, bytes((n,)))


class Display:
    """A display shows a JSON view; an unchanged view is not sent again."""

    def __init__(self, link, addr):
        self.link, self.addr = link, addr
        self.last = None

    def show(self, view):
        data = json.dumps(view).encode()
        if data != self.last:
            self.last = data
            self.link.send(self.addr, W.SHOW, data)
