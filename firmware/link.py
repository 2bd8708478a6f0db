# The reliable link (docs/protocol.md): frames over any Port (read() -> bytes, write(b)),
# kept per device address, so one Link may serve a whole bus.
#
# Every data frame is acknowledged (ACK, cumulative, sent on the next poll, so a frame is
# acknowledged only once the caller has handled it); a frame out of order is refused with
# a NAK naming the one expected; frames not acknowledged in time are sent again
# (go-back-N) at most `retries` times, after which the device is dead; sequence numbers
# suppress duplicates. The controller's end greets each device with HELLO (protocol
# version, device type, flags, its next sequence number, its session, its serial); a
# device with another version is refused, and one that greets with a new session was
# reset: where its frames stand starts again. The controller sees a device only through
# the health API below.
#
# A paired device (keys=...) is spoken to in sessions (docs/protocol.md, "Sessions"):
# hello.py makes them; every frame of a session but POLL is sealed as it goes on the wire
# (a 16-bit counter and 8 bytes of MAC under the session key) and opened as it comes in,
# before anything else looks at it; a SHOW to a seat's display travels encrypted.
import hashlib

from . import wire as W
from .compat import const, unload
from .frames import Decoder, encode
from .mac import keyed

_RTO_MS = const(40)  # resend what is unacknowledged after this long
_RETRIES = const(6)  # resends of one frame before the device is declared dead
_HEARTBEAT_MS = const(500)  # PING a device that has been quiet this long
_WINDOW = const(96)  # unacknowledged frames to one device before it is declared dead
# A sealed frame ends with its counter's low byte (the receiver takes the next counter
# with that byte: the MAC covers all 32 bits, so an old frame never passes) and a MAC of
# 4 bytes, as bus-constrained protocols truncate it (AUTOSAR SecOC 24-64 bits, Zigbee's
# MIC-32). A forger can only guess it online (the session key never leaves the two
# ends), one frame in 2^32, each miss counted and shown on the table display. A 2-byte
# counter and 8-byte MAC on every frame put an écarté deal at 211 ms of bus time; this,
# with the link's control frames plain (_seal), at 146 ms: within issue 11's 150.
_TAG = const(4)

def _ctr(c):
    return bytes((c >> 24 & 255, c >> 16 & 255, c >> 8 & 255, c & 255))


def _mac(p, head, body, c):
    """_TAG bytes of HMAC-SHA256 under p's session key over a frame and its counter."""
    return keyed(p.pads, head, body + _ctr(c))[:_TAG]


def _crypt(key, c, data):
    """XOR with the keystream sha256(key || counter || block): both ways alike."""
    out = bytearray(data)
    cb = _ctr(c)
    for i in range(0, len(out), 32):
        ks = hashlib.sha256(key + cb + bytes((i >> 5,))).digest()
        for j in range(min(32, len(out) - i)):
            out[i + j] ^= ks[j]
    return bytes(out)


def _secret(addr, t):
    return t == W.SHOW and addr != W.TABLE_DISPLAY  # a seat's view: its hand


def later(a, b):
    """The later of two sequence numbers (modulo 256, within half the space)."""
    return a if (a - b) & 255 < 128 else b


class _Peer:
    """What one end knows about one device address. The defaults are the class's: an
    instance holds only what was set for it (a map of 27 slots a peer, 464 B on a 64-bit
    port, was what a board's heap lacked at a resume)."""

    seq = 0  # the last sequence number sent to it
    rx = None  # type: int | None  # the last sequence number taken from it
    restored = None  # type: int | None  # the last taken, says the journal
    expect = None  # type: int | None  # its last frame in flight, from its HELLO
    ack_due = False
    nakked = None  # type: int | None
    heard = 0
    greet = False  # this end greets it (the controller's end)
    keep = False  # what is queued for it survives its death (greet(keep=True))
    hello_ms = None  # type: int | None  # when HELLO was last sent (greeting end)
    hellos = 0  # HELLOs sent without an answer
    helloed = False  # it answered HELLO
    ping_ms = 0
    quiet = False  # gave up resending until greeted again (device end)
    lost = False  # what was queued for it is gone, since the controller last looked
    dead = False
    refused = None  # type: str | None  # why it was refused
    info = None  # type: tuple | None  # (type, serial, version) from its HELLO
    session = None  # type: int | None  # its session, from its HELLO
    pads = None  # type: tuple | None  # the session key's HMAC pads (a paired device)
    sk = None  # type: bytes | None  # the session key
    tx = 0  # the counter of the last frame sealed to it in this session
    rc = 0  # ... and of the last one taken from it
    nonce = None  # type: bytes | None  # the challenge this end sent, or answers
    answered = None  # type: tuple | None  # (challenge, answer) of this session (device end)

    def __init__(self):
        self.pending = []  # [seq, frame, sent_ms, tries], oldest first
        self.errors = {}  # type: dict


class Link:
    """One serial link: frames out, frames in. `device` and `serial` are what this end
    says in HELLO."""

    def __init__(self, port, device=W.DEV_CONTROLLER, serial=b"", rto_ms=_RTO_MS,
                 retries=_RETRIES, heartbeat_ms=_HEARTBEAT_MS, session=None, speaks=(),
                 max_in=W.MAX_PAYLOAD, keys=None):
        """speaks: the addresses a device speaks as; it announces itself on them with
        HELLO when it starts, so a controller notices that it was reset (a new session)
        and takes its frames from the first again. max_in: the longest payload taken
        (the board takes only short frames from devices: frames.py bounds its work so).
        keys: the table's device key (bytes: the controller's end derives each bus
        device's pairing key, hello.pair_key), or a paired device's {address: key}."""
        self.port = port
        self.announce = list(speaks)
        self.turn = None  # type: int | None  # the address whose frame last handed the bus over
        if session is None:  # a number drawn for each Link made (so, on a board, at each boot)
            try:
                import os
                r = os.urandom(2)
                session = r[0] << 8 | r[1]
            except (ImportError, AttributeError, NotImplementedError, OSError):
                session = id(object())  # no random source: at least not the last one's
        self.session = session & 0xFFFF
        self.decoder = Decoder(max_in)
        self.device, self.serial = device, bytes(serial)
        self.rto, self.retries, self.heartbeat = rto_ms, retries, heartbeat_ms
        self.peers = {}
        self.now = 0
        self.rx_ms = 0  # when bytes last came in
        self.hold = False  # acknowledge nothing yet (the journal has not written what came)
        self.crc = 0
        self.keys = keys
        self.forged = 0  # frames refused as forged, replayed or out of session

    def _keyed(self, addr):
        """Is `addr` a paired device's, spoken to only in sessions?"""
        k = self.keys
        if k is None:
            return False
        if isinstance(k, dict):
            return addr in k
        # the bus devices and the supervisor's, whose address is its credential (the shoe
        # has its wire)
        return W.PANEL <= addr <= W.TABLE_DISPLAY or addr == W.SUPERVISOR

    def _refuse(self, p, why):
        self._count(p, why)
        self.forged += 1

    def _open(self, addr, seq, ftype, payload):
        """A frame from a paired device: its payload opened, or None when it is refused
        (forged, replayed or out of session: counted)."""
        p = self._peer(addr)
        n = len(payload) - 1 - _TAG
        if p.pads is None or n < 0:
            return self._refuse(p, "forged")
        t = ftype & 0x7F
        last = p.rc
        c = last & ~0xFF | payload[n]  # the counter's low byte: the next one after last
        if c <= last:
            c += 0x100
        head, body, tag = bytes((addr, seq, t)), payload[:n], payload[n + 1:]
        if _mac(p, head, body, c) != tag:
            old = c - 0x100
            return self._refuse(p, "replayed" if old > 0 and _mac(p, head, body, old) == tag else "forged")
        p.rc = c
        return _crypt(p.sk, c, body) if _secret(addr, t) else body

    def _seal(self, f):
        """A frame as it goes on the wire: to a paired device, its counter and MAC (a
        seat's view encrypted); None while there is no session (it is sent again after)."""
        addr, t = f[1], f[3] & 0x7F
        # ACK, NAK, HELLO (its own MAC) and POLL go plain: a forged one can only delay or
        # drop frames, which the link resends or resynchronises, as jamming the bus can;
        # sealing them cost an écarté deal 45 ms of bus time (docs/security.md)
        if self.keys is None or t < W.PING or t == W.POLL or not self._keyed(addr):
            return f
        p = self._peer(addr)
        if p.pads is None:
            return None
        p.tx = c = p.tx + 1
        body = f[6:-2]
        if _secret(addr, t):
            body = _crypt(p.sk, c, body)
        return encode(addr, f[2], f[3], body + _ctr(c)[3:] + _mac(p, bytes((addr, f[2], t)), body, c))

    def _peer(self, addr):
        p = self.peers.get(addr)
        if p is None:
            p = self.peers[addr] = _Peer()
        return p

    def _count(self, p, what):
        p.errors[what] = p.errors.get(what, 0) + 1

    # ---- the health API: all the controller knows of a device --------------------------
    def greet(self, addr, keep=False):
        """Greet the device at `addr` with HELLO and watch it with heartbeats. keep: what
        is queued for it is not dropped when it is declared dead but held back and sent
        after it answers HELLO again, each frame exactly once (the shoe: a DRAW dropped
        with the queue cannot be told from one it took, and asking again over-draws)."""
        p = self._peer(addr)
        p.greet, p.keep = True, keep

    def restore(self, addr, seq, session=None):
        """After a reset: the journal says frame `seq` from `addr` (of its `session`) was
        already taken. A HELLO with another session is a device rebooted since: it counts
        afresh."""
        p = self._peer(addr)
        p.restored = p.rx = seq
        p.session = session

    def ready(self, addr):
        """The device answered HELLO, is alive and everything it had in flight arrived."""
        p = self.peers.get(addr)
        if p is None or not p.helloed or p.dead or p.refused:
            return False
        return p.expect is None

    def alive(self, addr):
        p = self.peers.get(addr)
        return p is None or not p.dead

    def refused(self, addr):
        """Why the device was refused (its protocol version), or None."""
        p = self.peers.get(addr)
        return p.refused if p is not None else None

    def heard(self, addr):
        """When a frame of it last came in (ms), 0 if never."""
        p = self.peers.get(addr)
        return p.heard if p is not None else 0

    def lost(self, addr):
        """True once after what was queued for a live device was lost (it was declared
        dead and came back, or it was reset): what it missed must be sent again."""
        p = self.peers.get(addr)
        if p is None or not p.lost or p.dead:
            return False
        p.lost = False
        return True

    def stats(self, addr):
        """Per-device error counters and what its HELLO said."""
        from .hello import stats  # the host's question: the board's play never asks it
        return stats(self, addr)

    # ---- frames out -------------------------------------------------------------------
    def send(self, addr, ftype, payload=b""):
        p = self._peer(addr)
        if p.dead or p.refused:
            self._count(p, "dropped")
            return
        p.seq = seq = (p.seq + 1) & 255
        frame = encode(addr, seq, ftype, payload)
        if p.greet and not p.helloed:  # held back until it answers HELLO
            p.pending.append([seq, frame, None, 0])
        else:
            self._put(addr, frame)
            p.pending.append([seq, frame, self.now, 0])
        if len(p.pending) > _WINDOW:
            self._die(addr, p)

    def _control(self, addr, ftype, seq, payload=b""):
        self._put(addr, encode(addr, seq, ftype, payload))

    def _put(self, addr, frame):
        """A frame for `addr` goes out (bus.py holds it back until the bus is this end's)."""
        frame = self._seal(frame)
        if frame is not None:
            self.port.write(frame)

    def waiting(self, addr):
        """Frames for `addr` held back, not yet on the wire (a bus waits for its turn)."""
        return 0

    # ---- HELLO: a session is drawn at each boot, so a new one means the peer was reset ---
    def _hello(self, addr, p, flags):
        base = p.pending[0][0] if p.pending else (p.seq + 1) & 255
        sess = self.session
        payload = bytes((W.VERSION, self.device, flags, (p.seq + 1) & 255, sess >> 8, sess & 255))
        if self.keys is not None and self._keyed(addr):
            from .hello import keyed  # nonces and the pairing key's MAC: loaded, then unloaded
            payload = keyed(self, addr, p, base, payload)  # the whole payload
            unload("hello")
        else:
            payload += self.serial
        self._control(addr, W.HELLO, base, payload)

    def _on_hello(self, addr, p, seq, payload):
        from .hello import _on_hello  # a device's boot is rare in play: loaded for it, then unloaded
        _on_hello(self, addr, p, seq, payload)
        unload("hello")

    # ---- frames in --------------------------------------------------------------------
    def poll(self, now_ms=None):
        self.now = now = self.now + 1 if now_ms is None else now_ms
        if self.announce:  # a device's first poll: HELLO on each address it speaks as
            for a in self.announce:
                self._hello(a, self._peer(a), 0)
            self.announce = []
        peers = self.peers
        for addr in peers:
            p = peers[addr]
            if p.ack_due and not self.hold:
                p.ack_due = False
                self._control(addr, W.ACK, p.rx)
        data = self.port.read()
        out = []
        if data:
            self.rx_ms = now
            d = self.decoder
            before = d.errors
            heard = False
            for addr, seq, ftype, payload in d.feed(data):
                heard = True
                self._take(addr, seq, ftype, payload, out)
            self.crc += d.errors - before
            if heard:  # the other end is alive: a device end that gave up resending starts again
                for a in peers:
                    q = peers[a]
                    if q.quiet:
                        q.quiet = False
                        for f in q.pending:
                            f[3] = 0
                        self._resend(a, q)
        for addr in peers:
            p = peers[addr]
            if p.pending or p.greet:
                self._timers(addr, p, now)
        return out

    def _take(self, addr, seq, ftype, payload, out):
        t = ftype & 0x7F
        if self.keys is not None and t >= W.PING and t != W.POLL and self._keyed(addr):
            payload = self._open(addr, seq, ftype, payload)
            if payload is None:
                return  # refused before anything looks at it (its sequence number included)
        p = self._peer(addr)
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
            self._count(p, "naks_got")
            if payload and payload[0] == W.NAK_VERSION:
                p.refused = "refused by the peer: protocol version %d not spoken" % W.VERSION
                p.pending = []
            elif p.pending and later(seq, p.pending[0][0]) == seq:
                self._acked(p, (seq - 1) & 255)
                self._resend(addr, p)
            else:  # it wants a frame already acknowledged (it was reset): tell it where we are
                self._hello(addr, p, W.HELLO_REPLY | W.HELLO_SYNC)
        elif ftype == W.HELLO:
            self._on_hello(addr, p, seq, payload)
        elif p.refused:
            self._count(p, "dropped")
        elif p.rx is None and (p.greet or seq != 1):
            # nothing known of its frames yet: wait for its HELLO, or ask where it stands
            self._count(p, "dropped")
            if not p.greet and p.nakked != -1:
                p.nakked = -1
                self._control(addr, W.NAK, 0, bytes((W.NAK_ORDER,)))
        else:
            if p.rx is None:
                p.rx = 0  # its very first frame
            d = (seq - p.rx) & 255
            if d == 1:
                p.rx = seq
                p.ack_due = True
                p.nakked = None
                if seq == p.expect:
                    p.expect = None
                if ftype != W.PING:
                    out.append((addr, seq, ftype, payload))
            elif d == 0 or d >= 128:
                self._count(p, "duplicates")
                p.ack_due = True
            elif p.nakked != p.rx:  # a gap: one frame was lost; ask for it once
                p.nakked = p.rx
                self._count(p, "naks_sent")
                self._control(addr, W.NAK, (p.rx + 1) & 255, bytes((W.NAK_ORDER,)))

    def _acked(self, p, seq):
        p.quiet = False
        pend = p.pending
        while pend and pend[0][2] is not None and (seq - pend[0][0]) & 255 < 128:
            pend.pop(0)

    def _resend(self, addr, p):
        now = self.now
        if p.pads is None and not p.greet and self.keys is not None and self._keyed(addr):
            self._hello(addr, p, 0)  # a paired device with no session yet asks for one
        for f in p.pending:
            f[3] += 1
            if f[3] > self.retries:
                self._die(addr, p)
                return
            if f[2] is None:  # held back: not sent yet
                continue
            self._put(addr, f[1])
            f[2] = now
            self._count(p, "retransmits")

    def _die(self, addr, p):
        self._count(p, "dead")
        if not p.greet:  # a device keeps what it sent until the controller greets it again
            p.quiet = True
            p.pads = None  # (a paired device: in a new session, which it asks for)
            return
        p.dead = True
        p.helloed = False
        if p.keep:  # held back until it answers HELLO; its HELLO base tells it what they are
            for f in p.pending:
                f[2] = None
            return
        p.lost = True  # what was queued for it is gone: the controller sends it again
        p.pending = []

    def _timers(self, addr, p, now):
        if p.pending and not p.quiet and p.pending[0][2] is not None and \
                now - p.pending[0][2] >= self.rto:
            self._resend(addr, p)
        if not p.greet:
            return
        if not p.helloed:
            wait = self.heartbeat if p.dead else self.rto
            if p.hello_ms is None or now - p.hello_ms >= wait:
                p.hello_ms = now
                p.hellos += 1
                if p.hellos > self.retries and not p.dead:
                    self._die(addr, p)
                self._hello(addr, p, 0)
        elif not p.pending and now - p.heard >= self.heartbeat and \
                now - p.ping_ms >= self.heartbeat:
            p.ping_ms = now
            self.send(addr, W.PING)
