# Drivers for the table's devices. Each takes a Link (a Port plus the frame codec);
# none builds its port, so tests and the simulator hand them pipes, and the board
# hands them UARTs (firmware/main.py).
import json

from firmware import protocol as P


class Link:
    """One serial link: frames out, frames in. `port` has read() -> bytes and write(b)."""

    def __init__(self, port):
        self.port = port
        self.decoder = P.Decoder()
        self.seq = 0

    def send(self, addr, ftype, payload=b""):
        self.seq = (self.seq + 1) & 255
        self.port.write(P.encode(addr, self.seq, ftype, payload))

    def poll(self):
        data = self.port.read()
        return self.decoder.feed(data) if data else ()


class Shoe:
    """The dealer shoe: told to load a pack and to deliver n cards, it reports each card."""

    def __init__(self, link, addr=P.SHOE):
        self.link, self.addr = link, addr

    def shuffle(self, size):
        self.link.send(self.addr, P.SHUFFLE, bytes((size,)))

    def draw(self, n):
        self.link.send(self.addr, P.DRAW, bytes((n,)))


class Display:
    """A display shows a JSON view; an unchanged view is not sent again."""

    def __init__(self, link, addr):
        self.link, self.addr = link, addr
        self.last = None

    def show(self, view):
        data = json.dumps(view).encode()
        if data != self.last:
            self.last = data
            self.link.send(self.addr, P.SHOW, data)
