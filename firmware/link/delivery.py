# pyright: reportAttributeAccessIssue=false
# (the base of link.Link, which has the hooks: seal, hello, greeted)
# Reliable delivery (docs/protocol.md, "The reliable link"): frames over any Port (read() ->
# bytes, write(b)), kept per device address, so one end may serve a whole bus.
#
# Every data frame is acknowledged (ACK, cumulative, sent on the next poll: once the caller
# has handled it); a frame out of order is refused with a NAK naming the one expected;
# frames not acknowledged in time are sent again (go-back-N) at most `retries` times, then
# the device is dead; sequence numbers suppress duplicates; a device greeted is sent HELLO
# until it answers, then PING when quiet (heartbeats). HELLO, sessions and keys are link.py's
# and hello.py's, through the hooks seal, hello and greeted: this layer knows nothing of them.
from .. import wire as W
from ..compat import const
from .frames import Decoder, encode
from .peer import Peer

_WINDOW = const(96)  # unacknowledged frames to one device before it is declared dead
_STREAM = const(4)  # a stream's frames unacknowledged at most (RECORDs of 900 B: 3.6 KB of heap)


def later(a, b):
    """The later of two sequence numbers (modulo 256, within half the space)."""
    return a if (a - b) & 255 < 128 else b


class Delivery:
    """Frames out, frames in, each delivered once and in order. The hooks are link.Link's:
    seal (a frame as it goes on the wire), hello (HELLO to a peer) and greeted (a HELLO
    from one); `speaks`, the addresses this end announces itself on with HELLO."""

    PEER = Peer  # what it knows of an address (link.Link's adds the session)

    def __init__(self, port, rto_ms, retries, heartbeat_ms, speaks, max_in):
        self.port = port
        self.announce = list(speaks)
        self.turn = None  # type: int | None  # the address whose frame last handed the bus over
        self.decoder = Decoder(max_in)
        self.rto, self.retries, self.heartbeat = rto_ms, retries, heartbeat_ms
        self.peers = {}
        self.now = self.crc = 0
        self.rx_ms = 0  # when bytes last came in
        self.hold = False  # acknowledge nothing yet (the journal has not written what came)

    def peer(self, addr):
        """What this end knows of `addr` (made at the first word to or from it)."""
        p = self.peers.get(addr)
        if p is None:
            p = self.peers[addr] = self.PEER()
        return p

    def count(self, p, what):
        p.errors[what] = p.errors.get(what, 0) + 1

    # ---- frames out -------------------------------------------------------------------
    def send(self, addr, ftype, payload=b""):
        p = self.peer(addr)
        if p.dead or p.refused:
            self.count(p, "dropped")
            return
        p.seq = seq = (p.seq + 1) & 255
        frame = encode(addr, seq, ftype, payload)
        if p.greet and not p.helloed:  # held back until it answers HELLO
            p.pending.append([seq, frame, None, 0])
        else:
            self.put(addr, frame)
            p.pending.append([seq, frame, self.now, 0])
        if len(p.pending) > _WINDOW:
            self.die(addr, p)

    def stream(self, addr, frames):
        """An answer of many frames to `addr`: `frames`, an iterator of (type, payload), made
        and sent as acknowledgements come, _STREAM unacknowledged at most (each poll sends
        more); it replaces one still streaming to `addr`. Sent at once, a pit's DEALS of 10 club games (190
        RECORDs) overflowed the window, the pit was counted dead at each frame past it, and
        96 frames of 900 B held for resending ran a Pico out of heap."""
        p = self.peer(addr)
        p.stream = frames
        self._flow(addr, p)

    def _flow(self, addr, p):
        while p.stream and len(p.pending) < _STREAM and not (p.dead or p.quiet):
            f = next(p.stream, None)
            if f is None:
                p.stream = None
            else:
                self.send(addr, f[0], f[1])

    def control(self, addr, ftype, seq, payload=b""):
        """A frame of the link's own (ACK, NAK, HELLO): sent once, never acknowledged."""
        self.put(addr, encode(addr, seq, ftype, payload))

    def put(self, addr, frame):
        """A frame for `addr` goes out (bus.py holds it back until the bus is this end's)."""
        frame = self.seal(frame)  # (link.Link.seal: None while the session is to come)
        if frame is not None:
            self.port.write(frame)

    def waiting(self, addr):
        """Frames for `addr` held back, not yet on the wire (a bus waits for its turn)."""
        return 0

    # ---- frames in --------------------------------------------------------------------
    def poll(self, now_ms=None):
        self.now = now = self.now + 1 if now_ms is None else now_ms
        if self.announce:  # a device's first poll: HELLO on each address it speaks as
            for a in self.announce:
                self.hello(a, self.peer(a), 0)
            self.announce = []
        peers = self.peers
        for addr in peers:
            p = peers[addr]
            if p.ack_due and not self.hold:
                p.ack_due = False
                self.control(addr, W.ACK, p.rx)
        data = self.port.read()
        out = []
        if data:
            self.rx_ms = now
            d = self.decoder
            before, heard = d.errors, False
            for addr, seq, ftype, payload in d.feed(data):
                heard = True
                self.take(addr, seq, ftype, payload, out)
            self.crc += d.errors - before
            if heard:  # the other end is alive: a device end that gave up resending starts again
                for a in peers:
                    q = peers[a]
                    if q.quiet:
                        q.quiet = False
                        for f in q.pending:
                            f[3] = 0
                        self.resend(a, q)
        for addr in peers:
            p = peers[addr]
            if p.pending or p.greet:
                self._timers(addr, p, now)
            if p.stream:
                self._flow(addr, p)
        return out

    def take(self, addr, seq, ftype, payload, out):
        """A frame come in: its sequence number checked, and if it is the next one, added
        to `out` for the caller."""
        p = self.peer(addr)
        p.heard = self.now
        if ftype & W.TURN:  # on a bus: the sender hands the bus over after this frame
            ftype &= 0x7F
            self.turn = addr
        if ftype == W.POLL:
            return
        if (ftype == W.ACK or ftype == W.NAK) and p.greet and not p.helloed:
            return  # stale: about frames of this end before it was reset
        if ftype == W.ACK:
            self._acked(p, seq)
        elif ftype == W.NAK:
            self.count(p, "naks_got")
            if payload and payload[0] == W.NAK_VERSION:
                p.refused = "refused by the peer: protocol version %d not spoken" % W.VERSION
                p.pending = []
            elif p.pending and later(seq, p.pending[0][0]) == seq:
                self._acked(p, (seq - 1) & 255)
                self.resend(addr, p)
            else:  # it wants a frame already acknowledged: tell it where we are. What it
                p.lost = p.lost or p.greet  # missed is gone (it was reset, or a forged ACK acknowledged
                self.hello(addr, p, W.HELLO_REPLY | W.HELLO_SYNC)  # it): a view goes whole
        elif ftype == W.HELLO:
            self.greeted(addr, p, seq, payload)  # (link.Link.greeted: hello.py answers it)
        elif p.refused:
            self.count(p, "dropped")
        elif p.rx is None and (p.greet or seq != 1):
            # nothing known of its frames yet: wait for its HELLO, or ask where it stands
            self.count(p, "dropped")
            if not p.greet and p.nakked != -1:
                p.nakked = -1
                self.control(addr, W.NAK, 0, bytes((W.NAK_ORDER,)))
        else:
            if p.rx is None:
                p.rx = 0  # its very first frame
            d = (seq - p.rx) & 255
            if d == 1:
                p.rx, p.ack_due, p.nakked = seq, True, None
                if seq == p.expect:
                    p.expect = None
                t = p.took  # set by hello.greeted: a new session's HELLO named an older frame
                if t is not None and (t < 0 or later(seq, t) == seq):
                    p.took = None  # rx is the last frame taken again (or past it)
                if t is not None and t >= 0 and later(seq, t) == t:  # taken: its ACK was lost,
                    self.count(p, "duplicates")  # not it (a DRAW taken twice over-draws)
                elif ftype == W.WHOLE:  # a display's view did not decode: it goes again whole
                    p.lost = True
                elif ftype != W.PING:
                    out.append((addr, seq, ftype, payload))
            elif d == 0 or d >= 128:
                self.count(p, "duplicates")
                p.ack_due = True
            elif p.nakked != p.rx:  # a gap: one frame was lost; ask for it once
                p.nakked = p.rx
                self.count(p, "naks_sent")
                self.control(addr, W.NAK, (p.rx + 1) & 255, bytes((W.NAK_ORDER,)))

    def _acked(self, p, seq):
        p.quiet, pend = False, p.pending  # (an ACK of a frame never sent acknowledges nothing)
        while pend and pend[0][2] is not None and (seq - pend[0][0]) & 255 < 128 and \
                (p.seq - seq) & 255 < 128:
            self.done(p, pend.pop(0))

    def done(self, p, f):  # frame f to p acknowledged (remote.Device keeps its last few)
        pass

    def resend(self, addr, p):
        """Go-back-N: everything unacknowledged to `addr` again, or it is dead."""
        now = self.now
        for f in p.pending:
            f[3] += 1
            if f[3] > self.retries:
                self.die(addr, p)
                return
            if f[2] is None:  # held back: not sent yet
                continue
            self.put(addr, f[1])
            f[2] = now
            self.count(p, "retransmits")

    def die(self, addr, p):
        self.count(p, "dead")
        if not p.greet:  # a device keeps what it sent until the controller greets it again
            p.quiet = True
            return
        p.dead, p.helloed = True, False
        if p.keep:  # held back until it answers HELLO; its HELLO base tells it what they are
            for f in p.pending:
                f[2] = None
            return
        p.lost, p.pending, p.stream = True, [], None  # what was queued for it is gone: the controller sends it again

    def _timers(self, addr, p, now):
        if p.pending and not p.quiet and p.pending[0][2] is not None and \
                now - p.pending[0][2] >= self.rto:
            self.resend(addr, p)
        if not p.greet:
            return
        if not p.helloed:
            wait = self.heartbeat if p.dead else self.rto
            if p.hello_ms is None or now - p.hello_ms >= wait:
                p.hello_ms, p.hellos = now, p.hellos + 1
                if p.hellos > self.retries and not p.dead:
                    self.die(addr, p)
                self.hello(addr, p, 0)
        elif not p.pending and now - p.heard >= self.heartbeat and \
                now - p.ping_ms >= self.heartbeat:
            p.ping_ms = now
            self.send(addr, W.PING)
