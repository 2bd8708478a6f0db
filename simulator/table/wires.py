# The wires of the table as built (SPEC §9, docs/hardware.md): serial lines at a baud rate
# (8N1: 10 bits a byte), the shoe on a UART of its own (full duplex, two ends), every panel
# and display on one half-duplex RS-485 bus. A byte takes its line time; bytes arriving at
# a full receive buffer are lost (an overrun), as at a UART; two ends driving the bus in
# the same moment collide, and what the others hear is garbage. Time goes in steps of one
# millisecond (step(now_ms)), as the table simulator's does.
#
# Faults for the links (tapis table --faults): each write (one frame) is dropped with
# probability `drop` or has one bit flipped with probability `corrupt`, from a seeded rng.
#
# A lazy end (simulator/table/clock.py makes them) is handed each clean frame whole, in the
# millisecond its last byte arrives: whole.py.
import random

from tapis.simulator.port import Port
from tapis.simulator.table.whole import WholeEnd, WholeLine, clean

BAUD = 115200
RX_BUFFER = 256  # bytes a receiver holds until it is read (a UART's ring buffer)


class WireEnd(WholeEnd, Port):
    """One end of a line: a Port (read() -> bytes, write(b)) with a receive buffer."""

    def __init__(self, wire, name, rx_size):
        self.wire, self.name, self.rx_size = wire, name, rx_size
        self.inbox = bytearray()  # received, not read yet
        self.tx = bytearray()  # written, not on the line yet
        self.sent = 0  # bytes this end put on the line
        self.overruns = 0  # bytes lost at this end's full receive buffer
        self.spoke = 0  # the last millisecond this end's bytes went on the line
        WholeEnd.__init__(self)

    def read(self):
        if not self.inbox:
            return b""
        data = bytes(self.inbox)
        self.inbox.clear()
        self.banked = 0
        return data

    def write(self, data):
        w = self.wire
        data = bytes(data)  # (a frame's bytes, as a board's write takes them: no copy)
        if w.rng is not None and data:
            r = w.rng.random()
            if r < w.drop:
                w.damaged += 1
                return len(data)
            if r < w.drop + w.corrupt:
                w.damaged += 1
                data = bytearray(data)
                data[w.rng.randrange(len(data))] ^= 1 << w.rng.randrange(8)
                data = bytes(data)
        if len(self.tx) != self.queued:
            self.segs = [[len(self.tx), None, None, None]] if self.tx else []
        self.tx += data
        self.segs.append([len(data), data if w.lazy and clean(data) else None, None, None])
        self.queued = len(self.tx)
        w.busy = w.written = True
        return len(data)

    def receive(self, data):
        room = self.rx_size - (len(self.inbox) - self.banked)
        if len(data) > room:
            self.overruns += len(data) - max(room, 0)
            data = data[:max(room, 0)]
        self.inbox += data

class Wire(WholeLine):
    """A serial line. bus=True: half-duplex, every end hears every other; else a UART
    between two ends, each direction on its own."""

    def __init__(self, name, bus=False, baud=BAUD, rx_size=RX_BUFFER, drop=0.0, corrupt=0.0, seed=0):
        self.name, self.bus, self.baud, self.rx_size = name, bus, baud, rx_size
        self.ends = []
        self.drop, self.corrupt = drop, corrupt
        self.rng = random.Random(seed) if (drop or corrupt) else None
        self.damaged = 0  # frames dropped or corrupted by the faults
        self.collisions = 0  # milliseconds in which two ends drove the bus
        self.bytes = 0  # bytes put on the line, every end
        self.busy = False  # some end has bytes to send
        self.credit = {}  # end -> fractional byte times carried to the next ms
        self.per_ms = baud / 10 / 1000.0  # bytes a millisecond
        self.at = 0  # the last millisecond stepped
        WholeLine.__init__(self)

    def end(self, name, rx_size=None):
        e = WireEnd(self, name, rx_size or self.rx_size)
        self.ends.append(e)
        self.credit[e] = 0.0
        return e

    def line_ms(self, n=None):
        """The line time of n bytes (of all it carried), in ms."""
        return (self.bytes if n is None else n) * 10 * 1000.0 / self.baud

    def step(self, now_ms):
        self.at = now_ms
        if not self.busy:
            return
        if self.lazy:  # one end talking, as on a bus whose master hands it over: at once
            one = None
            for e in self.ends:
                if e.tx:
                    if one is not None:
                        one = None
                        break
                    one = e
            else:
                if one is not None:
                    tx = one.tx
                    c = self.credit[one] + self.per_ms
                    k = int(c)
                    n = k if k <= len(tx) else len(tx)
                    self.credit[one] = c - n if n == k else 0.0
                    if n:
                        one.sent += n
                        one.spoke = now_ms
                        self.bytes += n
                        self.carry(one, tx, n)
                        del tx[:n]
                    self.busy = bool(tx)
                    return
        talking = [e for e in self.ends if e.tx]
        if not talking:
            self.busy = False
            return
        moved = {}
        for e in talking:
            c = self.credit[e] + self.per_ms
            n = min(int(c), len(e.tx))
            self.credit[e] = c - n if n == int(c) else 0.0  # an end that ran dry starts afresh
            if n:
                moved[e] = bytes(e.tx[:n])
                del e.tx[:n]
                e.sent += n
                e.spoke = now_ms
                self.bytes += n
        if self.bus and len(moved) > 1:
            self.collisions += 1
            garbage = bytearray(max(len(b) for b in moved.values()))
            for b in moved.values():
                for i in range(len(b)):
                    garbage[i] ^= b[i] ^ 0x55
            for e in self.ends:
                e.unheld()
            for e in moved:
                self.spent(e, len(moved[e]))
            for e in self.ends:
                e.receive(bytes(garbage))
            return
        for sender, data in moved.items():
            if self.lazy:
                self.carry(sender, data, len(data), len(data))
            else:
                self.spent(sender, len(data))
                for e in self.ends:
                    if e is not sender:
                        e.receive(data)
        self.busy = any(e.tx for e in self.ends)

def parse_faults(spec):
    """'drop=0.01,corrupt=0.01,shoe=0.02' -> {"drop": 0.01, ...}; ValueError quoting it."""
    out = {"drop": 0.0, "corrupt": 0.0, "shoe": 0.0}
    if not spec:
        return out
    for part in spec.split(","):
        key, eq, value = part.strip().partition("=")
        if key not in out or not eq:
            raise ValueError("--faults takes drop=P,corrupt=P,shoe=P (P from 0 to 1), not %r" % (spec,))
        try:
            p = float(value)
        except ValueError:
            raise ValueError("--faults: %s=%r is not a probability" % (key, value)) from None
        if not 0.0 <= p <= 1.0:
            raise ValueError("--faults: %s=%s is not a probability from 0 to 1" % (key, value))
        out[key] = p
    return out
