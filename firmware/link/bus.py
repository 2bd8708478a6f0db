# The RS-485 bus (SPEC §9, docs/hardware.md): one half-duplex line for every panel and
# display, on which the controller is the master. A device speaks only when the bus is
# handed to it: the last frame the controller sends it carries TURN (a bit or'ed into the
# frame's type), and the device answers with what it has (its ACKs, presses, HELLO), the
# last frame of that with TURN too, or a POLL|TURN when it has nothing to say. So two ends
# never drive the line at once (docs/protocol.md, "The bus").
#
# Both ends are Links (link.py) whose frames are held back until the bus is theirs. The
# controller hands the bus to the addresses it has frames for, in turn, and polls the
# addresses it is told to (poll_every) when it has nothing for them; a device silent for
# _ANSWER_MS after its turn began (or after its last byte) has its turn taken back.
from .. import wire as W
from ..compat import const
from .frames import encode
from .link import Link

_ANSWER_MS = const(4)  # a device answers at once: silent this long, its turn is over
MAX_IN = const(64)  # the longest payload the board takes from a device (HELLO with its serial)


def say(port, frames, seal, turn=True):
    """Write frames, each sealed as it goes (Link.seal), the last handing the bus over;
    the bytes written."""
    n = 0
    last = len(frames) - 1 if turn else -1
    for i in range(len(frames)):
        f = frames[i]
        if i == last:  # the frame with TURN set in its type (its CRC made again)
            f = encode(f[1], f[2], f[3] | W.TURN, f[6:-2])
        f = seal(f)
        if f is None:  # no session yet: it goes later; the bus is handed over all the same
            if i != last:
                continue
            f = encode(frames[i][1], 0, W.POLL | W.TURN)
        port.write(f)
        n += len(f)
    return n


class BusMaster(Link):
    """The controller's end of the bus."""

    def __init__(self, port, baud=115200, **kw):
        Link.__init__(self, port, **kw)
        self.queue = {}  # address -> frames held back for it
        self.order = []  # addresses in the order they are served (round robin)
        self.every = {}  # address -> ms between polls when there is nothing for it
        self.polled = {}  # address -> when it last had the bus
        self.owner = None  # type: int | None  # the address the bus is handed to
        self.until = self.until_us = 0  # when what it sent will have left the line
        self.byte_us = 10000000 // baud  # 8N1: 10 bits a byte
        self.turns = 0
        self.silent = 0  # turns taken back from a silent device

    def put(self, addr, frame):
        q = self.queue.get(addr)
        if q is None:
            q = self.queue[addr] = []
            self.order.append(addr)
        if frame[3] == W.ACK:  # acknowledgements are cumulative: the last one says it all
            for i in range(len(q) - 1, -1, -1):
                if q[i][3] == W.ACK:
                    del q[i]
        if frame not in q:  # a resend of a frame still held back is not queued twice
            q.append(frame)

    def waiting(self, addr):
        """Frames for `addr` not yet acknowledged: held back, or sent and unanswered (a
        display is sent one change at a time, so the changes made meanwhile go as one)."""
        q = self.queue.get(addr)
        p = self.peers.get(addr)
        return (len(q) if q else 0) + (len(p.pending) if p is not None else 0)

    def free(self):
        """No device is speaking: what came in so far is all it had to say."""
        return self.owner is None

    def poll_every(self, addr, ms):
        """Poll `addr` every `ms` when there is nothing to send it (None: never)."""
        if ms is None:
            self.every.pop(addr, None)
        else:
            self.every[addr] = ms

    def poll(self, now_ms=None):
        out = Link.poll(self, now_ms)
        now = self.now
        if self.owner is not None:
            if self.turn is not None:  # its answer is over
                self.turn = self.owner = None
            elif now - max(self.until, self.rx_ms) >= _ANSWER_MS:
                self.silent += 1
                self.owner = None
        if self.owner is None:
            self._grant(now)
        return out

    def _grant(self, now):
        order = self.order
        for i in range(len(order)):
            addr = order[i]
            q = self.queue[addr]
            if not q:
                continue
            self.queue[addr] = []
            for f in q:
                if f[3] != W.ACK:  # something it must answer: the bus is handed over
                    del order[i]
                    order.append(addr)
                    return self._hand(addr, q, now)
            every = self.every.get(addr)
            if every is not None and now - self.polled.get(addr, -100000) >= every:
                # its poll is due: the acknowledgement is the poll
                del order[i]
                order.append(addr)
                return self._hand(addr, q, now)
            self._line(say(self.port, q, self.seal, False), now)  # acknowledgements: no answer wanted
        every = self.every
        best, late = None, -1
        for addr in every:
            t = now - self.polled.get(addr, -100000) - every[addr]
            if t >= 0 and t > late:
                best, late = addr, t
        if best is not None:  # (SEQ: its last frame taken, which a device checks: Delivery.keep)
            rx = self.peer(best).rx
            self._hand(best, [encode(best, rx or 0, W.POLL)], now)

    def _line(self, n, now):
        """n bytes more on the line: when it will be quiet again (ms)."""
        self.until_us = max(self.until_us, now * 1000) + n * self.byte_us
        self.until = (self.until_us + 999) // 1000

    def _hand(self, addr, frames, now):
        self._line(say(self.port, frames, self.seal), now)
        self.owner = addr
        self.polled[addr] = now
        self.turns += 1


def route_for(shoe, bus, seats=8, text_shoe=False):
    """The shoe on its own link (`shoe`); panels, seat displays and the table display on
    the bus (`bus`). A table whose bus is keyed (its device key) keys the shoe's link too:
    a framed shoe speaks in sessions, paired (`tapis pair`), or is refused; text_shoe (the
    signed configuration says so): an unpaired shoe is taken, unauthenticated."""
    if not text_shoe and shoe.keys is None and isinstance(bus.keys, bytes):
        shoe.keys, shoe.own = bus.keys, W.SHOE
    route = {W.SHOE: shoe, W.TABLE_DISPLAY: bus}
    for s in range(seats):
        route[W.PANEL + s] = route[W.DISPLAY + s] = bus
    return route


def rto_ms(baud):
    """Resend timeout: a whole 1 KB frame at this baud rate, twice, plus 20 ms."""
    return 2 * (1030 * 10 * 1000 // baud) + 20
